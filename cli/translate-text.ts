/** `nfv translate --format text`: a short human summary of the model and the plan. */
import type { ComponentGraph } from "../translators/graph/types";
import type { VnfModel } from "../translators/tosca/model";

export function renderText(model: VnfModel, graph: ComponentGraph | undefined): string {
  const v = model.vnf;
  const lines = [`${v.productName} ${v.softwareVersion} by ${v.provider || "?"} (descriptor ${v.descriptorId} v${v.descriptorVersion}, ${model.format})`];
  for (const f of model.flavours) {
    lines.push(``, `flavour ${f.id}: ${f.description}`);
    for (const vdu of f.vdus) {
      const levels = Object.entries(vdu.instancesByLevel)
        .map(([l, n]) => `${l}=${n}`)
        .join(" ");
      lines.push(
        `  VDU ${vdu.id} (${vdu.kind}, name ${vdu.name}): ${vdu.initialInstances} instance(s), min ${vdu.minInstances}, max ${vdu.maxInstances}${levels ? `; levels ${levels}` : ""}`,
      );
    }
    for (const cp of f.cps)
      lines.push(
        `  CP ${cp.id} → ${cp.vduId}${cp.virtualLinkId ? `, VL ${cp.virtualLinkId}` : ""}${cp.externalRequirement ? `, external (${cp.externalRequirement})` : ""}`,
      );
    for (const vl of f.vls) lines.push(`  VL ${vl.id}${vl.cidr ? ` ${vl.cidr}` : ""}`);
    for (const s of f.storages) lines.push(`  storage ${s.id}: ${s.sizeGib} GiB`);
    for (const a of f.aspects) lines.push(`  aspect ${a.id}: max scale level ${a.maxScaleLevel}, VDUs ${a.vduIds.join(", ") || "none"}`);
    for (const h of f.lcmHooks) lines.push(`  hook ${h.operation}: ${h.file}`);
  }
  if (graph) {
    const root = graph.nodes.find((n) => n.kind === "component");
    lines.push(
      ``,
      `plan for flavour ${graph.flavourId}${graph.instantiationLevelId ? ` at ${graph.instantiationLevelId}` : ""}: ${root?.kind === "component" ? `${root.component} (${root.reason})` : "?"}, ${graph.nodes.length} nodes, ${graph.edges.length} edges`,
    );
  }
  return lines.join("\n") + "\n";
}
