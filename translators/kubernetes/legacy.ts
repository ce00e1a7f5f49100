/**
 * Tacker's legacy containerized VDU (`tosca.nodes.nfv.VDU.Tacker`, already read into a
 * `ContainerVdu` by the package translator) → Deployment, ConfigMap, Service and
 * HorizontalPodAutoscaler, after Tacker's removed translator (tacker-notes §d.1), with two
 * deliberate changes: names are `<vdu>-<hash of the instance id>` (Tacker appended a random UUID
 * and truncated to 15 characters, so names changed on every deploy), and the HPA is
 * `autoscaling/v2` (v1 is legacy). The Deployment has no `replicas`: one pod until the HPA acts.
 */
import type { Container, ContainerVdu } from "../tosca/model";
import { INSTANCE_LABEL } from "./labels";
import { dnsLabel, shortHash, type KubeObject } from "./objects";
import { cpuQuantity, requestsAndLimits } from "./resources";

/** Deterministic object name of a legacy VDU: stable across deploys, distinct per instance. */
export function legacyObjectName(vduId: string, instanceId: string): string {
  return `${dnsLabel(vduId, 54)}-${shortHash(instanceId)}`;
}

/** Pod labels: the VDU's `labels`, else `{selector: <name>}` as in Tacker. */
export function legacyPodLabels(vdu: ContainerVdu, name: string): Record<string, string> {
  return Object.keys(vdu.labels).length ? { ...vdu.labels } : { selector: name };
}

export function legacyObjects(vdu: ContainerVdu, instanceId: string): KubeObject[] {
  const name = legacyObjectName(vdu.id, instanceId);
  const podLabels = legacyPodLabels(vdu, name);
  const config: Record<string, string> = {};
  for (const c of vdu.containers) Object.assign(config, c.config);
  const hasConfig = Object.keys(config).length > 0;
  const out: KubeObject[] = [];

  if (hasConfig) out.push({ apiVersion: "v1", kind: "ConfigMap", metadata: { name }, data: config });

  if (vdu.servicePorts.length) {
    const service: KubeObject = {
      apiVersion: "v1",
      kind: "Service",
      metadata: { name, labels: { vdu_name: name } },
      spec: {
        ports: vdu.servicePorts.map((p) => ({ name: String(p.port), port: p.port, targetPort: p.targetPort, protocol: "TCP" })),
        selector: { ...podLabels },
        ...(vdu.serviceType ? { type: vdu.serviceType } : {}),
      },
    };
    out.push(service);
  }

  out.push({
    apiVersion: "apps/v1",
    kind: "Deployment",
    metadata: { name, labels: { ...podLabels } },
    spec: {
      selector: { matchLabels: { ...podLabels } },
      template: {
        metadata: { labels: { ...podLabels, [INSTANCE_LABEL]: instanceId } },
        spec: { containers: vdu.containers.map((c) => legacyContainer(c, name)) },
      },
    },
  });

  if (vdu.autoscaling) {
    const a = vdu.autoscaling;
    out.push({
      apiVersion: "autoscaling/v2",
      kind: "HorizontalPodAutoscaler",
      metadata: { name },
      spec: {
        scaleTargetRef: { apiVersion: "apps/v1", kind: "Deployment", name },
        minReplicas: a.minReplicas,
        maxReplicas: a.maxReplicas,
        ...(a.targetCpuUtilizationPercentage !== undefined
          ? {
              metrics: [{ type: "Resource", resource: { name: "cpu", target: { type: "Utilization", averageUtilization: a.targetCpuUtilizationPercentage } } }],
            }
          : {}),
      },
    });
  }
  return out;
}

function legacyContainer(c: Container, configMap: string): Record<string, unknown> {
  const resources = requestsAndLimits(c.cpu !== undefined ? cpuQuantity(c.cpu) : undefined, c.memoryBytes !== undefined ? String(c.memoryBytes) : undefined);
  const env = Object.keys(c.config).map((key) => ({ name: key, valueFrom: { configMapKeyRef: { name: configMap, key } } }));
  return {
    name: dnsLabel(c.name),
    image: c.image,
    imagePullPolicy: "IfNotPresent",
    ...(c.command?.length ? { command: c.command } : {}),
    ...(c.args?.length ? { args: c.args } : {}),
    ...(c.ports.length ? { ports: c.ports.map((p) => ({ containerPort: p, protocol: "TCP" })) } : {}),
    ...(env.length ? { env } : {}),
    ...(resources ? { resources } : {}),
  };
}
