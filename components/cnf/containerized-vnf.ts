import type * as k8s from "@pulumi/kubernetes";
import * as pulumi from "@pulumi/pulumi";
import { formatDiagnostic } from "../../translators/diagnostics";
import type { ManifestReader } from "../../translators/kubernetes/manifests";
import type { PlannedObject } from "../../translators/kubernetes/objects";
import { dependenciesOf } from "../../translators/kubernetes/order";
import { planOrThrow, type CnfPlan, type VnfcRef } from "../../translators/kubernetes/plan";
import type { VnfModel } from "../../translators/tosca/model";
import { refuseForeignObjects } from "./adoption";
import type { ChartReader } from "../../translators/kubernetes/helm";
import { materializeChart, registerRelease } from "./helm-release";
import { registerObject } from "./kinds-to-resources";
import { kubeApi } from "../../clients/kube-api";

/**
 * A containerized VNF on a Kubernetes VIM. Every field is a plain value, not an `Input`: the
 * whole plan is checked before anything is registered, so bad input fails `pulumi preview` with
 * one error that lists every problem.
 */
export interface ContainerizedVnfArgs {
  /**
   * The VIM: a `KubernetesVim`, or any object with its namespace (the provider's default namespace,
   * where objects that name none land) and, optionally, its provider and kubeconfig. The `provider`
   * registers every object, whatever `opts.providers` holds; without it, the `kubernetes` provider
   * of `opts.providers` (or `opts.provider`, or a parent's) does. The `kubeconfig`, when present,
   * is used to refuse adopting objects of another instance (`refuseAdoption`).
   */
  vim: { provider?: k8s.Provider; namespace: pulumi.Input<string>; kubeconfig?: pulumi.Input<string> };
  /** The package, translated (`translatePackage(...).model`): SOL001 or Tacker's legacy format. */
  model: VnfModel;
  /** `InstantiateVnfRequest.flavourId` (`default` for a legacy VNFD). */
  flavourId: string;
  /** `InstantiateVnfRequest.instantiationLevelId`; default: the flavour's default level. */
  instantiationLevelId?: string;
  /**
   * `InstantiateVnfRequest.additionalParams`: `lcm-kubernetes-def-files`, `namespace`,
   * `vdu_mapping`, `helm_chart_path`, `helm_release_name`, `helm_parameters`, `helm_value_names`
   * (Tacker), `container_vdus` (pulumi-nfv); other keys become a ConfigMap for container VDUs.
   */
  additionalParams?: Record<string, unknown>;
  /** The VNF instance id, put on every object as the `tacker_vnf_instance_id` label. */
  vnfInstanceId: string;
  /**
   * Package files, to read the manifests listed in `lcm-kubernetes-def-files`: a reader (see
   * `manifestReader(source)` for the translator's package sources) or a map path → text.
   */
  manifests?: ManifestReader | Record<string, string>;
  /**
   * The package's files (`loadVnfPackage(...).pkg.source`: a directory or a zip), to read the Helm
   * charts of `helm_chart_path`; each becomes a `helm.v4.Chart` rendered by the provider.
   */
  packageSource?: ChartReader;
  /** Scale level per aspect id, as `nfv scale` records it in stack config; overrides the level. */
  scaleLevels?: Record<string, number>;
  /**
   * Heal without VNFC ids (SOL003 "entire"): change this value (e.g. a counter in stack config) and
   * every workload is replaced on the next `up` (`replacementTrigger`).
   */
  healGeneration?: pulumi.Input<string | number>;
  /**
   * Before creating anything, read each object from the cluster with `vim.kubeconfig` and refuse
   * (one error, nothing created) when one exists without this instance's label. Default: true
   * when the VIM has a kubeconfig. Set false for a VIM in `renderYamlToDirectory` mode (no
   * cluster to ask).
   */
  refuseAdoption?: boolean;
}

/** A Service of the CNF as the API server made it: what another VNF needs to reach it. */
export interface CnfService {
  namespace: string;
  type: string;
  /** Undefined until the API server has given one (and for a headless Service: "None"). */
  clusterIP?: string;
  /** `nodePort` is the API server's choice when the manifest sets none (NodePort and LoadBalancer Services). */
  ports: { name?: string; port: number; targetPort?: number | string; nodePort?: number; protocol: string }[];
}

/** One registered object, as `objects` lists it. */
export interface CnfObjectRef {
  apiVersion: string;
  kind: string;
  name: string;
  /** Undefined for cluster-scoped kinds. */
  namespace?: string;
  /** The Pulumi child name (`<component>-<kind>-<name>`). */
  resourceName: string;
  vduId?: string;
}

/**
 * Deploys a CNF: manifests of a SOL001 package, Tacker's legacy containerized VDUs or container
 * VDUs become Kubernetes objects on the VIM's provider, created in Tacker's order through
 * `dependsOn`, labelled with the VNF instance id. See components/cnf/README.md.
 */
export class ContainerizedVnf extends pulumi.ComponentResource {
  /** The namespace of the namespaced objects. */
  readonly namespace: pulumi.Output<string>;
  /** Every registered object, in creation order. */
  readonly objects: pulumi.Output<CnfObjectRef[]>;
  /** VDU id → the workload and selector of its pods (the VNFCs; their ids are pod names). */
  readonly vnfcs: pulumi.Output<Record<string, VnfcRef>>;
  /** Every Service of the manifests by name, with the ports the API server gave (a NodePort's `nodePort`). */
  readonly services: pulumi.Output<Record<string, CnfService>>;
  /** The registered resources by child-name suffix (`deployment-vdu2`). */
  readonly resources: Record<string, pulumi.CustomResource>;
  /** The Helm releases by child-name suffix (`helm-<release>`). */
  readonly helmReleases: Record<string, k8s.helm.v4.Chart>;
  /** The plan the resources were registered from (pure data; for ops and tests). */
  readonly plan: CnfPlan;

  constructor(name: string, args: ContainerizedVnfArgs, opts?: pulumi.ComponentResourceOptions) {
    const files = args.manifests;
    const reader: ManifestReader | undefined =
      files === undefined
        ? undefined
        : typeof (files as ManifestReader).read === "function"
          ? (files as ManifestReader)
          : { read: (p) => (files as Record<string, string>)[p] };
    // Everything is checked before the component itself is registered.
    const plan = planOrThrow(
      {
        model: args.model,
        flavourId: args.flavourId,
        instantiationLevelId: args.instantiationLevelId,
        additionalParams: args.additionalParams,
        vnfInstanceId: args.vnfInstanceId,
        manifests: reader,
        charts: args.packageSource,
        scaleLevels: args.scaleLevels,
      },
      `ContainerizedVnf '${name}'`,
    );
    super("nfv:cnf:ContainerizedVnf", name, {}, opts);
    this.plan = plan;
    for (const d of plan.diagnostics) if (d.severity === "warning") pulumi.log.warn(formatDiagnostic(d), this);

    this.namespace = pulumi.output(plan.namespace.namespace ?? args.vim.namespace);
    this.resources = {};
    const dependencies = dependenciesOf(plan.objects);
    const kubeconfig = args.vim.kubeconfig;
    // Every child waits for the adoption check; when it throws, nothing is created.
    const gate =
      kubeconfig !== undefined && args.refuseAdoption !== false
        ? pulumi.all([kubeconfig, this.namespace]).apply(async ([kc, ns]) => {
            for (const w of await refuseForeignObjects(plan.objects, kubeApi(kc), args.vnfInstanceId, ns)) pulumi.log.warn(w, this);
            return true;
          })
        : undefined;
    for (const p of plan.objects) {
      const deps = (dependencies.get(p.key) ?? []).map((k) => this.resources[k]);
      const dependsOn = gate ? gate.apply(() => deps) : deps;
      const r = registerObject(`${name}-${p.key}`, p.object, childOptions(p, this, args.vim.provider, dependsOn, args.healGeneration));
      this.resources[p.key] = r;
    }
    this.helmReleases = {};
    for (const release of plan.helmReleases) {
      // planOrThrow has checked that packageSource holds every chart file.
      const chart = materializeChart(release, args.packageSource!);
      this.helmReleases[release.key] = registerRelease(name, release, chart, this.namespace, args.vnfInstanceId, {
        parent: this,
        ...(args.vim.provider ? { providers: { kubernetes: args.vim.provider } } : {}),
      });
    }

    this.objects = this.namespace.apply((ns) =>
      plan.objects.map((p) => ({
        apiVersion: p.object.apiVersion,
        kind: p.object.kind,
        name: p.object.metadata.name,
        ...(p.namespaced ? { namespace: p.object.metadata.namespace ?? ns } : {}),
        resourceName: `${name}-${p.key}`,
        ...(p.origin.vduId !== undefined ? { vduId: p.origin.vduId } : {}),
      })),
    );
    this.vnfcs = this.namespace.apply((ns) => Object.fromEntries(Object.entries(plan.vnfcs).map(([id, v]) => [id, { ...v, namespace: v.namespace ?? ns }])));
    this.services = servicesOf(plan.objects, this.resources, this.namespace);
    this.registerOutputs({ namespace: this.namespace, objects: this.objects, vnfcs: this.vnfcs, services: this.services });
  }
}

/** The registered Services' specs as the API server returned them (Helm charts' Services are not among them). */
function servicesOf(
  objects: PlannedObject[],
  resources: Record<string, pulumi.CustomResource>,
  namespace: pulumi.Output<string>,
): pulumi.Output<Record<string, CnfService>> {
  const services = objects.filter((p) => p.object.apiVersion === "v1" && p.object.kind === "Service");
  return pulumi
    .all(
      services.map((p) => {
        const r = resources[p.key] as k8s.core.v1.Service;
        return pulumi.all([r.spec, namespace]).apply(([spec, ns]): [string, CnfService] => [
          p.object.metadata.name,
          {
            namespace: p.object.metadata.namespace ?? ns,
            type: spec?.type ?? "ClusterIP",
            ...(spec?.clusterIP ? { clusterIP: spec.clusterIP } : {}),
            ports: (spec?.ports ?? []).map((port) => ({
              ...(port.name ? { name: port.name } : {}),
              port: port.port,
              protocol: port.protocol ?? "TCP",
              ...(port.targetPort !== undefined ? { targetPort: port.targetPort } : {}),
              ...(port.nodePort ? { nodePort: port.nodePort } : {}),
            })),
          },
        ]);
      }),
    )
    .apply((entries) => Object.fromEntries(entries) as Record<string, CnfService>);
}

/**
 * Options of one child: parent, the VIM's provider (undefined: the one of `opts` or of a parent), the previous tier as `dependsOn`, and for the
 * workloads of VDUs, `healGeneration` (0 until the first heal) as `replacementTrigger` (heal of
 * the entire VNF). The trigger is always set: the engine replaces when its value changes, and a
 * trigger that only appears at the first heal would change nothing (seen on the lab API server).
 * Every object keeps its manifest's name, so a replacement must delete first: created first, the
 * new object would take over the old one's name (the 4.x provider upserts) and the deletion of
 * the old one would then remove it (seen on the lab API server: the healed Pod was gone).
 */
export function childOptions(
  p: PlannedObject,
  parent: pulumi.Resource,
  provider: pulumi.ProviderResource | undefined,
  dependsOn: pulumi.Input<pulumi.Resource[]>,
  healGeneration: pulumi.Input<string | number> | undefined,
): pulumi.CustomResourceOptions {
  const workload = p.origin.vduId !== undefined && ["Pod", "Deployment", "ReplicaSet", "StatefulSet", "DaemonSet"].includes(p.object.kind);
  return { parent, provider, dependsOn, deleteBeforeReplace: true, ...(workload ? { replacementTrigger: healGeneration ?? 0 } : {}) };
}
