/** LCM hooks → `hook` nodes: operations the component runs around its LCM steps. */
import type { Flavour } from "../tosca/model";
import type { HookNode } from "./types";

export function hookNodes(flavour: Flavour): { nodes: HookNode[]; edges: [] } {
  const nodes: HookNode[] = flavour.lcmHooks.map((hook) => ({
    kind: "hook",
    id: `hook:${hook.operation}`,
    label: `${hook.operation}: ${hook.file}`,
    operation: hook.operation,
    artifact: hook.artifact,
    file: hook.file,
  }));
  return { nodes, edges: [] };
}
