/**
 * What a component makes beyond its flavour's VDUs, CPs, VLs and affinity rules, so that the graph
 * (and `nfv translate`) shows everything `up` creates: the private registry's storage volume; a
 * Kubernetes cluster's VIP port when its Tacker parameters name one, and the server groups of
 * Tacker's `podaffinity` flavour. The components register them with the ids and defaults given here
 * (components/registry, components/k8s-cluster); their arguments (`storageGib`, `serverGroups`) can
 * change them.
 */
import type { InstantiateVnfRequest } from "../tacker/instantiate-request";
import type { Flavour } from "../tosca/model";
import type { ComponentKind, GraphEdge, ServerGroupNode, VipNode, VolumeNode } from "./types";

/** Storage id of the registry's Cinder volume (its VmVnf's extra storage). */
export const REGISTRY_STORAGE_ID = "RegistryStorage";
/** Its size unless the component's `storageGib` says otherwise. */
export const DEFAULT_REGISTRY_STORAGE_GIB = 20;
/** Tacker's additionalParams key of the Kubernetes Mgmt Driver's installation parameters. */
export const K8S_PARAM_KEY = "k8s_cluster_installation_param";

/** The rule id of a server group a component adds for a VDU (VmVnf's `serverGroupPolicies`). */
export const ownServerGroupId = (vduId: string): string => `${vduId}_server_group`;

/**
 * Tacker's `podaffinity` flavour of its Kubernetes cluster package puts masters and workers in
 * `anti-affinity` server groups through its BaseHOT, which a SOL001 VNFD does not carry: a cluster
 * does the same for a master or worker VDU that no affinity rule of the VNFD names.
 */
export function clusterDefaultServerGroup(flavour: Flavour, vduId: string): "anti-affinity" | undefined {
  return flavour.id === "podaffinity" && !flavour.affinityRules.some((r) => r.vduIds.includes(vduId)) ? "anti-affinity" : undefined;
}

/**
 * The component's own resources. `edges` are the graph's edges so far: the VIP goes on the network
 * the masters' `nic_cp_name` port attaches to.
 */
export function componentResourceNodes(
  component: ComponentKind,
  flavour: Flavour,
  request: InstantiateVnfRequest | undefined,
  edges: GraphEdge[],
): { nodes: (VolumeNode | VipNode | ServerGroupNode)[]; edges: GraphEdge[] } {
  if (component === "private-registry") {
    const volume: VolumeNode = {
      kind: "volume",
      id: `volume:${REGISTRY_STORAGE_ID}`,
      label: `${REGISTRY_STORAGE_ID} ${DEFAULT_REGISTRY_STORAGE_GIB} GiB (the registry's storage)`,
      storageId: REGISTRY_STORAGE_ID,
      sizeGib: DEFAULT_REGISTRY_STORAGE_GIB,
      addedBy: component,
    };
    return { nodes: [volume], edges: flavour.vdus.map((v) => ({ from: `vdu:${v.id}`, to: volume.id, kind: "mounts" as const })) };
  }
  if (component === "kubernetes-cluster") {
    const param = field(request?.additionalParams, K8S_PARAM_KEY);
    const nodes: (VipNode | ServerGroupNode)[] = [];
    const out: GraphEdge[] = [];
    for (const role of ["master_node", "worker_node"]) {
      // A node kind's VDU is its SSH CP's (the component's reader checks the rest).
      const vduId = flavour.cps.find((c) => c.id === field(field(param, role), "ssh_cp_name"))?.vduId;
      if (vduId === undefined || clusterDefaultServerGroup(flavour, vduId) === undefined) continue;
      const ruleId = ownServerGroupId(vduId);
      nodes.push({
        kind: "server-group",
        id: `server-group:${ruleId}`,
        label: `${ruleId} (anti-affinity, the podaffinity flavour)`,
        ruleId,
        policy: "anti-affinity",
        scope: "nfvi_node",
        addedBy: component,
      });
      out.push({ from: `vdu:${vduId}`, to: `server-group:${ruleId}`, kind: "member-of" });
    }
    const master = field(param, "master_node");
    const name = field(master, "cluster_cp_name");
    // A `cluster_cp_name` that is a CP of the VNFD is a single master's own address: no VIP.
    if (typeof name === "string" && !flavour.cps.some((c) => c.id === name)) {
      const vip: VipNode = { kind: "vip", id: `vip:${name}`, label: `${name} (the masters' VIP)`, cpId: name };
      nodes.push(vip);
      const network = edges.find((e) => e.kind === "attaches" && e.from === `port:${String(field(master, "nic_cp_name"))}`)?.to;
      if (network) out.push({ from: vip.id, to: network, kind: "attaches" });
    }
    return { nodes, edges: out };
  }
  return { nodes: [], edges: [] };
}

/** `value[key]` when `value` is an object; the component's own reader reports what is malformed. */
function field(value: unknown, key: string): unknown {
  return typeof value === "object" && value !== null ? (value as Record<string, unknown>)[key] : undefined;
}
