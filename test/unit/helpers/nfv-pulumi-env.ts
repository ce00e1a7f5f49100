/**
 * What `nfv` gives its pulumi processes, seen from the Automation API: `nfv preview --stack s` runs
 * with `LocalWorkspace.selectStack` stubbed (the stack does not exist, so the command ends with
 * exit 1); `during` sees the environment while the command runs. Callers restore mocks after.
 */
import { LocalWorkspace, type LocalWorkspaceOptions } from "@pulumi/pulumi/automation";
import { expect, vi } from "vitest";
import { main } from "../../../cli/nfv";

const quiet = { out: () => undefined, err: () => undefined };

export async function previewEnv(during: (env: Record<string, string>) => void = () => undefined): Promise<Record<string, string>> {
  let given: Record<string, string> = {};
  vi.spyOn(LocalWorkspace, "selectStack").mockImplementation((_args, opts?: LocalWorkspaceOptions) => {
    given = opts?.envVars ?? {};
    during(given);
    const e = new Error("no stack");
    e.name = "StackNotFoundError";
    return Promise.reject(e);
  });
  expect(await main(["preview", "--stack", "s"], quiet)).toBe(1);
  return given;
}
