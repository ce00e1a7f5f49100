/**
 * Kubernetes node names (and hostnames), unique per cluster: `<cluster>-<vnfcId>` made a DNS label.
 * Tacker used `master<last octet>`/`worker<last octet>`, which collides across /24 networks.
 */
import { createHash } from "node:crypto";

const MAX = 63;

export function nodeName(cluster: string, vnfcId: string): string {
  const label = `${cluster}-${vnfcId}`.toLowerCase().replace(/[^a-z0-9-]+/g, "-").replace(/-+/g, "-").replace(/^-+|-+$/g, "");
  if (label.length <= MAX) return label;
  // Too long for a hostname: keep the distinctive tail (the VNFC id) and a hash of the whole.
  const hash = createHash("sha256").update(`${cluster}/${vnfcId}`).digest("hex").slice(0, 8);
  return `${label.slice(0, MAX - 9).replace(/-+$/, "")}-${hash}`;
}

/** Names for every VNFC; throws when two VNFC ids come out the same (e.g. `a_b-0` and `a-b-0`). */
export function nodeNames(cluster: string, vnfcIds: string[]): Record<string, string> {
  const out: Record<string, string> = {};
  const byName = new Map<string, string>();
  for (const id of vnfcIds) {
    const n = nodeName(cluster, id);
    const other = byName.get(n);
    if (other !== undefined) throw new Error(`node name ${n} would be used by VNFCs ${other} and ${id}`);
    byName.set(n, id);
    out[id] = n;
  }
  return out;
}
