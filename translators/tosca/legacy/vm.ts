/**
 * Tacker's legacy VM VNFD (`tosca_simple_profile_for_nfv_1_0_0`, `tosca.nodes.nfv.VDU.Tacker`
 * without `vnfcs`) → a `VnfModel` with one flavour, `default`, of compute VDUs, read as Tacker's
 * Heat translator read it: `image` (a Glance image name) or an image artifact, `flavor` (a Nova
 * flavor name) or the `nfv_compute` capability, `key_name`, `user_data`; `CP.Tacker` ports on
 * `VL` networks that already exist (`network_name`); `tosca.policies.tacker.Scaling` instance
 * counts; `tosca.policies.tacker.Placement` as a server group. Whatever Tacker would do and we do
 * not (monitoring, alarms, floating IPs, port security settings…) is a located warning saying so;
 * what Tacker refuses is an error.
 */
import type { AffinityRule, ComputeVdu, Cp, VirtualLink, VnfModel } from "../model";
import type { ToscaFile } from "../phase2-load/load-documents";
import { toGib, toMib } from "../phase3-types/scalar-units";
import { isMap } from "../phase3-types/type-system";
import type { Problems } from "../problems";
import { LEGACY_TYPES, legacyModel, legacyNodes, legacyPolicies, legacyTopology, requirementTargets } from "./containerized";

const TT = "topology_template";
/** VDU properties this translation uses; any other is warned as not honoured. */
const VDU_USED = new Set(["image", "flavor", "key_name", "user_data", "user_data_format", "name", "mgmt_driver"]);
const COMPUTE_USED = new Set(["num_cpus", "mem_size", "disk_size"]);
const CP_USED = new Set(["order", "type", "management"]);
/** Node types Tacker deploys that have no counterpart here (warned, not deployed). */
const NOT_DEPLOYED = new Set(["tosca.nodes.nfv.VNFC.Tacker", "tosca.nodes.network.FloatingIP"]);
const SCALING = "tosca.policies.tacker.Scaling";
const PLACEMENT = "tosca.policies.tacker.Placement";
const PLACEMENT_POLICIES = ["affinity", "anti-affinity", "soft-affinity", "soft-anti-affinity"];
const MONITORING = new Set(["tosca.policies.tacker.Alarming", "tosca.policies.tacker.Monitoring", "tosca.policies.tacker.Failure"]);
/** Keys of an Alarming trigger in Tacker's type definition; Tacker refuses others (`actions`). */
const TRIGGER_KEYS = new Set(["event_type", "metric", "condition", "metadata", "action"]);

/** True when the VNFD is a VM VNFD: a VDU.Tacker without `vnfcs` (containerized VNFDs have them). */
export function isLegacyVm(f: ToscaFile): boolean {
  const nodes = isMap(f.doc[TT]) && isMap(f.doc[TT].node_templates) ? f.doc[TT].node_templates : {};
  return Object.values(nodes).some((n) => isMap(n) && n.type === LEGACY_TYPES.VDU && !(isMap(n.properties) && "vnfcs" in n.properties));
}

export function translateLegacyVm(f: ToscaFile, problems: Problems): VnfModel | undefined {
  const file = f.file;
  const topo = legacyTopology(f, problems);
  if (!topo) return undefined;
  const inputs = isMap(topo.inputs) ? topo.inputs : {};
  // `get_input` as Tacker's param file would fill it: the input's default, else a warning.
  const value = (v: unknown, path: (string | number)[]): unknown => {
    if (!isMap(v) || typeof v.get_input !== "string") return v;
    const def = inputs[v.get_input];
    if (isMap(def) && "default" in def) return def.default;
    problems.warning(
      "LEGACY_PARAM_INPUT",
      `\`get_input: ${v.get_input}\` has no default; Tacker takes it from the VNF's param file, which a deployment here does not read`,
      file,
      path,
    );
    return undefined;
  };
  const vdus: ComputeVdu[] = [];
  const cps: Cp[] = [];
  const vls: VirtualLink[] = [];
  for (const { name, path, node, props } of legacyNodes(topo)) {
    if (node.type === LEGACY_TYPES.VDU) {
      const vdu = readVdu(name, node, props, value, file, path, problems);
      if (vdu) vdus.push(vdu);
    } else if (node.type === LEGACY_TYPES.CP) {
      const cp = readCp(name, node, props, file, path, problems);
      if (cp) cps.push(cp);
    } else if (node.type === LEGACY_TYPES.VL) {
      const network = value(props.network_name, [...path, "properties", "network_name"]);
      if (props.network_name === undefined)
        problems.error("LEGACY_NO_NETWORK", `VL \`${name}\` needs \`network_name\`, the existing network it stands for`, file, [...path, "properties"]);
      vls.push({ id: name, layerProtocols: ["ipv4"], bitrateByLevel: {}, ...(typeof network === "string" && network !== "" ? { networkName: network } : {}) });
    } else if (typeof node.type === "string" && NOT_DEPLOYED.has(node.type)) {
      problems.warning("LEGACY_NOT_HONOURED", `\`${name}\` (${node.type}) is not deployed: pulumi-nfv has no counterpart for it`, file, [...path, "type"]);
    } else {
      problems.error(
        "TEMPLATE_UNKNOWN_TYPE",
        `node template \`${name}\` has type \`${String(node.type)}\`; a legacy VM VNFD uses ${LEGACY_TYPES.VDU}, ${LEGACY_TYPES.CP} and ${LEGACY_TYPES.VL}`,
        file,
        [...path, "type"],
      );
    }
  }
  const vduIds = new Set(vdus.map((v) => v.id));
  const vlIds = new Set(vls.map((v) => v.id));
  for (const cp of cps) {
    const at = [TT, "node_templates", cp.id, "requirements"];
    if (!vduIds.has(cp.vduId))
      problems.error("TEMPLATE_DANGLING_REQUIREMENT", `virtualBinding of \`${cp.id}\` names \`${cp.vduId}\`, which is not a VDU`, file, at);
    if (cp.virtualLinkId !== undefined && !vlIds.has(cp.virtualLinkId))
      problems.error("TEMPLATE_DANGLING_REQUIREMENT", `virtualLink of \`${cp.id}\` names \`${cp.virtualLinkId}\`, which is not a VL`, file, at);
  }
  const affinityRules = readPolicies(topo.policies, vdus, file, problems);
  return legacyModel(f, { vdus, cps, vls, affinityRules }, problems);
}

type Resolve = (v: unknown, path: (string | number)[]) => unknown;

function readVdu(
  name: string,
  node: Record<string, unknown>,
  props: Record<string, unknown>,
  value: Resolve,
  file: string,
  path: (string | number)[],
  problems: Problems,
): ComputeVdu | undefined {
  const at = [...path, "properties"];
  for (const key of Object.keys(props)) {
    if (!VDU_USED.has(key))
      problems.warning("LEGACY_NOT_HONOURED", `\`${key}\` of VDU \`${name}\` is not honoured: pulumi-nfv does not apply it`, file, [...at, key], true);
  }
  const compute =
    isMap(node.capabilities) && isMap(node.capabilities.nfv_compute) && isMap(node.capabilities.nfv_compute.properties)
      ? node.capabilities.nfv_compute.properties
      : undefined;
  const computePath = [...path, "capabilities", "nfv_compute", "properties"];
  for (const key of Object.keys(compute ?? {})) {
    if (!COMPUTE_USED.has(key))
      problems.warning(
        "LEGACY_NOT_HONOURED",
        `\`${key}\` of VDU \`${name}\` is not honoured: pulumi-nfv does not build flavors with it`,
        file,
        [...computePath, key],
        true,
      );
  }
  let image = value(props.image, [...at, "image"]);
  const artifacts = isMap(node.artifacts) ? node.artifacts : {};
  for (const [artifact, def] of Object.entries(artifacts)) {
    const url = isMap(def) ? def.file : def;
    // Tacker uploads the URL's image to Glance; here the image must already be there, by this name.
    problems.warning(
      "LEGACY_NOT_HONOURED",
      `image artifact \`${artifact}\` (${String(url)}) is not downloaded: the VDU boots the Glance image named \`${name}-${artifact}\``,
      file,
      [...path, "artifacts", artifact],
    );
    image ??= `${name}-${artifact}`;
  }
  const flavor = value(props.flavor, [...at, "flavor"]);
  if (typeof image !== "string" && props.image === undefined)
    problems.error("LEGACY_NO_IMAGE", `VDU \`${name}\` needs \`image\` or an image artifact`, file, at);
  if (flavor === undefined && compute === undefined && props.flavor === undefined)
    problems.error("LEGACY_NO_FLAVOR", `VDU \`${name}\` needs \`flavor\` or the nfv_compute capability`, file, at);
  // Decimal units read as binary, as Tacker sizes flavors; bare numbers (test_tosca_flavor_no_units) are MB and GB.
  const size = (key: string, convert: (v: unknown) => number | undefined): number => {
    const raw = compute?.[key];
    if (raw === undefined) return 0;
    const n = typeof raw === "number" ? raw : convert(raw);
    if (n === undefined)
      problems.error("VALUE_BAD_SCALAR", `\`${key}\` must be a size such as \`512 MB\`, found ${JSON.stringify(raw)}`, file, [...computePath, key]);
    return n ?? 0;
  };
  const numCpus = compute?.num_cpus;
  const vdu: ComputeVdu = {
    id: name,
    name: typeof props.name === "string" ? props.name : name,
    kind: "compute",
    minInstances: 1,
    maxInstances: 1,
    initialInstances: 1,
    instancesByLevel: {},
    scaling: [],
    storageIds: [],
    virtualCompute: {
      memoryMib: size("mem_size", toMib),
      numCpus: typeof numCpus === "number" ? numCpus : 0,
      localStorageGib: compute?.disk_size !== undefined ? [size("disk_size", toGib)] : [],
      requestedFlavorNames: typeof flavor === "string" ? [flavor] : [],
    },
  };
  if (typeof image === "string") vdu.swImage = { name: image, version: "" };
  const userData = value(props.user_data, [...at, "user_data"]);
  if (typeof userData === "string") vdu.userData = userData;
  const keyName = value(props.key_name, [...at, "key_name"]);
  if (typeof keyName === "string") vdu.keyName = keyName;
  return vdu;
}

function readCp(
  name: string,
  node: Record<string, unknown>,
  props: Record<string, unknown>,
  file: string,
  path: (string | number)[],
  problems: Problems,
): Cp | undefined {
  const req = requirementTargets(node.requirements);
  if (!req.virtualBinding) {
    // Tacker creates such a port alone (a VIP for allowed_address_pairs of other ports).
    problems.warning(
      "LEGACY_NOT_HONOURED",
      `CP \`${name}\` has no virtualBinding: Tacker creates it as a port of its own, pulumi-nfv does not deploy it`,
      file,
      path,
    );
    return undefined;
  }
  for (const key of Object.keys(props)) {
    if (!CP_USED.has(key) && !(key === "anti_spoofing_protection" && props[key] === false)) {
      problems.warning(
        "LEGACY_NOT_HONOURED",
        `\`${key}\` of CP \`${name}\` is not honoured: the port is created without it`,
        file,
        [...path, "properties", key],
        true,
      );
    }
  }
  const cp: Cp = { id: name, vduId: req.virtualBinding, layerProtocols: ["ipv4"] };
  if (req.virtualLink) cp.virtualLinkId = req.virtualLink;
  if (typeof props.order === "number") cp.order = props.order;
  if (typeof props.type === "string") cp.vnicType = props.type;
  return cp;
}

/** Scaling policies set instance counts; Placement becomes a server group rule; the rest is warned. */
function readPolicies(raw: unknown, vdus: ComputeVdu[], file: string, problems: Problems): AffinityRule[] {
  const rules: AffinityRule[] = [];
  const byId = new Map(vdus.map((v) => [v.id, v]));
  for (const { name, path, policy: p, props } of legacyPolicies(raw)) {
    // Tacker's samples put `targets` beside `properties` or inside them.
    const targets = (Array.isArray(p.targets) ? p.targets : Array.isArray(props.targets) ? props.targets : []).filter(
      (t): t is string => typeof t === "string",
    );
    const known = targets.filter((t) => byId.has(t));
    for (const t of targets) if (!byId.has(t)) problems.error("POLICY_TARGET_MISSING", `policy target \`${t}\` is not a VDU`, file, [...path, "targets"]);
    if (p.type === SCALING) {
      const [min, max, initial] = [props.min_instances, props.max_instances, props.default_instances ?? props.min_instances];
      if (
        !Number.isInteger(min) ||
        !Number.isInteger(max) ||
        !Number.isInteger(initial) ||
        (min as number) > (initial as number) ||
        (initial as number) > (max as number)
      ) {
        problems.error("VALUE_CONSTRAINT", "min_instances ≤ default_instances ≤ max_instances, all integers", file, [...path, "properties"]);
        continue;
      }
      for (const t of known) Object.assign(byId.get(t)!, { minInstances: min, maxInstances: max, initialInstances: initial });
      problems.warning(
        "LEGACY_NOT_HONOURED",
        `scaling policy \`${name}\`: ${known.join(", ")} start with ${String(initial)} instance(s); Tacker's scale actions (and alarms that trigger them) are not available here`,
        file,
        path,
        true,
      );
    } else if (p.type === PLACEMENT) {
      const policy = props.policy;
      if (typeof policy !== "string" || !PLACEMENT_POLICIES.includes(policy)) {
        problems.error("VALUE_CONSTRAINT", `placement \`policy\` must be one of ${PLACEMENT_POLICIES.join(", ")}, found ${JSON.stringify(policy)}`, file, [
          ...path,
          "properties",
          "policy",
        ]);
        continue;
      }
      if (policy.startsWith("soft-") || props.strict === false)
        problems.warning(
          "LEGACY_NOT_HONOURED",
          `placement \`${name}\` (${policy}) is applied as a strict ${policy.replace("soft-", "")} server group`,
          file,
          path,
          true,
        );
      rules.push({ id: name, kind: policy.endsWith("anti-affinity") ? "anti-affinity" : "affinity", scope: "nfvi_node", targets, vduIds: known });
    } else if (typeof p.type === "string" && MONITORING.has(p.type)) {
      for (const [trigger, t] of Object.entries(isMap(p.triggers) ? p.triggers : {})) {
        for (const key of Object.keys(isMap(t) ? t : {})) {
          if (!TRIGGER_KEYS.has(key))
            problems.error(
              "TEMPLATE_UNKNOWN_PROPERTY",
              `\`${key}\` is not a key of an ${p.type} trigger (${[...TRIGGER_KEYS].join(", ")})`,
              file,
              [...path, "triggers", trigger, key],
              true,
            );
        }
      }
      problems.warning(
        "LEGACY_NOT_HONOURED",
        `${p.type} policy \`${name}\` is not honoured: pulumi-nfv does not monitor VNFs (heal with \`nfv heal\`)`,
        file,
        path,
        true,
      );
    } else {
      // tosca.policies.tacker.Reservation needs a Blazar lease, which nothing here provides.
      problems.error(
        "TEMPLATE_UNKNOWN_TYPE",
        `policy \`${name}\` has type \`${String(p.type)}\`, which pulumi-nfv cannot deploy (supported: ${SCALING}, ${PLACEMENT}; warned: ${[...MONITORING].join(", ")})`,
        file,
        [...path, "type"],
      );
    }
  }
  return rules;
}
