/** The component graph in Graphviz DOT: the component is a cluster holding its resources. */
import type { ComponentGraph, GraphNode } from "./types";

const SHAPES: Record<GraphNode["kind"], string> = {
  component: "box3d",
  vdu: "box",
  port: "ellipse",
  network: "hexagon",
  volume: "cylinder",
  "server-group": "parallelogram",
  hook: "note",
  vip: "doublecircle",
  "k8s-object": "component",
  "helm-release": "tab",
};

export function renderDot(graph: ComponentGraph): string {
  const root = graph.nodes.find((n) => n.kind === "component");
  const lines = [`digraph ${quote(graph.flavourId)} {`, "  rankdir=LR;", `  subgraph cluster_component {`, `    label=${quote(root?.label ?? "")};`];
  for (const n of graph.nodes) {
    if (n.kind === "component") continue;
    lines.push(`    ${quote(n.id)} [label=${quote(n.label)}, shape=${SHAPES[n.kind]}];`);
  }
  lines.push("  }");
  for (const e of graph.edges) {
    if (e.kind === "contains") continue; // the cluster shows what the component contains
    lines.push(`  ${quote(e.from)} -> ${quote(e.to)} [label=${quote(e.kind)}];`);
  }
  lines.push("}");
  return lines.join("\n") + "\n";
}

function quote(s: string): string {
  return `"${s.replace(/\\/g, "\\\\").replace(/"/g, '\\"')}"`;
}
