/** Reading a stack's config for the `nfv` operations, and writing config changes back. */
import { existsSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import * as path from "node:path";
import type { PulumiStack, StackOutputs } from "./pulumi-stack";
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

export async function readRawConfig(stack: PulumiStack): Promise<RawStackConfig> {
  const config = await stack.getAllConfig();
  return {
    vims: parsed(config, "vims"),
    vnfs: parsed(config, "vnfs"),
    magnumClusters: parsed(config, "magnum_clusters"),
    openstackControlPlanes: parsed(config, "openstack_control_planes"),
    networkServices: parsed(config, "network_services"),
  };
}

/** The stack's settings as its program reads them (same checks, packages translated, requests read): `raw`, or the stack's config; problems thrown. */
export async function loadStack(stack: PulumiStack, projectRoot: string, raw?: RawStackConfig): Promise<StackSettings> {
  const settings = await loadStackSettings(raw ?? (await readRawConfig(stack)), projectRoot, stack.name, loadStackFile(projectRoot, stack.name));
  settings.bag.throwIfErrors(`invalid configuration for stack '${stack.name}'`);
  return settings;
}

/** The stack's VNFs, as its program sees them. */
export async function loadStackVnfs(stack: PulumiStack, projectRoot: string): Promise<PreparedVnf[]> {
  return (await loadStack(stack, projectRoot)).vnfs;
}

/** The stack's VNFs and its outputs, read side by side: a CLI call each, about half a second here, and both only read. */
export async function loadStackVnfsAndOutputs(stack: PulumiStack, projectRoot: string): Promise<{ vnfs: PreparedVnf[]; outputs: StackOutputs }> {
  const [raw, outputs] = await Promise.all([readRawConfig(stack), stack.outputs()]);
  return { vnfs: (await loadStack(stack, projectRoot, raw)).vnfs, outputs };
}

/** The stack's settings file as it was at one moment: absent (`saved` undefined) or these bytes. */
export interface SettingsSnapshot {
  file: string;
  saved?: Buffer;
}

export function snapshotSettings(stack: PulumiStack): SettingsSnapshot {
  const file = stackSettingsFile(stack);
  return existsSync(file) ? { file, saved: readFileSync(file) } : { file };
}

/** Writes the settings file back byte for byte (comments, key order, encrypted secrets as they were), or removes it if it was absent. */
export function restoreSettings(snapshot: SettingsSnapshot): void {
  if (snapshot.saved) writeFileSync(snapshot.file, snapshot.saved);
  else rmSync(snapshot.file, { force: true });
}

/**
 * Writes the changes in their order (`config set-all --path`, `config rm-all --path`), each run of
 * sets or of removals in one CLI call: a call costs the CLI's start, about half a second here.
 * Removing what is not there does nothing. Returns the settings file as it was before, which
 * `restoreSettings` puts back (`--preview`, `nfv rollback`): a removed mapping (a whole VNF entry)
 * comes back whole, a secret still encrypted.
 */
export async function applyConfigChanges(stack: PulumiStack, changes: ConfigChange[]): Promise<SettingsSnapshot> {
  const before = snapshotSettings(stack);
  // Only a removal needs the config as it is: a path that is not there is left out.
  const config = changes.some((c) => c.remove) ? await stack.getAllConfig() : {};
  for (const run of runsOfOneKind(changes)) {
    if (run[0].remove) {
      const present = run.filter((c) => valueAt(config, pathSegments(c.key)) !== undefined).map((c) => c.key);
      if (present.length > 0) await stack.removeAllConfig(present, true);
    } else {
      await stack.setAllConfig(Object.fromEntries(run.map((c) => [c.key, c.value ?? ""])), true);
    }
  }
  return before;
}

/** The changes cut where a set follows a removal or a removal a set: their order matters (a list removed, then written item by item). */
function runsOfOneKind(changes: ConfigChange[]): ConfigChange[][] {
  const runs: ConfigChange[][] = [];
  for (const c of changes) {
    const last = runs.at(-1);
    if (last && !last[0].remove === !c.remove) last.push(c);
    else runs.push([c]);
  }
  return runs;
}

/** The file `pulumi config set` writes for this stack: `Pulumi.<stack>.yaml` in the project's `stackConfigDir`. */
function stackSettingsFile(stack: PulumiStack): string {
  return path.join(stack.workDir, stack.stackConfigDir(), `Pulumi.${shortName(stack)}.yaml`);
}

/** `org/project/dev` → `dev`: the name in the stack's file names. */
export function shortName(stack: PulumiStack): string {
  return stack.name.split("/").pop() ?? stack.name;
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
