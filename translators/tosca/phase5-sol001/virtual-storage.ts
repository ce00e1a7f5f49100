/** `tosca.nodes.nfv.Vdu.VirtualBlockStorage` → `VirtualStorage`. */
import type { VirtualStorage } from "../model";
import type { NodeTemplate } from "../phase4-templates/topology";
import { toGib } from "../phase3-types/scalar-units";
import type { SemanticContext } from "./context";
import { bool, obj } from "./read";
import { readSwImage } from "./vdu-compute";

export function readStorage(node: NodeTemplate, ctx: SemanticContext): VirtualStorage {
  const data = obj(node.properties.virtual_block_storage_data);
  const storage: VirtualStorage = { id: node.name, sizeGib: toGib(data.size_of_storage) ?? 0 };
  const rdma = bool(data.rdma_enabled);
  if (rdma !== undefined) storage.rdmaEnabled = rdma;
  const image = readSwImage(node, ctx);
  if (image) storage.swImage = image;
  return storage;
}
