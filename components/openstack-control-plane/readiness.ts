/**
 * When a chart is up, without Pulumi waiting on each of its objects.
 *
 * Pulumi runs a few operations at once (4 per core: 8 on a 2-core machine) and an object it waits
 * for holds one until it is ready. A chart's Jobs, workloads and Services wait, through their
 * kubernetes-entrypoint init containers, for the chart's ConfigMaps and for one another: on the
 * real cluster Glance's waiting objects held every operation and its ConfigMap `glance-bin` was
 * never created. openstack-helm orders its objects itself (each pod's `dependencies`), so Pulumi
 * does not wait on them (`pulumi.com/skipAwait`), and one Job of ours per chart, the gate, waits
 * instead: every Job of the chart succeeded and a pod of each of its workloads Ready. It runs
 * kubernetes-entrypoint too, with those dependencies; Pulumi waits for the gate alone. A digest of
 * the chart's Jobs and workloads in the gate's pod template replaces the gate when any of them
 * changes, so an update waits as a first `up` does. Its pod check goes by label: in a rolling
 * update an old pod still Ready passes it.
 */
import { createHash } from "node:crypto";
import * as k8s from "@pulumi/kubernetes";
import * as pulumi from "@pulumi/pulumi";

/** The kinds Pulumi would wait on (a Service waits for its pods' endpoints). */
const WAITING_KINDS = new Set([
  "kubernetes:batch/v1:Job",
  "kubernetes:apps/v1:Deployment",
  "kubernetes:apps/v1:StatefulSet",
  "kubernetes:apps/v1:DaemonSet",
  "kubernetes:core/v1:Service",
]);
const WORKLOAD_KINDS = new Set(["Deployment", "StatefulSet", "DaemonSet"]);

/** The annotation that has Pulumi create an object without waiting for it. */
export const SKIP_AWAIT: Readonly<Record<string, string>> = { "pulumi.com/skipAwait": "true" };

/** A transform of a chart's children: the kinds Pulumi would wait on are created without waiting. */
export const skipAwait: pulumi.ResourceTransform = (args) => {
  if (!WAITING_KINDS.has(args.type)) return undefined;
  const metadata = (args.props.metadata ?? {}) as { annotations?: Record<string, string> };
  return {
    props: { ...args.props, metadata: { ...metadata, annotations: { ...metadata.annotations, ...SKIP_AWAIT } } },
    opts: args.opts,
  };
};

/** What the gate of one chart waits for, from the chart's objects. */
export interface GateDependencies {
  /** The names of the chart's Jobs: each must succeed. */
  jobs: string[];
  /** The pod selector of each workload: a Ready pod of each. */
  pods: Record<string, string>[];
  /**
   * A digest of the Jobs' and workloads' specs. It is in the gate's pod template, so a change of
   * any of them (a new image, a new configuration hash of openstack-helm's pod annotations, a Job
   * replaced) replaces the gate, which then waits for the new pods instead of having passed for the
   * old ones.
   */
  revision: string;
}

/** One object of a rendered chart, as much of it as the gate needs. */
export interface ChartObject {
  kind: string;
  name: string;
  /** The object's spec (a workload's selector is read from it). */
  spec?: unknown;
}

const isWaitedFor = (o: ChartObject) => o.kind === "Job" || WORKLOAD_KINDS.has(o.kind);

/** The gate's dependencies of a chart's objects. */
export function gateDependencies(objects: ChartObject[]): GateDependencies {
  const waited = objects.filter(isWaitedFor).sort((a, b) => `${a.kind}/${a.name}`.localeCompare(`${b.kind}/${b.name}`));
  return {
    jobs: waited.filter((o) => o.kind === "Job").map((o) => o.name),
    pods: objects
      .filter((o) => WORKLOAD_KINDS.has(o.kind))
      .map((o) => (o.spec as { selector?: { matchLabels?: Record<string, string> } } | undefined)?.selector?.matchLabels)
      .filter((labels): labels is Record<string, string> => labels !== undefined),
    revision: createHash("sha256")
      .update(JSON.stringify(waited.map((o) => [o.kind, o.name, o.spec ?? null])))
      .digest("hex")
      .slice(0, 16),
  };
}

/** The kubernetes-entrypoint environment of a gate in `namespace` waiting for `deps`. */
export function gateEnv(namespace: string, deps: GateDependencies): k8s.types.input.core.v1.EnvVar[] {
  return [
    { name: "NAMESPACE", valueFrom: { fieldRef: { fieldPath: "metadata.namespace" } } },
    { name: "POD_NAME", valueFrom: { fieldRef: { fieldPath: "metadata.name" } } },
    { name: "DEPENDENCY_JOBS", value: deps.jobs.map((j) => `${namespace}:${j}`).join(",") },
    { name: "DEPENDENCY_POD_JSON", value: JSON.stringify(deps.pods.map((labels) => ({ namespace, labels, requireSameNode: false }))) },
  ];
}

/** A chart's object as its `resources` output holds it: a Kubernetes resource, whose fields are outputs. */
interface ChartResource {
  kind: pulumi.Input<string>;
  metadata: pulumi.Input<{ name: string }>;
  spec?: pulumi.Input<unknown>;
}

/** The objects of a helm.v4.Chart as the gate needs them. */
function chartObjects(chart: k8s.helm.v4.Chart): pulumi.Output<ChartObject[]> {
  return chart.resources.apply((resources: ChartResource[]) =>
    pulumi.all(resources.map((r) => pulumi.all([r.kind, r.metadata, r.spec]).apply(([kind, metadata, spec]) => ({ kind, name: metadata.name, spec })))),
  );
}

/**
 * The name of the gates' ServiceAccount, Role and RoleBinding in the control plane's namespace; our
 * own pods' kubernetes-entrypoint init containers (cinder.ts) read Jobs through it too.
 */
export const GATE_ACCOUNT = "nfv-chart-gate";

/** The gate's pod annotation holding its chart's revision (GateDependencies.revision). */
export const GATE_REVISION = "nfv.pulumi-nfv/chart-revision";

/** The gates' account: a ServiceAccount that may read the namespace's Jobs and pods. Returns its RoleBinding. */
export function gateAccount(name: string, namespace: string, opts: pulumi.CustomResourceOptions): k8s.rbac.v1.RoleBinding {
  const metadata = { namespace, name: GATE_ACCOUNT };
  const account = new k8s.core.v1.ServiceAccount(`${name}-gate`, { metadata }, opts);
  const role = new k8s.rbac.v1.Role(
    `${name}-gate`,
    {
      metadata,
      rules: [
        { apiGroups: ["batch"], resources: ["jobs"], verbs: ["get", "list"] },
        { apiGroups: [""], resources: ["pods"], verbs: ["get", "list"] },
      ],
    },
    opts,
  );
  return new k8s.rbac.v1.RoleBinding(
    `${name}-gate`,
    {
      metadata,
      roleRef: { apiGroup: "rbac.authorization.k8s.io", kind: "Role", name: GATE_ACCOUNT },
      subjects: [{ kind: "ServiceAccount", name: GATE_ACCOUNT, namespace }],
    },
    { ...opts, dependsOn: [account, role] },
  );
}

/** Where a gate runs: the control plane's namespace, kubernetes-entrypoint's image, the gates' account. */
export interface GateSettings {
  namespace: string;
  image: string;
  nodeSelector?: Record<string, string>;
  account: pulumi.Resource;
}

/**
 * The gate of `chart`: a Job of kubernetes-entrypoint (`image`) that completes once the chart's
 * Jobs succeeded and a pod of each of its workloads is Ready; created after the chart and the
 * gates' `account` (gateAccount).
 */
export function chartGate(name: string, chart: k8s.helm.v4.Chart, gate: GateSettings, opts: pulumi.CustomResourceOptions): k8s.batch.v1.Job {
  return gateJob(name, chartObjects(chart).apply(gateDependencies), gate, { ...opts, dependsOn: [chart, gate.account] });
}

/** The gate of objects of our own (a service without a chart): as a chart's, created after their `resources`. */
export function objectsGate(
  name: string,
  objects: ChartObject[],
  resources: pulumi.Resource[],
  gate: GateSettings,
  opts: pulumi.CustomResourceOptions,
): k8s.batch.v1.Job {
  return gateJob(name, pulumi.output(gateDependencies(objects)), gate, { ...opts, dependsOn: [...resources, gate.account] });
}

function gateJob(name: string, deps: pulumi.Output<GateDependencies>, gate: GateSettings, opts: pulumi.CustomResourceOptions): k8s.batch.v1.Job {
  return new k8s.batch.v1.Job(
    name,
    {
      metadata: { namespace: gate.namespace },
      spec: {
        backoffLimit: 0,
        template: {
          metadata: { annotations: { [GATE_REVISION]: deps.revision } },
          spec: {
            serviceAccountName: GATE_ACCOUNT,
            restartPolicy: "Never",
            nodeSelector: gate.nodeSelector,
            containers: [
              {
                name: "wait",
                image: gate.image,
                command: ["kubernetes-entrypoint"],
                env: deps.apply((d) => gateEnv(gate.namespace, d)),
              },
            ],
          },
        },
      },
    },
    // A chart's db-sync, its pods' start and their probes take minutes on a small cluster.
    { ...opts, customTimeouts: { create: "30m" } },
  );
}
