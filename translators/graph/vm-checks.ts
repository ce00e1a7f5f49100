/**
 * What a flavour needs to be realised as VMs on OpenStack (the vm-vnf, kubernetes-cluster and
 * private-registry components): compute VDUs that can boot, subnets it can create, server groups
 * Nova has, a network for every CP. `nfv translate` and the components report the same problems
 * with the same codes.
 */
import { errorAt, type Diagnostic } from "../diagnostics";
import type { InstantiateVnfRequest } from "../tacker/instantiate-request";
import type { Flavour } from "../tosca/model";

export function vmProblems(flavour: Flavour, request: InstantiateVnfRequest | undefined): Diagnostic[] {
  const out: Diagnostic[] = [];
  const storageImages = new Set(flavour.storages.filter((s) => s.swImage).map((s) => s.id));
  for (const vdu of flavour.vdus) {
    if (vdu.kind !== "compute") out.push(errorAt("VNF_CONTAINER_VDU", `VDU \`${vdu.id}\` is a container workload: a VM VNF needs compute VDUs`));
    else if (!vdu.swImage && !vdu.storageIds.some((s) => storageImages.has(s)))
      out.push(errorAt("VNF_NO_IMAGE", `VDU \`${vdu.id}\` has no sw_image_data and no virtual storage with an image: nothing to boot`));
  }
  const managed = new Set((request?.extManagedVirtualLinks ?? []).map((m) => m.vnfVirtualLinkDescId));
  for (const vl of flavour.vls) {
    if (!managed.has(vl.id) && vl.networkName === undefined && !vl.cidr)
      out.push(
        errorAt(
          "VNF_VL_NO_CIDR",
          `internal virtual link \`${vl.id}\` has no l3_protocol_data.cidr: cannot create its subnet (or hand over a network with extManagedVirtualLinks)`,
        ),
      );
  }
  for (const rule of flavour.affinityRules) {
    if (rule.scope !== "nfvi_node")
      out.push(errorAt("VNF_AFFINITY_SCOPE", `affinity rule \`${rule.id}\`: scope \`${rule.scope}\` is not supported by Nova server groups (only nfvi_node)`));
  }
  return out;
}

/**
 * CPs with no network: neither a VL of the VNFD nor a link of the request. Checked by the
 * components on the request they deploy, not in the graph: a network service links its
 * constituents' external CPs itself, after their own requests are read.
 */
export function unlinkedCps(flavour: Flavour, request: InstantiateVnfRequest): Diagnostic[] {
  const linked = new Set((request.extVirtualLinks ?? []).flatMap((l) => l.extCps.map((c) => c.cpdId)));
  return flavour.cps
    .filter((cp) => !linked.has(cp.id) && !cp.virtualLinkId)
    .map((cp) => errorAt("VNF_CP_UNCONNECTED", `CP \`${cp.id}\` is external but no extVirtualLinks entry names it as cpdId`, { path: "extVirtualLinks" }));
}
