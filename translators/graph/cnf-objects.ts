/**
 * What a containerized VNF creates on its Kubernetes VIM, as graph nodes: the CNF plan
 * (`translators/kubernetes/plan.ts`) of the request's `additionalParams` over the package's
 * manifests and charts, the plan `ContainerizedVnf` registers. A `k8s-object` node per object, in
 * creation order, with a `realises` edge to the VDU it runs or was generated for; a `helm-release`
 * node per chart (the provider renders its objects at deploy time, so the plan does not hold them).
 */
import type { Diagnostic } from "../diagnostics";
import { manifestReader } from "../kubernetes/manifests";
import { planCnf } from "../kubernetes/plan";
import type { InstantiateVnfRequest } from "../tacker/instantiate-request";
import type { VnfModel } from "../tosca/model";
import type { PackageSource } from "../tosca/phase1-read/package-source";
import type { GraphEdge, GraphNode } from "./types";

/**
 * The VNF instance id planned with when none is given. Tacker derives some names from the id (a
 * legacy VDU's objects, a Helm release without `helm_release_name`), so those names in the graph
 * are `up`'s only when the graph is planned with the id `up` uses.
 */
const DEFAULT_VNF_INSTANCE_ID = "00000000-0000-0000-0000-000000000000";

/** What a CNF's plan reads beyond the model and request. */
export interface CnfPlanFiles {
  /** The package's files: its manifests and charts. */
  source: PackageSource;
  /** The VNF instance id `up` labels the objects with (default `DEFAULT_VNF_INSTANCE_ID`). */
  vnfInstanceId?: string;
}

export interface CnfObjectNodes {
  nodes: GraphNode[];
  edges: GraphEdge[];
  /** The CNF plan's problems: the same `up` refuses or warns of. */
  diagnostics: Diagnostic[];
}

/**
 * The objects and releases of `flavourId` for `request`, read from the package's files. Without a request
 * there is nothing to plan (it lists the manifests or charts), except for a legacy VNFD, whose
 * objects come from its VDUs.
 */
export function cnfObjectNodes(model: VnfModel, flavourId: string, request: InstantiateVnfRequest | undefined, files: CnfPlanFiles): CnfObjectNodes {
  if (!request && model.format !== "tacker-legacy") return { nodes: [], edges: [], diagnostics: [] };
  const plan = planCnf({
    model,
    flavourId,
    ...(request?.instantiationLevelId !== undefined ? { instantiationLevelId: request.instantiationLevelId } : {}),
    ...(request?.additionalParams !== undefined ? { additionalParams: request.additionalParams } : {}),
    vnfInstanceId: files.vnfInstanceId ?? DEFAULT_VNF_INSTANCE_ID,
    manifests: manifestReader(files.source),
    charts: files.source,
  });
  const nodes: GraphNode[] = [];
  const edges: GraphEdge[] = [];
  for (const p of plan.objects) {
    const { kind, metadata } = p.object;
    const id = `k8s-object:${p.key}`;
    // The replicas the plan set on a VDU's workload (none for a DaemonSet, a Pod or an HPA's).
    const vnfc = p.origin.vduId !== undefined ? plan.vnfcs[p.origin.vduId] : undefined;
    const count = vnfc?.kind === kind && vnfc.name === metadata.name ? vnfc.replicas : undefined;
    nodes.push({
      kind: "k8s-object",
      id,
      label: `${kind} ${metadata.namespace ? `${metadata.namespace}/` : ""}${metadata.name}`,
      apiVersion: p.object.apiVersion,
      objectKind: kind,
      name: metadata.name,
      ...(metadata.namespace !== undefined ? { namespace: metadata.namespace } : {}),
      namespaced: p.namespaced,
      key: p.key,
      ...(count !== undefined ? { replicas: count } : {}),
    });
    if (p.origin.vduId !== undefined) edges.push({ from: id, to: `vdu:${p.origin.vduId}`, kind: "realises" });
  }
  for (const r of plan.helmReleases) {
    nodes.push({
      kind: "helm-release",
      id: `helm-release:${r.key}`,
      label: `Helm release ${r.releaseName} (${r.chartFile})`,
      releaseName: r.releaseName,
      chartFile: r.chartFile,
      key: r.key,
    });
  }
  return { nodes, edges, diagnostics: plan.diagnostics };
}
