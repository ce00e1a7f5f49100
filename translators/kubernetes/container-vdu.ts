/**
 * A SOL001 `Vdu.Compute` whose `sw_image_data` is a container image (`container_format: docker`)
 * and which no manifest realises → a Deployment (or a bare Pod when asked and vdu_profile max is
 * 1), a Service for its external CPs, an HPA when an aspect scales it, and env from a ConfigMap
 * of `additionalParams`.
 *
 * SOL001 has no container ports nor bare-pod choice, so one pulumi-nfv key of `additionalParams`
 * carries them: `container_vdus: {<VDU id>: {pod: true, ports: ["80", "8080:80"], service_type}}`
 * (ports as legacy `mapping_ports`: `port[:targetPort]`).
 *
 * Codes: CNF_BAD_PARAM, CNF_BARE_POD_NOT_ALLOWED, CNF_SERVICE_NO_PORTS, CNF_IMAGE_UNPINNED (warning).
 */
import type { DiagnosticBag, SourceLocation } from "../diagnostics";
import type { Flavour, Vdu } from "../tosca/model";
import { INSTANCE_LABEL } from "./labels";
import { dnsLabel, shortHash, type KubeObject } from "./objects";
import { cpuQuantity, requestsAndLimits } from "./resources";

export const CONTAINER_VDUS_PARAM = "container_vdus";

/** Keys of `additionalParams` that configure the deployment itself and are not handed to pods. */
export const RESERVED_PARAMS: ReadonlySet<string> = new Set([
  "lcm-kubernetes-def-files",
  "namespace",
  "vdu_mapping",
  CONTAINER_VDUS_PARAM,
  "use_helm",
  "using_helm_install_param",
  "helm_replica_values",
  "helm_chart_path",
  "helm_parameters",
  "helm_value_names",
  "k8s_cluster_installation_param",
  "lcm-operation-user-data",
  "lcm-operation-user-data-class",
  "nfv",
]);

const CONTAINER_FORMATS = new Set(["docker"]);

/** The image reference of a VDU whose `sw_image_data` is a container image, else undefined. */
export function containerImageOf(vdu: Vdu): string | undefined {
  const image = vdu.swImage;
  if (!image || !CONTAINER_FORMATS.has((image.containerFormat ?? "").toLowerCase())) return undefined;
  const last = image.name.split("/").pop() ?? "";
  const pinned = last.includes(":") || image.name.includes("@");
  return pinned || !image.version ? image.name : `${image.name}:${image.version}`;
}

interface ContainerVduOptions {
  pod: boolean;
  ports: { port: number; targetPort: number }[];
  serviceType?: string;
}

/** `additionalParams.container_vdus[<vdu>]`, checked. */
export function containerVduOptions(vduId: string, params: Record<string, unknown> | undefined, bag: DiagnosticBag): ContainerVduOptions {
  const path = `additionalParams.${CONTAINER_VDUS_PARAM}.${vduId}`;
  const all = params?.[CONTAINER_VDUS_PARAM];
  const raw = all && typeof all === "object" && !Array.isArray(all) ? (all as Record<string, unknown>)[vduId] : undefined;
  const out: ContainerVduOptions = { pod: false, ports: [] };
  if (raw === undefined) return out;
  if (!raw || typeof raw !== "object" || Array.isArray(raw)) {
    bag.error("CNF_BAD_PARAM", "must be a mapping {pod, ports, service_type}", { path });
    return out;
  }
  const o = raw as Record<string, unknown>;
  if (o.pod !== undefined && typeof o.pod !== "boolean") bag.error("CNF_BAD_PARAM", "`pod` must be true or false", { path: `${path}.pod` });
  out.pod = o.pod === true;
  if (o.service_type !== undefined) {
    if (typeof o.service_type === "string" && ["ClusterIP", "NodePort", "LoadBalancer"].includes(o.service_type)) out.serviceType = o.service_type;
    else bag.error("CNF_BAD_PARAM", "`service_type` is ClusterIP, NodePort or LoadBalancer", { path: `${path}.service_type` });
  }
  if (o.ports !== undefined) {
    if (!Array.isArray(o.ports)) bag.error("CNF_BAD_PARAM", "`ports` is a list of `port` or `port:targetPort`", { path: `${path}.ports` });
    else
      o.ports.forEach((p, i) => {
        const m = /^(\d{1,5})(?::(\d{1,5}))?$/.exec(String(p));
        const port = m ? Number(m[1]) : 0;
        const target = m?.[2] !== undefined ? Number(m[2]) : port;
        if (!m || port < 1 || port > 65535 || target < 1 || target > 65535)
          bag.error("CNF_BAD_PARAM", `port ${JSON.stringify(p)} is not \`port\` or \`port:targetPort\` (1-65535)`, { path: `${path}.ports[${i}]` });
        else out.ports.push({ port, targetPort: target });
      });
  }
  return out;
}

/** The ConfigMap of non-reserved `additionalParams`; undefined when there is nothing to pass. */
export function paramsConfigMap(params: Record<string, unknown> | undefined, instanceId: string, bag: DiagnosticBag): KubeObject | undefined {
  const data: Record<string, string> = {};
  for (const [k, v] of Object.entries(params ?? {})) {
    if (RESERVED_PARAMS.has(k) || v === undefined || v === null) continue;
    if (!/^[-._a-zA-Z0-9]+$/.test(k)) {
      bag.warning("CNF_PARAM_SKIPPED", `additionalParams key \`${k}\` is not a valid ConfigMap key; not passed to containers`, {
        path: `additionalParams.${k}`,
      });
      continue;
    }
    data[k] = typeof v === "string" ? v : JSON.stringify(v);
  }
  if (!Object.keys(data).length) return undefined;
  return { apiVersion: "v1", kind: "ConfigMap", metadata: { name: paramsConfigMapName(instanceId) }, data };
}

export function paramsConfigMapName(instanceId: string): string {
  return `vnf-params-${shortHash(instanceId)}`;
}

/** Objects of one container VDU. `replicas` is omitted when an HPA owns the Deployment. */
export function containerVduObjects(
  vdu: Vdu,
  flavour: Flavour,
  image: string,
  opts: ContainerVduOptions,
  replicas: number,
  configMap: string | undefined,
  instanceId: string,
  bag: DiagnosticBag,
  where: SourceLocation,
): KubeObject[] {
  const name = dnsLabel(vdu.name);
  const podLabels = { vdu_name: name, [INSTANCE_LABEL]: instanceId };
  const last = image.split("/").pop() ?? "";
  if (!last.includes(":") && !image.includes("@"))
    bag.warning("CNF_IMAGE_UNPINNED", `VDU \`${vdu.id}\`: image \`${image}\` has no tag or digest; set sw_image_data.version`, where);
  const vc = vdu.kind === "compute" ? vdu.virtualCompute : undefined;
  const resources = requestsAndLimits(vc && vc.numCpus > 0 ? cpuQuantity(vc.numCpus) : undefined, vc && vc.memoryMib > 0 ? `${vc.memoryMib}Mi` : undefined);
  const container = {
    name,
    image,
    ...(opts.ports.length ? { ports: [...new Set(opts.ports.map((p) => p.targetPort))].map((p) => ({ containerPort: p, protocol: "TCP" })) } : {}),
    ...(configMap ? { envFrom: [{ configMapRef: { name: configMap } }] } : {}),
    ...(resources ? { resources } : {}),
  };
  const out: KubeObject[] = [];
  const externalCps = flavour.cps.filter((cp) => cp.vduId === vdu.id && (cp.externalRequirement !== undefined || cp.virtualLinkId === undefined));
  if (externalCps.length) {
    if (!opts.ports.length) {
      bag.error(
        "CNF_SERVICE_NO_PORTS",
        `VDU \`${vdu.id}\` has external CP(s) ${externalCps.map((c) => `\`${c.id}\``).join(", ")}, so it gets a Service, but no ports: set additionalParams.${CONTAINER_VDUS_PARAM}.${vdu.id}.ports`,
        where,
      );
    } else {
      out.push({
        apiVersion: "v1",
        kind: "Service",
        metadata: { name, labels: { vdu_name: name }, annotations: { "nfv.pulumi.io/cps": externalCps.map((c) => c.id).join(",") } },
        spec: {
          selector: { ...podLabels },
          ports: opts.ports.map((p) => ({ name: String(p.port), port: p.port, targetPort: p.targetPort, protocol: "TCP" })),
          ...(opts.serviceType ? { type: opts.serviceType } : {}),
        },
      });
    }
  }
  const hpa = vdu.scaling.length > 0 && !opts.pod;
  if (opts.pod) {
    if (vdu.maxInstances !== 1) {
      bag.error(
        "CNF_BARE_POD_NOT_ALLOWED",
        `VDU \`${vdu.id}\`: a bare Pod is one instance, but vdu_profile max_number_of_instances is ${vdu.maxInstances}`,
        where,
      );
      return out;
    }
    out.push({ apiVersion: "v1", kind: "Pod", metadata: { name, labels: { ...podLabels } }, spec: { containers: [container] } });
    return out;
  }
  out.push({
    apiVersion: "apps/v1",
    kind: "Deployment",
    metadata: { name, labels: { vdu_name: name } },
    spec: {
      // The HPA/replicas rule: an HPA-owned Deployment has no replicas (components/cnf/README.md).
      ...(hpa ? {} : { replicas }),
      selector: { matchLabels: { ...podLabels } },
      template: { metadata: { labels: { ...podLabels } }, spec: { containers: [container] } },
    },
  });
  if (hpa) {
    out.push({
      apiVersion: "autoscaling/v2",
      kind: "HorizontalPodAutoscaler",
      metadata: { name },
      spec: { scaleTargetRef: { apiVersion: "apps/v1", kind: "Deployment", name }, minReplicas: Math.max(1, vdu.minInstances), maxReplicas: vdu.maxInstances },
    });
  }
  return out;
}
