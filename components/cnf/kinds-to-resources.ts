/**
 * Which Pulumi resource class registers an object of a given `apiVersion/kind`: the typed class of
 * @pulumi/kubernetes for every built-in kind of `translators/kubernetes/kinds.ts`, and
 * `apiextensions.CustomResource` for custom resources. Explicit, so every object is a resource
 * with a stable name and no `kubernetes.yaml` indirection.
 */
import * as k8s from "@pulumi/kubernetes";
import * as pulumi from "@pulumi/pulumi";
import type { KubeObject } from "../../translators/kubernetes/objects";

type Ctor = new (name: string, args: never, opts?: pulumi.CustomResourceOptions) => pulumi.CustomResource;

export const RESOURCE_CLASSES: ReadonlyMap<string, Ctor> = new Map<string, Ctor>([
  ["apiextensions.k8s.io/v1/CustomResourceDefinition", k8s.apiextensions.v1.CustomResourceDefinition],
  ["v1/Namespace", k8s.core.v1.Namespace],
  ["storage.k8s.io/v1/StorageClass", k8s.storage.v1.StorageClass],
  ["v1/PersistentVolume", k8s.core.v1.PersistentVolume],
  ["scheduling.k8s.io/v1/PriorityClass", k8s.scheduling.v1.PriorityClass],
  ["apiregistration.k8s.io/v1/APIService", k8s.apiregistration.v1.APIService],
  ["v1/Node", k8s.core.v1.Node],
  ["v1/PersistentVolumeClaim", k8s.core.v1.PersistentVolumeClaim],
  ["v1/LimitRange", k8s.core.v1.LimitRange],
  ["v1/ResourceQuota", k8s.core.v1.ResourceQuota],
  ["storage.k8s.io/v1/VolumeAttachment", k8s.storage.v1.VolumeAttachment],
  ["v1/ServiceAccount", k8s.core.v1.ServiceAccount],
  ["rbac.authorization.k8s.io/v1/ClusterRole", k8s.rbac.v1.ClusterRole],
  ["rbac.authorization.k8s.io/v1/ClusterRoleBinding", k8s.rbac.v1.ClusterRoleBinding],
  ["rbac.authorization.k8s.io/v1/Role", k8s.rbac.v1.Role],
  ["rbac.authorization.k8s.io/v1/RoleBinding", k8s.rbac.v1.RoleBinding],
  ["v1/ConfigMap", k8s.core.v1.ConfigMap],
  ["v1/Secret", k8s.core.v1.Secret],
  ["networking.k8s.io/v1/NetworkPolicy", k8s.networking.v1.NetworkPolicy],
  ["coordination.k8s.io/v1/Lease", k8s.coordination.v1.Lease],
  ["v1/PodTemplate", k8s.core.v1.PodTemplate],
  ["apps/v1/ControllerRevision", k8s.apps.v1.ControllerRevision],
  ["v1/Service", k8s.core.v1.Service],
  ["v1/Endpoints", k8s.core.v1.Endpoints],
  ["networking.k8s.io/v1/Ingress", k8s.networking.v1.Ingress],
  ["v1/Pod", k8s.core.v1.Pod],
  ["apps/v1/Deployment", k8s.apps.v1.Deployment],
  ["apps/v1/ReplicaSet", k8s.apps.v1.ReplicaSet],
  ["apps/v1/StatefulSet", k8s.apps.v1.StatefulSet],
  ["apps/v1/DaemonSet", k8s.apps.v1.DaemonSet],
  ["batch/v1/Job", k8s.batch.v1.Job],
  ["batch/v1/CronJob", k8s.batch.v1.CronJob],
  ["autoscaling/v2/HorizontalPodAutoscaler", k8s.autoscaling.v2.HorizontalPodAutoscaler],
  ["autoscaling/v1/HorizontalPodAutoscaler", k8s.autoscaling.v1.HorizontalPodAutoscaler],
]);

/**
 * Registers one object with the class of its kind. A Secret's `data` and `stringData` are wrapped
 * with `pulumi.secret`, so they are encrypted in state from the input on.
 */
export function registerObject(name: string, object: KubeObject, opts: pulumi.CustomResourceOptions): pulumi.CustomResource {
  const ctor = RESOURCE_CLASSES.get(`${object.apiVersion}/${object.kind}`);
  if (object.apiVersion === "v1" && object.kind === "Secret") {
    const args: Record<string, unknown> = { ...object };
    for (const key of ["data", "stringData"]) if (args[key] !== undefined) args[key] = pulumi.secret(args[key]);
    return new k8s.core.v1.Secret(name, args as k8s.core.v1.SecretArgs, opts);
  }
  if (ctor) return new ctor(name, object as never, opts);
  return new k8s.apiextensions.CustomResource(name, object as k8s.apiextensions.CustomResourceArgs, opts);
}
