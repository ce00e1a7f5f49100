/**
 * A `PulumiStack` (ops/pulumi-stack.ts) that holds config in memory and records every `setAllConfig` and
 * `removeAllConfig` (one entry per call); its workspace is `workDir` (default: a directory that does not exist), so a
 * test that undoes config changes can give a real stack settings file.
 */
import type { PulumiStack } from "../../../ops/pulumi-stack";

export function fakeStack(
  config: Record<string, unknown>,
  workspace: { workDir: string; stackConfigDir?: string } = { workDir: "/nonexistent" },
): { stack: PulumiStack; calls: string[] } {
  const calls: string[] = [];
  const stack = {
    name: "dev",
    workDir: workspace.workDir,
    stackConfigDir: () => workspace.stackConfigDir ?? "",
    getAllConfig: async () => Object.fromEntries(Object.entries(config).map(([k, v]) => [k, { value: JSON.stringify(v) }])),
    setAllConfig: async (config: Record<string, string>, path: boolean) =>
      void calls.push(
        `set ${Object.entries(config)
          .map(([k, v]) => `${k}=${v}`)
          .join(" ")} path=${path}`,
      ),
    removeAllConfig: async (keys: string[], path: boolean) => void calls.push(`remove ${keys.join(" ")} path=${path}`),
  } as unknown as PulumiStack;
  return { stack, calls };
}
