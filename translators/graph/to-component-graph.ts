/**
 * `toComponentGraph(model, flavourId, request?, files?)`: from one flavour of a VNF model (and
 * optionally a Tacker instantiate request) to the component graph. It assembles the pieces built
 * by one module per concept (VDUs, networks, server groups, hooks, a component's own resources, a
 * CNF's Kubernetes objects). Pure but for reading the package's manifests and charts from `files`.
 */
import { DiagnosticError, type Diagnostic } from "../diagnostics";
import type { InstantiateVnfRequest } from "../tacker/instantiate-request";
import type { Flavour, VnfModel } from "../tosca/model";
import { chooseComponent } from "./choose-component";
import { cnfObjectNodes, type CnfPlanFiles } from "./cnf-objects";
import { componentResourceNodes } from "./component-resources";
import { hookNodes } from "./hooks";
import { networkNodes } from "./networks";
import { flavourMismatch, unknownFlavour, unknownLevel, unknownLinkTargets } from "./request-checks";
import { unlinkedCps, vmProblems } from "./vm-checks";
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
  return planFlavourGraph(model.flavours, model.vnf.productName || model.vnf.descriptorId, flavourId, { request, ...(files ? { cnf: { model, files } } : {}) });
}

/**
 * The graph of the request's flavour as the VM components plan it (components/vnf/plan.ts): their
 * own checks too, whatever component the flavour would choose (`VNF_CONTAINER_VDU` for a container
 * VDU), and every CP must have a network.
 */
export function planVmGraph(flavours: readonly Flavour[], request: InstantiateVnfRequest): ComponentGraphResult {
  const result = planFlavourGraph(flavours, request.flavourId, request.flavourId, { request, vm: true });
  const flavour = flavours.find((f) => f.id === request.flavourId);
  if (result.graph && flavour) result.diagnostics.push(...unlinkedCps(flavour, request));
  return result;
}

interface GraphOptions {
  request?: InstantiateVnfRequest;
  /** A containerized VNF's objects are planned from its package's files. */
  cnf?: { model: VnfModel; files: CnfPlanFiles };
  /** Realised as VMs whatever the flavour's component: the VM checks apply. */
  vm?: boolean;
}

function planFlavourGraph(flavours: readonly Flavour[], vnfLabel: string, flavourId: string, { request, cnf, vm }: GraphOptions): ComponentGraphResult {
  const diagnostics: Diagnostic[] = [];
  const flavour = flavours.find((f) => f.id === flavourId);
  if (!flavour) {
    diagnostics.push(unknownFlavour(flavours, flavourId, request?.flavourId === flavourId));
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
  if (vm || component !== "container-vnf") diagnostics.push(...vmProblems(flavour, request));
  const root = {
    kind: "component" as const,
    id: `component:${component}`,
    label: `${vnfLabel} (${component})`,
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
  if (component === "container-vnf" && cnf) {
    const objects = cnfObjectNodes(cnf.model, flavourId, request, cnf.files);
    nodes.push(...objects.nodes);
    edges.push(...objects.edges);
    diagnostics.push(...objects.diagnostics);
  }
  // `contains` edges first, in node order: stable output for diffs.
  const contains: GraphEdge[] = nodes.slice(1).map((n) => ({ from: root.id, to: n.id, kind: "contains" }));
  const levelScale = flavour.instantiationLevels.find((l) => l.id === levelId)?.scaleInfo ?? {};
  const aspects = flavour.aspects.map((a) => ({ aspectId: a.id, maxScaleLevel: a.maxScaleLevel, levelScale: levelScale[a.id] ?? 0 }));
  const graph: ComponentGraph = { flavourId, aspects, nodes, edges: [...contains, ...edges] };
  if (levelId !== undefined) graph.instantiationLevelId = levelId;
  return { graph, diagnostics };
}
