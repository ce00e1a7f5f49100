/**
 * The CNF plan: a VNF model, a flavour, an instantiate request's level and `additionalParams`, the
 * listed manifests and the stack's scale levels → the Kubernetes objects to create, in creation
 * order, each labelled with the instance id and placed in the resolved namespace, plus a VNFC map.
 * Pure: no Pulumi, no I/O. Everything wrong is reported together; `objects` is meaningful only
 * when `diagnostics` has no error (`planOrThrow` throws one `DiagnosticError`).
 *
 * Steps: (1) flavour, instance id and level checks; (2) manifests (`manifests.ts`) or legacy VDUs
 * (`legacy.ts`); (3) each VDU bound to its workload (`properties.name` == `metadata.name`, or
 * v1's `vdu_mapping`), or generated from a container image (`container-vdu.ts`); (4) replicas from
 * the level, unless an HPA owns the workload; (5) namespace (`namespace.ts`); (6) labels
 * (`labels.ts`); (7) order (`kinds.ts` tiers).
 *
 * Codes (besides those of the modules named): CNF_UNKNOWN_FLAVOUR, CNF_NO_MANIFESTS,
 * CNF_VDU_NO_WORKLOAD, CNF_VDU_AMBIGUOUS, CNF_VDU_NOT_CONTAINER, CNF_POD_REPLICAS,
 * CNF_DAEMONSET_REPLICAS (warning), CNF_HPA_OUTSIDE_PROFILE (warning), CNF_DUPLICATE_OBJECT, CNF_LEGACY_MANIFESTS (warning).
 */
import { DiagnosticBag, DiagnosticError, type Diagnostic, type SourceLocation } from "../diagnostics";
import type { Flavour, Vdu, VnfModel } from "../tosca/model";
import { containerImageOf, containerVduObjects, containerVduOptions, paramsConfigMap } from "./container-vdu";
import { BUILTIN_KINDS, tierIndex, type KindInfo } from "./kinds";
import { checkInstanceId, INSTANCE_LABEL, labelWithInstance } from "./labels";
import { planHelmReleases, usesHelm, type ChartReader, type HelmReleasePlan } from "./helm";
import { legacyObjects } from "./legacy";
import { DEF_FILES_PARAM, defFilesOf, loadManifests, type ManifestDoc, type ManifestReader } from "./manifests";
import { resolveNamespace, type NamespaceClaim, type ResolvedNamespace } from "./namespace";
import { clone, describe, type KubeObject, type ObjectOrigin, type PlannedObject } from "./objects";
import { checkInProfile, checkSelection, replicasOf, type ReplicaSelection } from "./replicas";

export interface CnfPlanInput extends ReplicaSelection {
  model: VnfModel;
  /** `InstantiateVnfRequest.flavourId`. */
  flavourId: string;
  /** `InstantiateVnfRequest.additionalParams`. */
  additionalParams?: Record<string, unknown>;
  /** The VNF instance id: the value of the `tacker_vnf_instance_id` label. */
  vnfInstanceId: string;
  /** Where the listed manifests are read from; needed when `lcm-kubernetes-def-files` is given. */
  manifests?: ManifestReader;
  /** The package's files, to find the charts of `helm_chart_path` (a package source). */
  charts?: ChartReader;
}

/** How to find the pods (VNFCs) of one VDU. VNFC ids are pod names, known only at run time. */
export interface VnfcRef {
  vduId: string;
  kind: string;
  /** Workload (or bare Pod) name. */
  name: string;
  /** Undefined: the VIM's namespace. */
  namespace?: string;
  /** Label selector of the VDU's pods, `k=v,k2=v2` (for `kubectl get pods -l`). */
  labelSelector?: string;
  /** Field selector when the VDU is one bare Pod: `metadata.name=<pod>`. */
  fieldSelector?: string;
  /** Replicas set by the plan; absent for a DaemonSet, a bare Pod (1) or an HPA-owned workload. */
  replicas?: number;
  /** Name of the HorizontalPodAutoscaler that owns the replicas, if any. */
  hpa?: string;
}

export interface CnfPlan {
  namespace: ResolvedNamespace;
  /** In creation order. */
  objects: PlannedObject[];
  /** By VDU id. */
  vnfcs: Record<string, VnfcRef>;
  /** Helm releases (`helm_chart_path`), installed after the objects; their namespace is `namespace`. */
  helmReleases: HelmReleasePlan[];
  diagnostics: Diagnostic[];
}

export function planCnf(input: CnfPlanInput): CnfPlan {
  const bag = new DiagnosticBag();
  const empty: CnfPlan = { namespace: { source: "vim" }, objects: [], vnfcs: {}, helmReleases: [], diagnostics: bag.items };
  const flavour = input.model.flavours.find((f) => f.id === input.flavourId);
  if (!flavour) {
    bag.error("CNF_UNKNOWN_FLAVOUR", `flavour \`${input.flavourId}\` is not in the package (flavours: ${input.model.flavours.map((f) => f.id).join(", ")})`, {
      path: "flavourId",
    });
    return empty;
  }
  const instanceId = checkInstanceId(input.vnfInstanceId, bag) ? input.vnfInstanceId : "invalid";
  checkSelection(flavour, input, bag);
  const params = input.additionalParams ?? {};
  const entries: Entry[] = [];
  const vnfcs: Record<string, VnfcRef> = {};
  const claims: NamespaceClaim[] = [];
  const flavourAt = (vdu: Vdu): SourceLocation => ({ file: flavour.file, path: `topology_template.node_templates.${vdu.id}` });

  const ctx: Context = { flavour, params, instanceId, bag, entries, vnfcs, claims, flavourAt };
  const helmReleases: HelmReleasePlan[] = [];
  if (input.model.format === "tacker-legacy") planLegacy(ctx);
  else if (usesHelm(params)) helmReleases.push(...planHelm(ctx, input));
  else planSol001(ctx, input);

  const namespace = resolveNamespace(params.namespace, claims, bag);
  // Only additionalParams.namespace moves objects; otherwise each keeps its own (or the VIM's).
  const forced = namespace.source === "additionalParams" ? namespace.namespace : undefined;
  for (const e of entries) {
    if (!e.info.namespaced) delete e.object.metadata.namespace;
    else if (forced !== undefined) e.object.metadata.namespace = forced;
    labelWithInstance(e.object, instanceId, bag, e.origin);
  }
  for (const v of Object.values(vnfcs)) if (forced !== undefined) v.namespace = forced;

  const objects = order(entries, bag);
  return { namespace, objects, vnfcs, helmReleases, diagnostics: bag.items };
}

/** `planCnf`, throwing one `DiagnosticError` that lists every error. */
export function planOrThrow(input: CnfPlanInput, what = "containerized VNF"): CnfPlan {
  const plan = planCnf(input);
  const errors = plan.diagnostics.filter((d) => d.severity === "error");
  if (errors.length) throw new DiagnosticError(`${what}: invalid input, nothing was created`, errors);
  return plan;
}

/** What the planning steps share. */
interface Context {
  flavour: Flavour;
  params: Record<string, unknown>;
  instanceId: string;
  bag: DiagnosticBag;
  entries: Entry[];
  vnfcs: Record<string, VnfcRef>;
  claims: NamespaceClaim[];
  flavourAt: (vdu: Vdu) => SourceLocation;
}

/** Legacy containerized VNFD: the objects come from the VDUs, not from manifests. */
function planLegacy({ flavour, params, instanceId, bag, entries, vnfcs, claims, flavourAt }: Context): void {
  if (params[DEF_FILES_PARAM] !== undefined)
    bag.warning("CNF_LEGACY_MANIFESTS", `a legacy containerized VNFD builds its own objects; ${DEF_FILES_PARAM} is ignored`, {
      path: `additionalParams.${DEF_FILES_PARAM}`,
    });
  for (const vdu of flavour.vdus) {
    if (vdu.kind !== "container") continue;
    const where = flavourAt(vdu);
    if (vdu.namespace) claims.push({ namespace: vdu.namespace, what: `VDU \`${vdu.id}\``, where: { ...where, path: `${where.path}.properties.namespace` } });
    const objects = legacyObjects(vdu, instanceId);
    // The VDU's `namespace` is its objects' own namespace, as a manifest's metadata.namespace.
    if (vdu.namespace) for (const o of objects) o.metadata.namespace = vdu.namespace;
    objects.forEach((o) => entries.push(entry(o, { source: "legacy", vduId: vdu.id, ...where })));
    const deployment = objects.find((o) => o.kind === "Deployment")!;
    const hpa = objects.find((o) => o.kind === "HorizontalPodAutoscaler");
    vnfcs[vdu.id] = {
      vduId: vdu.id,
      kind: "Deployment",
      name: deployment.metadata.name,
      labelSelector: selectorOf(deployment),
      ...(hpa ? { hpa: hpa.metadata.name } : {}),
      ...(vdu.namespace ? { namespace: vdu.namespace } : {}),
    };
  }
}

/** SOL001: the listed manifests, then each VDU bound to a workload or generated from its image. */
function planSol001(ctx: Context, input: CnfPlanInput): void {
  const { params, bag, entries, claims } = ctx;
  const files = defFilesOf(params, bag);
  let docs: ManifestDoc[] = [];
  if (files !== undefined) {
    const reader = input.manifests;
    if (!reader)
      bag.error("CNF_NO_MANIFESTS", `${DEF_FILES_PARAM} is given but no package files were provided to read them`, {
        path: `additionalParams.${DEF_FILES_PARAM}`,
      });
    else
      docs = loadManifests(
        files,
        { declared: input.model.kubernetesManifests, read: (p) => reader.read(p), display: (p) => (reader.display ? reader.display(p) : p) },
        bag,
      );
  }
  for (const d of docs) {
    entries.push(entry(clone(d.object), { source: "manifest", ...d.doc.location([]) }, d.info));
    const ns = d.object.metadata.namespace;
    if (d.info.namespaced && typeof ns === "string" && ns !== "")
      claims.push({ namespace: ns, what: describe(d.object), where: d.doc.location(["metadata", "namespace"]) });
  }
  bindVdus(ctx.flavour, entries, files ?? [], params, ctx.instanceId, input, ctx.vnfcs, bag, ctx.flavourAt);
}

/**
 * Helm: the charts make the workloads, rendered at deploy time. Each VDU's workload is the
 * Deployment named as its `properties.name` (Tacker's binding); its replicas reach the chart
 * through `helm_value_names`, and a VDU the request does not map keeps the chart's count.
 */
function planHelm(ctx: Context, input: CnfPlanInput): HelmReleasePlan[] {
  const { flavour, params, bag, vnfcs, instanceId, flavourAt } = ctx;
  if (params[DEF_FILES_PARAM] !== undefined)
    bag.error("CNF_HELM_WITH_MANIFESTS", `a request gives either helm_chart_path or ${DEF_FILES_PARAM}, not both`, {
      path: `additionalParams.${DEF_FILES_PARAM}`,
    });
  const mapped = params.helm_value_names && typeof params.helm_value_names === "object" ? (params.helm_value_names as Record<string, unknown>) : {};
  const releases = planHelmReleases(
    params,
    flavour,
    (id) =>
      replicasOf(
        flavour.vdus.find((v) => v.id === id)!,
        flavour,
        input,
      ),
    instanceId,
    input.model.kubernetesManifests,
    input.charts,
    bag,
  );
  for (const vdu of flavour.vdus) {
    const n = replicasOf(vdu, flavour, input);
    const scaled = mapped[vdu.id] !== undefined && checkInProfile(vdu, n, `Helm value of VDU \`${vdu.id}\``, bag, flavourAt(vdu));
    vnfcs[vdu.id] = { vduId: vdu.id, kind: "Deployment", name: vdu.name, labelSelector: `${INSTANCE_LABEL}=${instanceId}`, ...(scaled ? { replicas: n } : {}) };
  }
  return releases;
}

interface Entry {
  object: KubeObject;
  origin: ObjectOrigin;
  info: KindInfo;
}

function entry(object: KubeObject, origin: ObjectOrigin, info?: KindInfo): Entry {
  return { object, origin, info: info ?? BUILTIN_KINDS.get(`${object.apiVersion}/${object.kind}`)! };
}

function bindVdus(
  flavour: Flavour,
  entries: Entry[],
  files: readonly string[],
  params: Record<string, unknown>,
  instanceId: string,
  sel: ReplicaSelection,
  vnfcs: Record<string, VnfcRef>,
  bag: DiagnosticBag,
  flavourAt: (vdu: Vdu) => SourceLocation,
): void {
  const vduMapping =
    params.vdu_mapping && typeof params.vdu_mapping === "object" ? (params.vdu_mapping as Record<string, { kind?: unknown; name?: unknown }>) : {};
  const hpaTargets = new Map<string, KubeObject>();
  for (const e of entries) {
    if (e.object.kind !== "HorizontalPodAutoscaler") continue;
    const ref = (e.object.spec as { scaleTargetRef?: { kind?: string; name?: string } } | undefined)?.scaleTargetRef;
    if (ref?.kind && ref.name) hpaTargets.set(`${ref.kind}|${ref.name}`, e.object);
  }
  let configMap: KubeObject | undefined | null = null; // null: not computed yet
  for (const vdu of flavour.vdus) {
    const where = flavourAt(vdu);
    const mapped = vduMapping[vdu.id];
    const wanted =
      mapped && typeof mapped.name === "string"
        ? { name: mapped.name, kind: typeof mapped.kind === "string" ? mapped.kind : undefined }
        : { name: vdu.name, kind: undefined };
    const candidates = entries.filter(
      (e) =>
        e.origin.source === "manifest" &&
        e.info.workload &&
        e.object.metadata.name === wanted.name &&
        (wanted.kind === undefined || e.object.kind === wanted.kind),
    );
    if (candidates.length > 1) {
      bag.error(
        "CNF_VDU_AMBIGUOUS",
        `VDU \`${vdu.id}\` (name \`${wanted.name}\`) matches ${candidates.map((c) => `${c.object.kind} at ${c.origin.file}:${c.origin.line}`).join(" and ")}; list only one, or use additionalParams.vdu_mapping`,
        where,
      );
      continue;
    }
    const n = replicasOf(vdu, flavour, sel);
    if (candidates.length === 1) {
      const c = candidates[0];
      c.origin.vduId = vdu.id;
      const o = c.object;
      const spec = (o.spec ??= {}) as Record<string, unknown>;
      const ref: VnfcRef = { vduId: vdu.id, kind: o.kind, name: o.metadata.name, ...(o.metadata.namespace ? { namespace: o.metadata.namespace } : {}) };
      const hpa = hpaTargets.get(`${o.kind}|${o.metadata.name}`);
      if (o.kind === "Pod") {
        if (n !== 1)
          bag.error(
            "CNF_POD_REPLICAS",
            `VDU \`${vdu.id}\` needs ${n} instance(s) but is the bare Pod \`${o.metadata.name}\` (${c.origin.file}:${c.origin.line}), which is one`,
            where,
          );
        ref.fieldSelector = `metadata.name=${o.metadata.name}`;
        ref.labelSelector = `${INSTANCE_LABEL}=${instanceId}`;
      } else {
        ref.labelSelector = selectorOf(o);
        if (o.kind === "DaemonSet") {
          bag.warning(
            "CNF_DAEMONSET_REPLICAS",
            `VDU \`${vdu.id}\` is the DaemonSet \`${o.metadata.name}\`: one pod per node, the instantiation level's ${n} is not applied`,
            where,
          );
        } else if (hpa) {
          // The HPA/replicas rule: the HPA owns the count; setting it would fight the HPA.
          delete spec.replicas;
          ref.hpa = hpa.metadata.name;
          const h = (hpa.spec ?? {}) as { minReplicas?: number; maxReplicas?: number };
          const min = h.minReplicas ?? 1;
          if (min < vdu.minInstances || (h.maxReplicas ?? 0) > vdu.maxInstances) {
            bag.warning(
              "CNF_HPA_OUTSIDE_PROFILE",
              `HorizontalPodAutoscaler \`${hpa.metadata.name}\` scales ${o.kind} \`${o.metadata.name}\` between ${min} and ${h.maxReplicas}, outside vdu_profile [${vdu.minInstances}, ${vdu.maxInstances}] of VDU \`${vdu.id}\``,
              where,
            );
          }
        } else if (checkInProfile(vdu, n, `${o.kind} \`${o.metadata.name}\` (${c.origin.file})`, bag, where)) {
          spec.replicas = n;
          ref.replicas = n;
        }
      }
      vnfcs[vdu.id] = ref;
      continue;
    }
    const image = containerImageOf(vdu);
    if (image === undefined) {
      if (vdu.kind === "compute")
        bag.error(
          "CNF_VDU_NOT_CONTAINER",
          `VDU \`${vdu.id}\` is a VM (virtual_compute without a container image) and no manifest names \`${vdu.name}\`; a CNF needs a workload for it`,
          where,
        );
      else
        bag.error(
          "CNF_VDU_NO_WORKLOAD",
          `VDU \`${vdu.id}\` needs a Pod, Deployment, ReplicaSet, StatefulSet or DaemonSet named \`${wanted.name}\`${wanted.kind ? ` of kind ${wanted.kind}` : ""} in the listed manifests (${files.length ? files.join(", ") : "none listed in additionalParams.lcm-kubernetes-def-files"})`,
          where,
        );
      continue;
    }
    if (configMap === null) {
      configMap = paramsConfigMap(params, instanceId, bag);
      if (configMap) entries.push(entry(configMap, { source: "container-vdu" }));
    }
    const opts = containerVduOptions(vdu.id, params, bag);
    const objects = containerVduObjects(vdu, flavour, image, opts, n, configMap?.metadata.name, instanceId, bag, where);
    const hpa = objects.find((o) => o.kind === "HorizontalPodAutoscaler");
    if (!hpa && !opts.pod) checkInProfile(vdu, n, `Deployment \`${vdu.name}\``, bag, where);
    objects.forEach((o) => entries.push(entry(o, { source: "container-vdu", vduId: vdu.id, ...where })));
    const workload = objects.find((o) => o.kind === "Deployment" || o.kind === "Pod");
    if (workload) {
      vnfcs[vdu.id] = {
        vduId: vdu.id,
        kind: workload.kind,
        name: workload.metadata.name,
        ...(workload.kind === "Pod"
          ? { fieldSelector: `metadata.name=${workload.metadata.name}`, labelSelector: labelSelector(workload.metadata.labels ?? {}) }
          : { labelSelector: selectorOf(workload) }),
        ...(hpa ? { hpa: hpa.metadata.name } : workload.kind === "Deployment" ? { replicas: n } : {}),
      };
    }
  }
}

/** Sorts by tier, keeping list order within a tier, and names each object for Pulumi. */
function order(entries: Entry[], bag: DiagnosticBag): PlannedObject[] {
  const keys = new Map<string, Entry>();
  const out: PlannedObject[] = [];
  for (const e of entries) {
    const key = `${e.object.kind.toLowerCase()}-${e.object.metadata.name}`;
    const prev = keys.get(key);
    if (prev) {
      bag.error(
        "CNF_DUPLICATE_OBJECT",
        `${describe(e.object)} is produced twice (also by ${prev.origin.source}${prev.origin.file ? ` ${prev.origin.file}` : ""})`,
        e.origin,
      );
      continue;
    }
    keys.set(key, e);
    out.push({ object: e.object, origin: e.origin, namespaced: e.info.namespaced, plural: e.info.plural, tier: tierIndex(e.info.tier), key });
  }
  return out
    .map((p, i) => ({ p, i }))
    .sort((a, b) => a.p.tier - b.p.tier || a.i - b.i)
    .map(({ p }) => p);
}

function selectorOf(o: KubeObject): string | undefined {
  const m = (o.spec as { selector?: { matchLabels?: Record<string, string> } } | undefined)?.selector?.matchLabels;
  return m ? labelSelector(m) : undefined;
}

function labelSelector(labels: Record<string, string>): string {
  return Object.entries(labels)
    .map(([k, v]) => `${k}=${v}`)
    .join(",");
}
