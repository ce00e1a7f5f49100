/** `tosca.nodes.nfv.VduCp` → `Cp`: its VDU, and an internal VL or an external requirement. */
import type { Cp } from "../model";
import { nodePath, type NodeTemplate, type Topology } from "../phase4-templates/topology";
import type { SemanticContext } from "./context";
import { int, str, strings } from "./read";
import { T } from "./sol001-types";

export function readCp(node: NodeTemplate, topo: Topology, ctx: SemanticContext): Cp | undefined {
  const path = nodePath(node.name);
  const binding = node.requirements.find((r) => r.name === "virtual_binding");
  if (!binding) {
    ctx.problems.error("SOL001_CP_UNBOUND", `VduCp \`${node.name}\` has no \`virtual_binding\` requirement naming its VDU`, topo.file, path);
    return undefined;
  }
  const vdu = topo.nodes.get(binding.node);
  if (vdu && !ctx.types.isA(vdu.type, T.VDU_COMPUTE)) {
    ctx.problems.error(
      "SOL001_BAD_TARGET",
      `virtual_binding of \`${node.name}\` must be a Vdu.Compute, \`${binding.node}\` is a \`${vdu.typeName}\``,
      topo.file,
      [...path, "requirements", binding.index, "virtual_binding"],
    );
  }
  const cp: Cp = { id: node.name, vduId: binding.node, layerProtocols: strings(node.properties.layer_protocols) };
  const link = node.requirements.find((r) => r.name === "virtual_link");
  if (link) {
    const vl = topo.nodes.get(link.node);
    if (vl && !ctx.types.isA(vl.type, T.VNF_VIRTUAL_LINK)) {
      ctx.problems.error(
        "SOL001_BAD_TARGET",
        `virtual_link of \`${node.name}\` must be a VnfVirtualLink, \`${link.node}\` is a \`${vl.typeName}\``,
        topo.file,
        [...path, "requirements", link.index, "virtual_link"],
      );
    }
    cp.virtualLinkId = link.node;
  }
  for (const [name, [cpId]] of topo.substitution?.requirements ?? []) {
    if (cpId === node.name) cp.externalRequirement = name;
  }
  const order = int(node.properties.order);
  if (order !== undefined) cp.order = order;
  const vnic = str(node.properties.vnic_type);
  if (vnic !== undefined) cp.vnicType = vnic;
  const bitrate = int(node.properties.bitrate_requirement);
  if (bitrate !== undefined) cp.bitrateRequirement = bitrate;
  return cp;
}
