/**
 * The comparison of `nfv translate` and `up`, shared by the conformance tests: what a component
 * graph says `up` creates, and what a component registered under Pulumi mocks, as
 * `<kind> <resource name>` lines.
 */
import type { ComponentGraph } from "../../../translators/graph/types";
import type { Registered } from "../helpers/pulumi-mocks";

const RESOURCE_TYPES: Record<string, string> = {
  "openstack:compute/instance:Instance": "server",
  "openstack:networking/port:Port": "port",
  "openstack:networking/network:Network": "network",
  "openstack:networking/subnet:Subnet": "subnet",
  "openstack:blockstorage/volume:Volume": "volume",
  "openstack:compute/serverGroup:ServerGroup": "server-group",
};

/** The OpenStack resources registered, sorted. */
export function registeredResources(registered: Registered[]): string[] {
  return registered
    .filter((r) => r.type in RESOURCE_TYPES)
    .map((r) => `${RESOURCE_TYPES[r.type]} ${r.name}`)
    .sort();
}

/**
 * What the graph says `up` creates, sorted: the VDUs' servers, ports and volumes, the networks and
 * server groups, in the VmVnf named `vnf`; a VIP port in the component named `component` (a
 * cluster's VmVnf is its child).
 */
export function fromGraph(vnf: string, graph: ComponentGraph, component = vnf): string[] {
  const out: string[] = [];
  const byId = new Map(graph.nodes.map((n) => [n.id, n]));
  for (const n of graph.nodes) {
    if (n.kind === "network" && !n.external) out.push(`network ${vnf}-${n.networkId}`, `subnet ${vnf}-${n.networkId}-subnet`);
    if (n.kind === "server-group") out.push(`server-group ${vnf}-${n.ruleId}`);
    if (n.kind === "vip") out.push(`port ${component}-${n.cpId}`);
    if (n.kind !== "vdu") continue;
    for (let i = 0; i < n.instances; i++) {
      const vnfc = `${vnf}-${n.vduId}-${i}`;
      out.push(`server ${vnfc}`);
      for (const e of graph.edges) {
        const port = byId.get(e.from);
        if (e.kind === "binds" && e.to === n.id && port?.kind === "port") out.push(`port ${vnfc}-${port.cpId}`);
        const volume = byId.get(e.to);
        if (e.kind === "mounts" && e.from === n.id && volume?.kind === "volume") out.push(`volume ${vnfc}-${volume.storageId}`);
      }
    }
  }
  return out.sort();
}

/** `id: only translate: …; only up: …` when the two differ. */
export function disagreement(id: string, expected: string[], up: string[]): string | undefined {
  if (JSON.stringify(up) === JSON.stringify(expected)) return undefined;
  const only = (a: string[], b: string[]) => a.filter((x) => !b.includes(x));
  return `${id}: only translate: ${only(expected, up).join(", ") || "-"}; only up: ${only(up, expected).join(", ") || "-"}`;
}
