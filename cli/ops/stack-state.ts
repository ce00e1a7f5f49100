/** Reading a stack's config and outputs for `nfv scale/heal`, and writing config changes back. */
import type { Stack } from "@pulumi/pulumi/automation";
import { DiagnosticError } from "../../translators/diagnostics";
import { loadStackFile, PROJECT } from "../../stacks/config";
import { loadStackSettings } from "../../stacks/settings";
import type { PreparedVnf } from "../../stacks/vnfs";
import type { ConfigChange } from "./operations";

function parsed(config: Record<string, { value: string }>, key: string): unknown {
  const raw = config[`${PROJECT}:${key}`]?.value;
  if (raw === undefined) return undefined;
  try {
    return JSON.parse(raw);
  } catch {
    return raw;
  }
}

/** The stack's VNFs, as its program sees them (same checks, packages translated, requests read). */
export async function loadStackVnfs(stack: Stack, projectRoot: string): Promise<PreparedVnf[]> {
  const config = await stack.getAllConfig();
  const { vnfs, bag } = await loadStackSettings({ vims: parsed(config, "vims"), vnfs: parsed(config, "vnfs") }, projectRoot, stack.name, loadStackFile(projectRoot, stack.name));
  bag.throwIfErrors(`invalid configuration for stack '${stack.name}'`);
  return vnfs;
}

/** Writes the changes (`config set --path`) and returns how to undo them (for `--preview`). */
export async function applyConfigChanges(stack: Stack, changes: ConfigChange[]): Promise<() => Promise<void>> {
  const before = await stack.getAllConfig();
  const previous = new Map<string, string | undefined>();
  for (const c of changes) {
    previous.set(c.key, pathValue(before, c.key));
    await stack.setConfig(c.key, { value: c.value }, true);
  }
  return async () => {
    for (const [key, value] of previous) {
      if (value === undefined) await stack.removeConfig(key, true);
      else await stack.setConfig(key, { value }, true);
    }
  };
}

/** The current value at a `ns:key.a.b` path of the config, as a string. */
function pathValue(config: Record<string, { value: string }>, key: string): string | undefined {
  const [head, ...path] = key.split(".");
  let node: unknown = config[head] === undefined ? undefined : JSON.parse(config[head].value);
  for (const part of path) node = typeof node === "object" && node !== null ? (node as Record<string, unknown>)[part] : undefined;
  return node === undefined ? undefined : String(node);
}

export function describeError(e: unknown): string {
  return e instanceof DiagnosticError ? e.message : (e as Error).message;
}
