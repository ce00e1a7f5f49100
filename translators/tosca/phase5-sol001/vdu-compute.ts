/** `tosca.nodes.nfv.Vdu.Compute` → `ComputeVdu` (a VM) or `ContainerVdu` (a CNF workload). */
import type { ComputeVdu, ContainerVdu, SwImage } from "../model";
import type { NodeTemplate, Topology } from "../phase4-templates/topology";
import { nodePath } from "../phase4-templates/topology";
import { toGib, toMib } from "../phase3-types/scalar-units";
import type { SemanticContext } from "./context";
import { int, obj, str } from "./read";
import { T } from "./sol001-types";

/** Counts are filled in later by `instance-counts.ts`. */
export function readVdu(node: NodeTemplate, topo: Topology, ctx: SemanticContext): ComputeVdu | ContainerVdu {
  const p = node.properties;
  const profile = obj(p.vdu_profile);
  const name = str(p.name) ?? node.name;
  const description = str(p.description);
  const minInstances = int(profile.min_number_of_instances) ?? 1;
  const maxInstances = int(profile.max_number_of_instances) ?? 1;
  // Each kind is one object literal with the shared fields written out, not `{ ...base, kind }`:
  // V8 makes an object spread followed by more fields a slow dictionary, several times the size.
  const vc = node.capabilities.virtual_compute;
  if (!vc) {
    // Without virtual_compute there is no VM to size: a CNF VDU, realised by the Kubernetes
    // manifest whose `metadata.name` equals `properties.name`.
    // Its sw_image_data, if any, is a container image that a container VDU runs without a manifest.
    const image = readSwImage(node, ctx);
    return {
      id: node.name,
      name,
      ...(description !== undefined ? { description } : {}),
      minInstances,
      maxInstances,
      initialInstances: 0,
      instancesByLevel: {},
      scaling: [],
      kind: "container",
      containers: [],
      labels: {},
      servicePorts: [],
      ...(image ? { swImage: image } : {}),
    };
  }
  const storageIds: string[] = [];
  for (const r of node.requirements) {
    if (r.name !== "virtual_storage") continue;
    const target = topo.nodes.get(r.node);
    if (target && !ctx.types.isA(target.type, T.VDU_BLOCK_STORAGE)) {
      ctx.problems.error(
        "SOL001_BAD_TARGET",
        `virtual_storage of \`${node.name}\` must be a Vdu.VirtualBlockStorage, \`${r.node}\` is a \`${target.typeName}\``,
        topo.file,
        [...nodePath(node.name), "requirements", r.index, r.name],
      );
    }
    if (target) storageIds.push(r.node);
  }
  const vdu: ComputeVdu = {
    id: node.name,
    name,
    ...(description !== undefined ? { description } : {}),
    minInstances,
    maxInstances,
    initialInstances: 0,
    instancesByLevel: {},
    scaling: [],
    kind: "compute",
    virtualCompute: {
      memoryMib: toMib(obj(vc.virtual_memory).virtual_mem_size) ?? 0,
      numCpus: int(obj(vc.virtual_cpu).num_virtual_cpu) ?? 0,
      localStorageGib: (Array.isArray(vc.virtual_local_storage) ? vc.virtual_local_storage : []).map((s) => toGib(obj(s).size_of_storage) ?? 0),
      requestedFlavorNames: Object.values(obj(vc.requested_additional_capabilities))
        .map((c) => str(obj(c).requested_additional_capability_name))
        .filter((s): s is string => s !== undefined),
    },
    storageIds,
  };
  const image = readSwImage(node, ctx);
  if (image) vdu.swImage = image;
  const boot = str(p.boot_data);
  if (boot !== undefined) vdu.bootData = boot;
  return vdu;
}

/** `sw_image_data` plus the `tosca.artifacts.nfv.SwImage` artifact of a VDU or a storage. */
export function readSwImage(node: NodeTemplate, ctx: SemanticContext): SwImage | undefined {
  const data = node.properties.sw_image_data;
  const artifact = [...node.artifacts.values()].find((a) =>
    a.type ? ctx.types.isA(ctx.types.get("artifact_types", a.type), T.SW_IMAGE) : a.name === "sw_image",
  );
  if (data === undefined && !artifact) return undefined;
  const d = obj(data);
  const image: SwImage = { name: str(d.name) ?? node.name, version: str(d.version) ?? "" };
  const checksum = obj(d.checksum);
  if (str(checksum.algorithm) && str(checksum.hash)) image.checksum = { algorithm: str(checksum.algorithm)!, hash: str(checksum.hash)! };
  const set = <K extends keyof SwImage>(key: K, value: SwImage[K] | undefined) => {
    if (value !== undefined) image[key] = value;
  };
  set("containerFormat", str(d.container_format));
  set("diskFormat", str(d.disk_format));
  set("minDiskGib", toGib(d.min_disk));
  set("minRamMib", toMib(d.min_ram));
  set("sizeGib", toGib(d.size));
  set("artifactFile", artifact?.resolved);
  return image;
}
