/**
 * `toComponentGraph(model, flavourId, request?, files?)`: from one flavour of a VNF model (and
 * optionally a Tacker instantiate request) to the component graph. It assembles the pieces built
 * by one module per concept (VDUs, networks, server groups, hooks, a component's own resources, a
 * CNF's Kubernetes objects). Pure but for reading the package's manifests and charts from `files`.
 */
import { DiagnosticError, type Diagnostic } from "../diagnostics";
import type { InstantiateVnfRequest } from "../tacker/instantiate-request";
import type { VnfModel } from "../tosca/model";
import { chooseComponent } from "./choose-component";
import { cnfObjectNodes, type CnfPlanFiles } from "./cnf-objects";
import { componentResourceNodes } from "./component-resources";
import { hookNodes } from "./hooks";
import { networkNodes } from "./networks";
import { flavourMismatch, unknownFlavour, unknownLevel, unknownLinkTargets } from "./request-checks";
import { vmProblems } from "./vm-checks";
import { serverGroupNodes } from "./server-groups";
import type { ComponentGraph, GraphEdge, GraphNode } from "./types";
import { instantiateViolation, vduNode, volumeNodes } from "./vdus";

export interface ComponentGraphResult {
  /** Absent when the flavour or level does not exist. */
  graph?: ComponentGraph;
  /** Mismatches between the request and the model (severity `error`). */
  diagnostics: Diagnostic[];
}

/** The graph, or a `DiagnosticError` listing every mismatch between request and model. */
export function toComponentGraph(model: VnfModel, flavourId: string, request?: InstantiateVnfRequest, files?: CnfPlanFiles): ComponentGraph {
  const result = planComponentGraph(model, flavourId, request, files);
  if (!result.graph || result.diagnostics.some((d) => d.severity === "error")) {
    throw new DiagnosticError(`cannot plan flavour \`${flavourId}\``, result.diagnostics);
  }
  return result.graph;
}

/**
 * As `toComponentGraph`, returning problems instead of throwing. A containerized VNF's objects are
 * in the graph only when the package's files are given.
 */
export function planComponentGraph(model: VnfModel, flavourId: string, request?: InstantiateVnfRequest, files?: CnfPlanFiles): ComponentGraphResult {
  const diagnostics: Diagnostic[] = [];
  const flavour = model.flavours.find((f) => f.id === flavourId);
  if (!flavour) {
    diagnostics.push(unknownFlavour(model.flavours, flavourId, request?.flavourId === flavourId));
    return { diagnostics };
  }
  if (request && request.flavourId !== flavourId) {
    diagnostics.push(flavourMismatch(request, flavourId));
  }
  const levelId = request?.instantiationLevelId ?? flavour.defaultInstantiationLevelId;
  if (levelId !== undefined && !flavour.instantiationLevels.some((l) => l.id === levelId)) {
    diagnostics.push(unknownLevel(flavour, levelId));
    return { diagnostics };
  }
  if (request) diagnostics.push(...unknownLinkTargets(flavour, request));
  const { component, reason } = chooseComponent(flavour);
  // The components that make VMs refuse what they cannot realise: translate says so too.
  if (component !== "container-vnf") diagnostics.push(...vmProblems(flavour, request));
  const root = {
    kind: "component" as const,
    id: `component:${component}`,
    label: `${model.vnf.productName || model.vnf.descriptorId} (${component})`,
    component,
    reason,
  };
  const nodes: GraphNode[] = [root];
  const edges: GraphEdge[] = [];
  for (const vdu of flavour.vdus) {
    nodes.push(vduNode(vdu, levelId !== undefined ? (vdu.instancesByLevel[levelId] ?? vdu.initialInstances) : vdu.initialInstances));
    const beyond = instantiateViolation(vdu, levelId);
    if (beyond) diagnostics.push(beyond);
  }
  for (const part of [volumeNodes(flavour), networkNodes(flavour, request), serverGroupNodes(flavour), hookNodes(flavour)]) {
    nodes.push(...part.nodes);
    edges.push(...part.edges);
  }
  const own = componentResourceNodes(component, flavour, request, edges);
  nodes.push(...own.nodes);
  edges.push(...own.edges);
  if (component === "container-vnf" && files) {
    const cnf = cnfObjectNodes(model, flavourId, request, files);
    nodes.push(...cnf.nodes);
    edges.push(...cnf.edges);
    diagnostics.push(...cnf.diagnostics);
  }
  // `contains` edges first, in node order: stable output for diffs.
  const contains: GraphEdge[] = nodes.slice(1).map((n) => ({ from: root.id, to: n.id, kind: "contains" }));
  const graph: ComponentGraph = { flavourId, nodes, edges: [...contains, ...edges] };
  if (levelId !== undefined) graph.instantiationLevelId = levelId;
  return { graph, diagnostics };
}
