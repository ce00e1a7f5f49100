/**
 * Kubernetes node names (and hostnames), unique per cluster: `<cluster>-<vnfcId>` made a DNS label.
 * Tacker used `master<last octet>`/`worker<last octet>`, which collides across /24 networks.
 * Every name is then checked as what it becomes, an RFC 1123 DNS label (the hostname) and DNS
 * subdomain (the Node's name), and two VNFCs may not get the same one (`nodeNameProblems`).
 */
import { createHash } from "node:crypto";
import { DNS_LABEL_MAX, parseNodeName } from "../../host-files/dns-names";

export function nodeName(cluster: string, vnfcId: string): string {
  const label = `${cluster}-${vnfcId}`
    .toLowerCase()
    .replace(/[^a-z0-9-]+/g, "-")
    .replace(/-+/g, "-")
    .replace(/^-+|-+$/g, "");
  if (label.length <= DNS_LABEL_MAX) return label;
  // Too long for a hostname: keep the distinctive tail (the VNFC id) and a hash of the whole.
  const hash = createHash("sha256").update(`${cluster}/${vnfcId}`).digest("hex").slice(0, 8);
  return `${label.slice(0, DNS_LABEL_MAX - 9).replace(/-+$/, "")}-${hash}`;
}

export interface NodeNameProblem {
  vnfcId: string;
  /** The VNFC that already has the name (a collision); absent for a name that is not RFC 1123. */
  other?: string;
  message: string;
}

/** Every VNFC's name, and what is wrong: a name that is not an RFC 1123 label and subdomain, or one two VNFCs would share. */
export function nodeNameProblems(cluster: string, vnfcIds: string[]): { names: Record<string, string>; problems: NodeNameProblem[] } {
  const names: Record<string, string> = {};
  const problems: NodeNameProblem[] = [];
  const byName = new Map<string, string>();
  for (const id of vnfcIds) {
    const n = nodeName(cluster, id);
    const checked = parseNodeName(n);
    if ("reason" in checked) {
      problems.push({ vnfcId: id, message: `the node name ${n} of VNFC ${id} ${checked.reason}` });
      continue;
    }
    const other = byName.get(n);
    if (other !== undefined) {
      problems.push({ vnfcId: id, other, message: `node name ${n} would be used by VNFCs ${other} and ${id}` });
      continue;
    }
    byName.set(n, id);
    names[id] = n;
  }
  return { names, problems };
}

/** Names for every VNFC; throws at the first problem (`nodeNameProblems` lists them all). */
export function nodeNames(cluster: string, vnfcIds: string[]): Record<string, string> {
  const { names, problems } = nodeNameProblems(cluster, vnfcIds);
  if (problems.length > 0) throw new Error(problems[0].message);
  return names;
}
