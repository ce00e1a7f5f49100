/** Affinity and anti-affinity rules → `server-group` nodes with their VDU members. */
import type { Flavour } from "../tosca/model";
import type { GraphEdge, ServerGroupNode } from "./types";

export function serverGroupNodes(flavour: Flavour): { nodes: ServerGroupNode[]; edges: GraphEdge[] } {
  const nodes: ServerGroupNode[] = [];
  const edges: GraphEdge[] = [];
  for (const rule of flavour.affinityRules) {
    const id = `server-group:${rule.id}`;
    nodes.push({ kind: "server-group", id, label: `${rule.id} (${rule.kind}, ${rule.scope})`, ruleId: rule.id, policy: rule.kind, scope: rule.scope });
    for (const vdu of rule.vduIds) edges.push({ from: `vdu:${vdu}`, to: id, kind: "member-of" });
  }
  return { nodes, edges };
}
