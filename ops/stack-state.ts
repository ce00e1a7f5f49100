/** Reading a stack's config for the `nfv` operations, and writing config changes back. */
import { existsSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import * as path from "node:path";
import type { Stack } from "@pulumi/pulumi/automation";
import { loadStackFile, PROJECT } from "../stacks/config";
import { loadStackSettings, type StackSettings } from "../stacks/settings";
import type { PreparedVnf } from "../stacks/vnfs";
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

/** The stack's `pulumi-nfv:` values its settings are read from, parsed. */
export type RawStackConfig = Parameters<typeof loadStackSettings>[0];

export async function readRawConfig(stack: Stack): Promise<RawStackConfig> {
  const config = await stack.getAllConfig();
  return {
    vims: parsed(config, "vims"),
    vnfs: parsed(config, "vnfs"),
    magnumClusters: parsed(config, "magnum_clusters"),
    networkServices: parsed(config, "network_services"),
  };
}

/** The stack's settings as its program reads them (same checks, packages translated, requests read): `raw`, or the stack's config; problems thrown. */
export async function loadStack(stack: Stack, projectRoot: string, raw?: RawStackConfig): Promise<StackSettings> {
  const settings = await loadStackSettings(raw ?? (await readRawConfig(stack)), projectRoot, stack.name, loadStackFile(projectRoot, stack.name));
  settings.bag.throwIfErrors(`invalid configuration for stack '${stack.name}'`);
  return settings;
}

/** The stack's VNFs, as its program sees them. */
export async function loadStackVnfs(stack: Stack, projectRoot: string): Promise<PreparedVnf[]> {
  return (await loadStack(stack, projectRoot)).vnfs;
}

/**
 * Writes the changes (`config set --path`, or `rm --path`; removing what is not there does nothing)
 * and returns how to undo them (for `--preview`): the stack's settings file written back byte for
 * byte, so comments, key order and encrypted secrets are as they were, and a removed mapping (a
 * whole VNF entry) comes back whole.
 */
export async function applyConfigChanges(stack: Stack, changes: ConfigChange[]): Promise<() => Promise<void>> {
  const file = await stackSettingsFile(stack);
  const saved = existsSync(file) ? readFileSync(file) : undefined;
  const before = await stack.getAllConfig();
  for (const c of changes) {
    if (!c.remove) await stack.setConfig(c.key, { value: c.value ?? "" }, true);
    else if (valueAt(before, pathSegments(c.key)) !== undefined) await stack.removeConfig(c.key, true);
  }
  return async () => {
    if (saved) writeFileSync(file, saved);
    else rmSync(file, { force: true });
  };
}

/** The file `pulumi config set` writes for this stack: `Pulumi.<stack>.yaml` in the project's `stackConfigDir`. */
async function stackSettingsFile(stack: Stack): Promise<string> {
  // Pulumi.yaml's `stackConfigDir` is read by the CLI, though the SDK's ProjectSettings type omits it.
  const project = (await stack.workspace.projectSettings()) as { stackConfigDir?: string };
  const name = stack.name.split("/").pop() ?? stack.name;
  return path.join(stack.workspace.workDir, project.stackConfigDir ?? "", `Pulumi.${name}.yaml`);
}

/** `ns:key.a[0].b` → ["ns:key", "a", 0, "b"]. */
function pathSegments(key: string): (string | number)[] {
  return key.split(".").flatMap((part) => {
    const m = /^([^[]*)((?:\[\d+\])*)$/.exec(part)!;
    return [m[1], ...[...m[2].matchAll(/\[(\d+)\]/g)].map((x) => Number(x[1]))].filter((x) => x !== "");
  });
}

/** The value at a path of the config (the first segment is the top-level key, its value JSON or a string). */
function valueAt(config: Record<string, { value: string }>, segments: (string | number)[]): unknown {
  const [head, ...rest] = segments;
  const raw = config[head as string]?.value;
  if (raw === undefined) return undefined;
  let node: unknown;
  try {
    node = JSON.parse(raw);
  } catch {
    node = raw;
  }
  for (const s of rest) node = typeof node === "object" && node !== null ? (node as Record<string | number, unknown>)[s] : undefined;
  return node;
}
