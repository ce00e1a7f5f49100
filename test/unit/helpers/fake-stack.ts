/**
 * An Automation API `Stack` that holds config in memory and records every `setAllConfig` and
 * `removeAllConfig` (one entry per call); its workspace is `workDir` (default: a directory that does not exist), so a
 * test that undoes config changes can give a real stack settings file.
 */
import type { Stack } from "@pulumi/pulumi/automation";

export function fakeStack(
  config: Record<string, unknown>,
  workspace: { workDir: string; stackConfigDir?: string } = { workDir: "/nonexistent" },
): { stack: Stack; calls: string[] } {
  const calls: string[] = [];
  const stack = {
    name: "dev",
    workspace: { workDir: workspace.workDir, projectSettings: async () => ({ name: "p", stackConfigDir: workspace.stackConfigDir }) },
    getAllConfig: async () => Object.fromEntries(Object.entries(config).map(([k, v]) => [k, { value: JSON.stringify(v) }])),
    setAllConfig: async (config: Record<string, { value: string }>, path: boolean) =>
      void calls.push(
        `set ${Object.entries(config)
          .map(([k, v]) => `${k}=${v.value}`)
          .join(" ")} path=${path}`,
      ),
    removeAllConfig: async (keys: string[], path: boolean) => void calls.push(`remove ${keys.join(" ")} path=${path}`),
  } as unknown as Stack;
  return { stack, calls };
}
