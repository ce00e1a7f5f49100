/** VDUs → `vdu` nodes with their instance count at the chosen level, plus volumes they mount. */
import type { Diagnostic } from "../diagnostics";
import type { Flavour, Vdu } from "../tosca/model";
import type { GraphEdge, VduNode, VolumeNode } from "./types";

export function vduNode(vdu: Vdu, instances: number): VduNode {
  const node: VduNode = {
    kind: "vdu",
    id: `vdu:${vdu.id}`,
    label: `${vdu.id} ×${instances}`,
    vduId: vdu.id,
    vduKind: vdu.kind,
    instances,
    minInstances: vdu.minInstances,
    maxInstances: vdu.maxInstances,
  };
  if (vdu.kind === "compute") {
    node.memoryMib = vdu.virtualCompute.memoryMib;
    node.numCpus = vdu.virtualCompute.numCpus;
    if (vdu.virtualCompute.localStorageGib.length > 0) node.rootDiskGib = vdu.virtualCompute.localStorageGib[0];
    if (vdu.virtualCompute.requestedFlavorNames.length > 0) node.flavorName = vdu.virtualCompute.requestedFlavorNames[0];
    if (vdu.swImage) node.imageName = vdu.swImage.name;
    if (vdu.swImage?.artifactFile) node.imageFile = vdu.swImage.artifactFile;
    if (vdu.scaling.length > 0) node.scaling = vdu.scaling.map((s) => ({ aspectId: s.aspectId, instancesByScaleLevel: s.instancesByScaleLevel }));
    if (vdu.keyName) node.keyName = vdu.keyName;
    if (vdu.userData !== undefined) node.userData = vdu.userData;
  } else {
    if (vdu.containers.length > 0) node.imageName = vdu.containers[0].image;
    else node.workloadName = vdu.name;
  }
  return node;
}

export function volumeNodes(flavour: Flavour): { nodes: VolumeNode[]; edges: GraphEdge[] } {
  const nodes: VolumeNode[] = flavour.storages.map((s) => ({
    kind: "volume",
    id: `volume:${s.id}`,
    label: `${s.id} ${s.sizeGib} GiB`,
    storageId: s.id,
    sizeGib: s.sizeGib,
    ...(s.swImage ? { imageName: s.swImage.name } : {}),
  }));
  const edges: GraphEdge[] = [];
  for (const vdu of flavour.vdus) {
    if (vdu.kind !== "compute") continue;
    for (const s of vdu.storageIds) edges.push({ from: `vdu:${vdu.id}`, to: `volume:${s}`, kind: "mounts" });
  }
  return { nodes, edges };
}

/**
 * The refusal of an instantiation whose level (or, without levels, initial delta) gives a VDU
 * more or fewer instances than `vdu_profile` allows: Tacker onboards such a VNFD and refuses this
 * instantiate; the diagnostic points at where the VNFD sets the count.
 */
export function instantiateViolation(vdu: Vdu, levelId: string | undefined): Diagnostic | undefined {
  const v = vdu.profileViolations?.find((x) => x.aspectId === undefined && x.levelId === levelId);
  if (!v) return undefined;
  const at = levelId === undefined ? "initially" : `at instantiation level \`${levelId}\``;
  return {
    ...v.where,
    severity: "error",
    code: "INSTANCES_OUT_OF_RANGE",
    message: `cannot instantiate: VDU \`${vdu.id}\` would have ${v.instances} instance(s) ${at}, outside vdu_profile [${vdu.minInstances}, ${vdu.maxInstances}]`,
  };
}
