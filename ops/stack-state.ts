/** Reading a stack's config and outputs for `nfv scale/heal`, and writing config changes back. */
import type { Stack } from "@pulumi/pulumi/automation";
import { loadStackFile, PROJECT } from "../stacks/config";
import { loadStackSettings } from "../stacks/settings";
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

/** The stack's VNFs, as its program sees them (same checks, packages translated, requests read). */
export async function loadStackVnfs(stack: Stack, projectRoot: string): Promise<PreparedVnf[]> {
  const config = await stack.getAllConfig();
  const { vnfs, bag } = await loadStackSettings(
    {
      vims: parsed(config, "vims"),
      vnfs: parsed(config, "vnfs"),
      magnumClusters: parsed(config, "magnum_clusters"),
      networkServices: parsed(config, "network_services"),
    },
    projectRoot,
    stack.name,
    loadStackFile(projectRoot, stack.name),
  );
  bag.throwIfErrors(`invalid configuration for stack '${stack.name}'`);
  return vnfs;
}

/**
 * Writes the changes (`config set --path`, or `rm --path`) and returns how to undo them (for `--preview`): values
 * that existed are written back; a key that did not is removed from its highest new parent, so no
 * empty mapping or list is left behind (`change_ext_conn: {}` would be invalid config).
 */
export async function applyConfigChanges(stack: Stack, changes: ConfigChange[]): Promise<() => Promise<void>> {
  const before = await stack.getAllConfig();
  const restore = new Map<string, string>();
  const remove = new Set<string>();
  for (const c of changes) {
    const segments = pathSegments(c.key);
    const firstNew = segments.findIndex((_s, i) => valueAt(before, segments.slice(0, i + 1)) === undefined);
    if (c.remove && firstNew >= 0) continue; // nothing there to remove
    if (firstNew < 0) restore.set(c.key, String(valueAt(before, segments)));
    else remove.add(joinSegments(segments.slice(0, firstNew + 1)));
    if (c.remove) await stack.removeConfig(c.key, true);
    else await stack.setConfig(c.key, { value: c.value ?? "" }, true);
  }
  return async () => {
    for (const key of remove) await stack.removeConfig(key, true);
    for (const [key, value] of restore) await stack.setConfig(key, { value }, true);
  };
}

/** `ns:key.a[0].b` → ["ns:key", "a", 0, "b"]. */
function pathSegments(key: string): (string | number)[] {
  return key.split(".").flatMap((part) => {
    const m = /^([^[]*)((?:\[\d+\])*)$/.exec(part)!;
    return [m[1], ...[...m[2].matchAll(/\[(\d+)\]/g)].map((x) => Number(x[1]))].filter((x) => x !== "");
  });
}

function joinSegments(segments: (string | number)[]): string {
  return segments.map((s, i) => (typeof s === "number" ? `[${s}]` : i === 0 ? s : `.${s}`)).join("");
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
