/** The component graph as a Mermaid flowchart, for a person to look at a package. */
import type { ComponentGraph, GraphNode } from "./types";

const SHAPES: Record<GraphNode["kind"], [string, string]> = {
  component: ["[[", "]]"],
  vdu: ["[", "]"],
  port: ["([", "])"],
  network: ["{{", "}}"],
  volume: ["[(", ")]"],
  "server-group": ["[/", "/]"],
  hook: [">", "]"],
  vip: ["((", "))"],
  "k8s-object": ["[\\", "/]"],
  "helm-release": ["[\\", "\\]"],
};

export function renderMermaid(graph: ComponentGraph): string {
  const ids = new Map(graph.nodes.map((n, i) => [n.id, `n${i}`]));
  const lines = ["flowchart LR"];
  for (const n of graph.nodes) {
    const [open, close] = SHAPES[n.kind];
    lines.push(`  ${ids.get(n.id)}${open}"${escape(n.label)}"${close}`);
  }
  const linked = new Set(graph.edges.filter((e) => e.kind !== "contains").flatMap((e) => [e.from, e.to]));
  for (const e of graph.edges) {
    if (e.kind === "contains" && linked.has(e.to)) continue; // drawn only for nodes with no other edge
    lines.push(`  ${ids.get(e.from)} -->|${e.kind}| ${ids.get(e.to)}`);
  }
  return lines.join("\n") + "\n";
}

function escape(s: string): string {
  return s.replace(/"/g, "#quot;");
}
