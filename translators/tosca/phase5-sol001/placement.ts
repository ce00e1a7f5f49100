/** `PlacementGroup` groups and `AffinityRule`/`AntiAffinityRule` policies. */
import type { AffinityRule, PlacementGroup } from "../model";
import { policyPath, type Topology } from "../phase4-templates/topology";
import type { SemanticContext } from "./context";
import { str } from "./read";
import { T } from "./sol001-types";

export function readPlacement(topo: Topology, vduIds: Set<string>, ctx: SemanticContext): { groups: PlacementGroup[]; rules: AffinityRule[] } {
  const groups: PlacementGroup[] = [];
  for (const g of topo.groups.values()) {
    if (!ctx.types.isA(g.type, T.PLACEMENT_GROUP)) continue;
    const group: PlacementGroup = { id: g.name, members: g.members };
    const description = str(g.properties.description);
    if (description !== undefined) group.description = description;
    groups.push(group);
  }
  const byId = new Map(groups.map((g) => [g.id, g]));
  const rules: AffinityRule[] = [];
  for (const p of topo.policies) {
    const anti = ctx.types.isA(p.type, T.ANTI_AFFINITY_RULE);
    if (!anti && !ctx.types.isA(p.type, T.AFFINITY_RULE)) continue;
    const vdus = new Set<string>();
    p.targets.forEach((t, i) => {
      if (vduIds.has(t)) vdus.add(t);
      else if (byId.has(t))
        byId
          .get(t)!
          .members.filter((m) => vduIds.has(m))
          .forEach((m) => vdus.add(m));
      else if (topo.nodes.has(t) && !ctx.types.isA(topo.nodes.get(t)!.type, T.VNF_VIRTUAL_LINK)) {
        ctx.problems.error("POLICY_BAD_TARGET", `\`${p.typeName}\` targets VDUs, VLs or placement groups; \`${t}\` is none of them`, topo.file, [
          ...policyPath(p),
          "targets",
          i,
        ]);
      }
    });
    rules.push({ id: p.name, kind: anti ? "anti-affinity" : "affinity", scope: str(p.properties.scope) ?? "nfvi_node", targets: p.targets, vduIds: [...vdus] });
  }
  return { groups, rules };
}
