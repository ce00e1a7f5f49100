/**
 * The Kubernetes kinds a CNF may contain, for a cluster serving the Kubernetes 1.30–1.34 APIs.
 *
 * Tacker's list (tacker-notes §d) plus Ingress, CronJob, CustomResourceDefinition and custom
 * resources of CRDs declared in the same manifests. Each kind has a scope and a creation tier;
 * objects of a tier depend on every object of the previous non-empty tier (`order.ts`).
 */

/** Creation tiers, in order. Tacker's v2 order (namespaces, storage, RBAC, config, services, workloads). */
export const TIERS = [
  "crds", // 0 CustomResourceDefinition: the types of custom resources
  "namespaces", // 1
  "cluster", // 2 StorageClass, PersistentVolume, PriorityClass, APIService, Node
  "storage", // 3 PersistentVolumeClaim, LimitRange, ResourceQuota, VolumeAttachment
  "rbac", // 4 ServiceAccount, (Cluster)Role, (Cluster)RoleBinding
  "config", // 5 ConfigMap, Secret, NetworkPolicy, Lease, PodTemplate, ControllerRevision
  "services", // 6 Service, Endpoints, Ingress
  "workloads", // 7 Pod, Deployment, ReplicaSet, StatefulSet, DaemonSet, Job, CronJob
  "autoscalers", // 8 HorizontalPodAutoscaler: after the workload it scales
  "custom", // 9 custom resources: last, their controllers may need everything above
] as const;
export type TierName = (typeof TIERS)[number];

export interface KindInfo {
  apiVersion: string;
  kind: string;
  namespaced: boolean;
  tier: TierName;
  /** A workload whose pods are VNFCs (a VDU may map to it). */
  workload?: boolean;
  /** `spec.replicas` can be set and scaled. */
  scalable?: boolean;
  /** The resource name in API paths, e.g. `networkpolicies`. */
  plural: string;
}

/** The API resource name of a built-in kind: `NetworkPolicy` → `networkpolicies`. */
export function pluralOf(kind: string): string {
  const k = kind.toLowerCase();
  if (k === "endpoints") return k;
  if (k.endsWith("s")) return `${k}es`;
  if (k.endsWith("y")) return `${k.slice(0, -1)}ies`;
  return `${k}s`;
}

const k = (apiVersion: string, kind: string, namespaced: boolean, tier: TierName, extra: Partial<KindInfo> = {}): KindInfo => ({
  apiVersion,
  kind,
  namespaced,
  tier,
  plural: pluralOf(kind),
  ...extra,
});

/** Every supported built-in kind, keyed by `apiVersion/kind`. */
export const BUILTIN_KINDS: ReadonlyMap<string, KindInfo> = new Map(
  [
    k("apiextensions.k8s.io/v1", "CustomResourceDefinition", false, "crds"),
    k("v1", "Namespace", false, "namespaces"),
    k("storage.k8s.io/v1", "StorageClass", false, "cluster"),
    k("v1", "PersistentVolume", false, "cluster"),
    k("scheduling.k8s.io/v1", "PriorityClass", false, "cluster"),
    k("apiregistration.k8s.io/v1", "APIService", false, "cluster"),
    k("v1", "Node", false, "cluster"),
    k("v1", "PersistentVolumeClaim", true, "storage"),
    k("v1", "LimitRange", true, "storage"),
    k("v1", "ResourceQuota", true, "storage"),
    k("storage.k8s.io/v1", "VolumeAttachment", false, "storage"),
    k("v1", "ServiceAccount", true, "rbac"),
    k("rbac.authorization.k8s.io/v1", "ClusterRole", false, "rbac"),
    k("rbac.authorization.k8s.io/v1", "ClusterRoleBinding", false, "rbac"),
    k("rbac.authorization.k8s.io/v1", "Role", true, "rbac"),
    k("rbac.authorization.k8s.io/v1", "RoleBinding", true, "rbac"),
    k("v1", "ConfigMap", true, "config"),
    k("v1", "Secret", true, "config"),
    k("networking.k8s.io/v1", "NetworkPolicy", true, "config"),
    k("coordination.k8s.io/v1", "Lease", true, "config"),
    k("v1", "PodTemplate", true, "config"),
    k("apps/v1", "ControllerRevision", true, "config"),
    k("v1", "Service", true, "services"),
    k("v1", "Endpoints", true, "services"),
    k("networking.k8s.io/v1", "Ingress", true, "services"),
    k("v1", "Pod", true, "workloads", { workload: true }),
    k("apps/v1", "Deployment", true, "workloads", { workload: true, scalable: true }),
    k("apps/v1", "ReplicaSet", true, "workloads", { workload: true, scalable: true }),
    k("apps/v1", "StatefulSet", true, "workloads", { workload: true, scalable: true }),
    k("apps/v1", "DaemonSet", true, "workloads", { workload: true }),
    k("batch/v1", "Job", true, "workloads"),
    k("batch/v1", "CronJob", true, "workloads"),
    k("autoscaling/v2", "HorizontalPodAutoscaler", true, "autoscalers"),
    k("autoscaling/v1", "HorizontalPodAutoscaler", true, "autoscalers"),
  ].map((i) => [`${i.apiVersion}/${i.kind}`, i]),
);

/**
 * Kinds Tacker accepts that are requests, not objects (a review answers once and is not stored;
 * a Binding is a pod subresource). A declarative program cannot own them: they are skipped with a
 * warning, as Tacker v2 does for Binding.
 */
export const IGNORED_KINDS: ReadonlySet<string> = new Set([
  "Binding",
  "TokenReview",
  "SubjectAccessReview",
  "SelfSubjectAccessReview",
  "SelfSubjectRulesReview",
  "LocalSubjectAccessReview",
]);

export function tierIndex(t: TierName): number {
  return TIERS.indexOf(t);
}

/** Supported apiVersions of a kind, for "did you mean" messages. */
export function apiVersionsOf(kind: string): string[] {
  return [...BUILTIN_KINDS.values()].filter((i) => i.kind === kind).map((i) => i.apiVersion);
}
