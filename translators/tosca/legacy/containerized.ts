/**
 * Tacker's legacy containerized VNFD (`tosca_simple_profile_for_nfv_1_0_0`,
 * `tosca.nodes.nfv.VDU.Tacker` with `vnfcs`, `tosca.policies.tacker.Scaling`) → a `VnfModel` with
 * one flavour, `default`, of container VDUs. Tacker validated these with its own type files, which
 * are not in the package; the rules below are those of its Kubernetes translator (removed in 2024):
 * only the listed VDU properties are allowed, and one scaling policy per VDU becomes an HPA.
 */
import type { Container, ContainerVdu, Cp, Flavour, VirtualLink, VnfModel } from "../model";
import type { ToscaFile } from "../phase2-load/load-documents";
import { parseScalar } from "../phase3-types/scalar-units";
import { isMap } from "../phase3-types/type-system";
import type { Problems } from "../problems";
import { readLegacySubstitution } from "./substitution";

export const LEGACY_FLAVOUR_ID = "default";
/** Node types of Tacker's legacy VNFDs, containerized and VM alike. */
export const LEGACY_TYPES = { VDU: "tosca.nodes.nfv.VDU.Tacker", CP: "tosca.nodes.nfv.CP.Tacker", VL: "tosca.nodes.nfv.VL" } as const;
const { VDU, CP, VL } = LEGACY_TYPES;
const SCALING = "tosca.policies.tacker.Scaling";
const VDU_PROPERTIES = new Set(["namespace", "mapping_ports", "labels", "vnfcs", "service_type", "mgmt_driver", "config_drive"]);
const VNFC_KEYS = new Set(["image", "command", "args", "num_cpus", "mem_size", "ports", "config"]);
const SCALING_PROPERTIES = new Set(["min_instances", "max_instances", "target_cpu_utilization_percentage", "default_instances", "increment"]);
const TT = "topology_template";

export function translateLegacy(f: ToscaFile, problems: Problems): VnfModel | undefined {
  const file = f.file;
  const topo = legacyTopology(f, problems);
  if (!topo) return undefined;
  const vdus: ContainerVdu[] = [];
  const cps: Cp[] = [];
  const vls: VirtualLink[] = [];
  for (const { name, path, node, props } of legacyNodes(topo)) {
    if (node.type === VDU) vdus.push(readVdu(name, props, file, path, problems));
    else if (node.type === CP) {
      const req = requirementTargets(node.requirements);
      if (!req.virtualBinding) problems.error("SOL001_CP_UNBOUND", `CP \`${name}\` has no virtualBinding requirement`, file, path);
      else cps.push({ id: name, vduId: req.virtualBinding, layerProtocols: ["ipv4"], ...(req.virtualLink ? { virtualLinkId: req.virtualLink } : {}) });
    } else if (node.type === VL) {
      vls.push({ id: name, layerProtocols: ["ipv4"], bitrateByLevel: {} });
    } else {
      problems.error(
        "TEMPLATE_UNKNOWN_TYPE",
        `node template \`${name}\` has type \`${String(node.type)}\`; a legacy containerized VNFD uses ${VDU}, ${CP} and ${VL}`,
        file,
        [...path, "type"],
      );
    }
  }
  const vduIds = new Set(vdus.map((v) => v.id));
  cps.forEach((cp) => {
    if (!vduIds.has(cp.vduId))
      problems.error("TEMPLATE_DANGLING_REQUIREMENT", `virtualBinding of \`${cp.id}\` names \`${cp.vduId}\`, which is not a VDU`, file, [
        TT,
        "node_templates",
        cp.id,
        "requirements",
      ]);
  });
  readScalingPolicies(topo.policies, vdus, file, problems);
  return legacyModel(f, { vdus, cps, vls, affinityRules: [] }, problems);
}

/** The topology_template of a legacy VNFD; undefined (a located error) without one. */
export function legacyTopology(f: ToscaFile, problems: Problems): Record<string, unknown> | undefined {
  const topo = f.doc[TT];
  if (isMap(topo)) return topo;
  problems.error("LEGACY_NO_TOPOLOGY", "a legacy VNFD needs a topology_template", f.file);
  return undefined;
}

/** Every node template of a legacy topology, with its YAML path and properties. */
export function legacyNodes(
  topo: Record<string, unknown>,
): { name: string; path: (string | number)[]; node: Record<string, unknown>; props: Record<string, unknown> }[] {
  const nodes = isMap(topo.node_templates) ? topo.node_templates : {};
  return Object.entries(nodes).map(([name, raw]) => {
    const node = isMap(raw) ? raw : {};
    return { name, path: [TT, "node_templates", name], node, props: isMap(node.properties) ? node.properties : {} };
  });
}

/** A legacy VNFD's model: one flavour, `default`; Tacker's `template_name` names the VNF; its substitution_mappings are its external links. */
export function legacyModel(f: ToscaFile, parts: Pick<Flavour, "vdus" | "cps" | "vls" | "affinityRules">, problems: Problems): VnfModel {
  const substitution = readLegacySubstitution(f, parts.cps, problems);
  const metadata = isMap(f.doc.metadata) ? f.doc.metadata : {};
  const templateName = typeof metadata.template_name === "string" ? metadata.template_name : "";
  const flavour: Flavour = {
    id: LEGACY_FLAVOUR_ID,
    description: typeof f.doc.description === "string" ? f.doc.description : "",
    file: f.file,
    ...parts,
    storages: [],
    aspects: [],
    instantiationLevels: [],
    placementGroups: [],
    lcmHooks: [],
    defaultLcmOperations: [],
    externalLinks: substitution.externalLinks,
  };
  return {
    format: "tacker-legacy",
    vnf: {
      descriptorId: templateName,
      descriptorVersion: "",
      provider: "",
      productName: templateName,
      softwareVersion: "",
      vnfmInfo: ["Tacker"],
      // What a legacy NSD's VNF node names; without substitution_mappings, the VDU type.
      nodeType: substitution.nodeType ?? VDU,
    },
    flavours: [flavour],
    kubernetesManifests: [],
  };
}

function readVdu(name: string, props: Record<string, unknown>, file: string, path: (string | number)[], problems: Problems): ContainerVdu {
  const at = [...path, "properties"];
  for (const key of Object.keys(props)) {
    if (!VDU_PROPERTIES.has(key))
      problems.error(
        "LEGACY_UNKNOWN_PROPERTY",
        `\`${key}\` is not allowed on a containerized VDU (allowed: ${[...VDU_PROPERTIES].join(", ")})`,
        file,
        [...at, key],
        true,
      );
  }
  const containers: Container[] = [];
  if (!isMap(props.vnfcs) || Object.keys(props.vnfcs).length === 0) {
    problems.error("LEGACY_NO_CONTAINERS", "`vnfcs` must map container names to {image, …}", file, isMap(props.vnfcs) ? [...at, "vnfcs"] : at);
  } else {
    for (const [cname, raw] of Object.entries(props.vnfcs)) containers.push(readContainer(cname, raw, file, [...at, "vnfcs", cname], problems));
  }
  const labels: Record<string, string> = {};
  stringList(props.labels, file, [...at, "labels"], problems).forEach((l, i) => {
    const colon = l.indexOf(":");
    if (colon <= 0) problems.error("LEGACY_BAD_LABEL", "a label is `key: value`", file, [...at, "labels", i]);
    else labels[l.slice(0, colon).trim()] = l.slice(colon + 1).trim();
  });
  const servicePorts = stringList(props.mapping_ports, file, [...at, "mapping_ports"], problems).flatMap((m, i) => {
    const [port, target = port] = m.split(":").map((s) => s.trim());
    if (!/^\d+$/.test(port) || !/^\d+$/.test(target)) {
      problems.error("LEGACY_BAD_PORT", "a mapping port is `port` or `port:targetPort`", file, [...at, "mapping_ports", i]);
      return [];
    }
    return [{ port: Number(port), targetPort: Number(target) }];
  });
  const vdu: ContainerVdu = {
    id: name,
    name,
    kind: "container",
    containers,
    labels,
    servicePorts,
    // The Deployment is created without `replicas`: one pod until the HPA acts.
    minInstances: 1,
    maxInstances: 1,
    initialInstances: 1,
    instancesByLevel: {},
    scaling: [],
  };
  if (typeof props.namespace === "string") vdu.namespace = props.namespace;
  if (typeof props.service_type === "string") vdu.serviceType = props.service_type;
  return vdu;
}

function readContainer(name: string, raw: unknown, file: string, path: (string | number)[], problems: Problems): Container {
  const c = isMap(raw) ? raw : {};
  for (const key of Object.keys(c))
    if (!VNFC_KEYS.has(key))
      problems.error("LEGACY_UNKNOWN_PROPERTY", `\`${key}\` is not a container property (allowed: ${[...VNFC_KEYS].join(", ")})`, file, [...path, key], true);
  if (typeof c.image !== "string") problems.error("LEGACY_NO_IMAGE", `container \`${name}\` needs an \`image\``, file, path);
  const container: Container = { name, image: typeof c.image === "string" ? c.image : "", ports: [], config: {} };
  if (c.num_cpus !== undefined) {
    if (typeof c.num_cpus === "number" && c.num_cpus > 0) container.cpu = c.num_cpus;
    else problems.error("VALUE_TYPE", "`num_cpus` must be a positive number", file, [...path, "num_cpus"]);
  }
  if (c.mem_size !== undefined) {
    const bytes = parseScalar("size", c.mem_size);
    if (bytes === undefined)
      problems.error("VALUE_BAD_SCALAR", `\`mem_size\` must be a size such as \`512 MB\`, found ${JSON.stringify(c.mem_size)}`, file, [...path, "mem_size"]);
    else container.memoryBytes = bytes;
  }
  stringList(c.ports, file, [...path, "ports"], problems).forEach((p, i) => {
    if (/^\d+$/.test(p)) container.ports.push(Number(p));
    else problems.error("LEGACY_BAD_PORT", "a container port is a number", file, [...path, "ports", i]);
  });
  for (const key of ["command", "args"] as const) {
    if (c[key] !== undefined) container[key] = stringList(c[key], file, [...path, key], problems);
  }
  if (typeof c.config === "string") {
    for (const line of c.config.split("\n")) {
      const colon = line.indexOf(":");
      if (colon > 0) container.config[line.slice(0, colon).trim()] = line.slice(colon + 1).trim();
    }
  }
  return container;
}

function readScalingPolicies(raw: unknown, vdus: ContainerVdu[], file: string, problems: Problems): void {
  const byId = new Map(vdus.map((v) => [v.id, v]));
  for (const { name, path, policy: p, props } of legacyPolicies(raw)) {
    if (p.type !== SCALING) {
      problems.error("TEMPLATE_UNKNOWN_TYPE", `policy \`${name}\` has type \`${String(p.type)}\`; only ${SCALING} is supported here`, file, [...path, "type"]);
      continue;
    }
    for (const key of Object.keys(props))
      if (!SCALING_PROPERTIES.has(key))
        problems.error("TEMPLATE_UNKNOWN_PROPERTY", `\`${key}\` is not a property of ${SCALING}`, file, [...path, "properties", key], true);
    const min = props.min_instances;
    const max = props.max_instances;
    if (!Number.isInteger(min) || !Number.isInteger(max) || (min as number) < 1 || (min as number) > (max as number)) {
      problems.error("VALUE_CONSTRAINT", "min_instances and max_instances must be integers with 1 ≤ min ≤ max", file, [...path, "properties"]);
      continue;
    }
    const targets = stringList(p.targets, file, [...path, "targets"], problems);
    targets.forEach((t, i) => {
      const vdu = byId.get(t);
      if (!vdu) {
        problems.error("POLICY_TARGET_MISSING", `policy target \`${t}\` is not a VDU`, file, [...path, "targets", i]);
        return;
      }
      if (vdu.autoscaling) {
        problems.error("POLICY_DUPLICATE", `VDU \`${t}\` already has a scaling policy; Tacker allows one`, file, [...path, "targets", i]);
        return;
      }
      const target = props.target_cpu_utilization_percentage;
      vdu.autoscaling = {
        minReplicas: min as number,
        maxReplicas: max as number,
        ...(typeof target === "number" ? { targetCpuUtilizationPercentage: target } : {}),
      };
      vdu.minInstances = min as number;
      vdu.maxInstances = max as number;
    });
  }
}

/** Every policy of a legacy topology's `policies` list (one-key maps), with its YAML path and properties. */
export function legacyPolicies(raw: unknown): { name: string; path: (string | number)[]; policy: Record<string, unknown>; props: Record<string, unknown> }[] {
  if (!Array.isArray(raw)) return [];
  return raw.flatMap((entry, index) =>
    isMap(entry)
      ? Object.entries(entry).map(([name, def]) => {
          const policy = isMap(def) ? def : {};
          return { name, path: [TT, "policies", index, name], policy, props: isMap(policy.properties) ? policy.properties : {} };
        })
      : [],
  );
}

export function requirementTargets(raw: unknown): { virtualBinding?: string; virtualLink?: string } {
  const out: { virtualBinding?: string; virtualLink?: string } = {};
  if (!Array.isArray(raw)) return out;
  for (const entry of raw) {
    if (!isMap(entry)) continue;
    for (const [k, v] of Object.entries(entry)) {
      const target = typeof v === "string" ? v : isMap(v) && typeof v.node === "string" ? v.node : undefined;
      if (k === "virtualBinding" && target) out.virtualBinding = target;
      if (k === "virtualLink" && target) out.virtualLink = target;
    }
  }
  return out;
}

function stringList(v: unknown, file: string, path: (string | number)[], problems: Problems): string[] {
  if (v === undefined || v === null) return [];
  if (!Array.isArray(v)) {
    problems.error("VALUE_TYPE", "expected a list", file, path);
    return [];
  }
  return v.map((x) => (typeof x === "string" || typeof x === "number" ? String(x) : "")).filter((x) => x !== "");
}
