/**
 * `planVmVnf`: a pure function from one flavour of a VNF model plus a Tacker InstantiateVnfRequest
 * (and the scale level per aspect) to the exact list of VNFCs, ports, networks, volumes and server
 * groups `VmVnf` registers. Every problem is collected; `planVmVnf` throws one `DiagnosticError`
 * listing them all, so that nothing is registered while any remains.
 */
import type { Input } from "@pulumi/pulumi";
import { DiagnosticBag, DiagnosticError } from "../../translators/diagnostics";
import { ownServerGroupId } from "../../translators/graph/component-resources";
import { unknownFlavour, unknownLevel, unknownLinkTargets } from "../../translators/graph/request-checks";
import { instantiateViolation } from "../../translators/graph/vdus";
import { unlinkedCps, vmProblems } from "../../translators/graph/vm-checks";
import type { InstantiateVnfRequest } from "../../translators/tacker/instantiate-request";
import type { ComputeVdu, Flavour } from "../../translators/tosca/model";

/** Vnflcm operations a hook may be attached to (SOL001 `tosca.interfaces.nfv.Vnflcm`). */
export const LCM_OPERATIONS = [
  "instantiate_start",
  "instantiate_end",
  "scale_start",
  "scale_end",
  "heal_start",
  "heal_end",
  "terminate_start",
  "terminate_end",
  "change_external_connectivity_start",
  "change_external_connectivity_end",
  // Not in SOL001 2.6.1's Vnflcm: Tacker's coordinate-old-vnf / coordinate-new-vnf scripts of a change of package.
  "change_current_package_start",
  "change_current_package_end",
] as const;
export type LcmOperation = (typeof LCM_OPERATIONS)[number];

export interface PlanOptions {
  /** Scale level per aspect; default: the instantiation level's `scale_info`, else 0. */
  scaleLevels?: Record<string, number>;
  /** Extra allowed address pairs (VIPs) per CP id, on every port of that CP. */
  allowedAddressPairs?: Record<string, Input<string>[]>;
  /** Extra volumes per VDU (e.g. the registry's storage), as if the VNFD declared them. */
  extraStorages?: { id: string; sizeGib: number; vduIds: string[] }[];
  /**
   * A server group per VDU that no affinity rule of the VNFD names, with this policy (what Tacker
   * takes from a package's BaseHOT, e.g. its `podaffinity` flavour). A VDU in a rule and here too is an error.
   */
  serverGroupPolicies?: Record<string, ServerGroupPolicy>;
}

/** Nova server group policies (the `soft-` ones prefer, and fall back when no host fits). */
export type ServerGroupPolicy = "affinity" | "anti-affinity" | "soft-affinity" | "soft-anti-affinity";
export const SERVER_GROUP_POLICIES: readonly ServerGroupPolicy[] = ["affinity", "anti-affinity", "soft-affinity", "soft-anti-affinity"];

export interface PlannedNetwork {
  /** VL id (internal) or `extVirtualLinks[].id` (external). */
  id: string;
  /** False: the component creates it (Network + Subnet). True: it exists (`resourceId`, or `resourceName`). */
  external: boolean;
  resourceId?: string;
  /** A legacy VL's `network_name`: the existing network is looked up by name. */
  resourceName?: string;
  cidr?: string;
  ipVersion: 4 | 6;
  gatewayIp?: string;
  dhcpEnabled: boolean;
}

export interface PlannedPort {
  cpId: string;
  /** Key in `networks`. */
  networkId: string;
  /** Fixed addresses from the request's `cpConfig[index]`. */
  fixedAddresses: string[];
  subnetId?: string;
  macAddress?: string;
  /** An existing port from `cpConfig[index].linkPortId`: no port is created. */
  linkPortId?: string;
  allowedAddressPairs: Input<string>[];
  order: number;
}

export interface PlannedVolume {
  storageId: string;
  sizeGib: number;
  imageName?: string;
  /** The server boots from this volume (its VDU has no image of its own; the volume has one). */
  boot?: boolean;
}

export interface PlannedVnfc {
  /** Stable id `<vduId>-<index>`: the key of the VNFC map and of heal requests. */
  id: string;
  vduId: string;
  index: number;
  /** True for instances above the instantiation-time count (created by scale-out). */
  scaledOut: boolean;
  ports: PlannedPort[];
  volumes: PlannedVolume[];
  /** Key in `serverGroups`, when an affinity rule names this VDU. */
  serverGroup?: string;
}

export interface PlannedVdu {
  vduId: string;
  instances: number;
  /** Instances at the instantiation level (before any scaling). */
  initialInstances: number;
  /** Nova flavor name requested by the VNFD, else absent (sized from `virtual_compute`). */
  flavorName?: string;
  memoryMib: number;
  numCpus: number;
  rootDiskGib: number;
  imageName?: string;
  imageFile?: string;
  /** Legacy VNFDs: `key_name`, an existing Nova key pair (the component's own key pair wins). */
  keyName?: string;
  /** Legacy VNFDs: `user_data` (the component's `userData` wins). */
  userData?: string;
}

export interface PlannedServerGroup {
  /** The VNFD rule's id, or `<vduId>_server_group` for a `serverGroupPolicies` entry. */
  ruleId: string;
  policy: ServerGroupPolicy;
}

export interface VmVnfPlan {
  flavourId: string;
  instantiationLevelId?: string;
  scaleLevels: Record<string, number>;
  vdus: PlannedVdu[];
  networks: PlannedNetwork[];
  serverGroups: PlannedServerGroup[];
  /** In VDU order, then index order. */
  vnfcs: PlannedVnfc[];
  /** Operations the VNFD gives an implementation (`lcmHooks`). */
  lcmOperations: string[];
}

const err = (bag: DiagnosticBag, code: string, message: string, path?: string) => bag.error(code, message, path ? { path } : {});

/** The plan, or a `DiagnosticError` listing every problem. */
export function planVmVnf(flavours: Flavour[] | Flavour, request: InstantiateVnfRequest, options: PlanOptions = {}): VmVnfPlan {
  const bag = new DiagnosticBag();
  const all = Array.isArray(flavours) ? flavours : [flavours];
  const flavour = all.find((f) => f.id === request.flavourId);
  if (!flavour) throw new DiagnosticError("invalid VM VNF request", [unknownFlavour(all, request.flavourId, true)]);
  const levelId = request.instantiationLevelId ?? flavour.defaultInstantiationLevelId;
  const level = levelId === undefined ? undefined : flavour.instantiationLevels.find((l) => l.id === levelId);
  if (levelId !== undefined && !level) throw new DiagnosticError("invalid VM VNF request", [unknownLevel(flavour, levelId)]);
  // What the component graph checks too (translators/graph): the same problems, the same codes.
  bag.add(...unknownLinkTargets(flavour, request), ...vmProblems(flavour, request), ...unlinkedCps(flavour, request));
  for (const vdu of flavour.vdus) {
    const beyond = instantiateViolation(vdu, levelId);
    if (beyond) bag.add(beyond);
  }

  const scaleLevels = resolveScaleLevels(flavour, level?.scaleInfo ?? {}, options.scaleLevels ?? {}, bag);
  const vdus: PlannedVdu[] = [];
  for (const vdu of flavour.vdus) if (vdu.kind === "compute") vdus.push(planVdu(vdu, levelId, level?.scaleInfo ?? {}, scaleLevels, bag));

  const networks = planNetworks(flavour, request, bag);
  const extByCp = new Map<string, { linkId: string; configs: NonNullable<InstantiateVnfRequest["extVirtualLinks"]>[number]["extCps"][number]["cpConfig"] }>();
  for (const link of request.extVirtualLinks ?? []) {
    for (const ext of link.extCps) {
      if (flavour.cps.some((c) => c.id === ext.cpdId)) extByCp.set(ext.cpdId, { linkId: link.id, configs: ext.cpConfig });
    }
  }
  for (const cpId of Object.keys(options.allowedAddressPairs ?? {})) {
    if (!flavour.cps.some((c) => c.id === cpId)) err(bag, "VNF_UNKNOWN_CP", `allowedAddressPairs: \`${cpId}\` is not a CP of flavour \`${flavour.id}\``);
  }

  const storages = [
    ...flavour.storages.map((s) => ({ id: s.id, sizeGib: s.sizeGib, imageName: s.swImage?.name })),
    ...(options.extraStorages ?? []).map((s) => ({ id: s.id, sizeGib: s.sizeGib, imageName: undefined })),
  ];
  const serverGroups: PlannedServerGroup[] = [];
  const groupOfVdu = new Map<string, string>();
  for (const rule of flavour.affinityRules) {
    serverGroups.push({ ruleId: rule.id, policy: rule.kind });
    for (const v of rule.vduIds) {
      if (groupOfVdu.has(v))
        err(bag, "VNF_AFFINITY_TWICE", `VDU \`${v}\` is in two affinity rules (\`${groupOfVdu.get(v)}\`, \`${rule.id}\`): a Nova server joins one group`);
      groupOfVdu.set(v, rule.id);
    }
  }
  for (const [vduId, policy] of Object.entries(options.serverGroupPolicies ?? {})) {
    const ruleId = ownServerGroupId(vduId);
    if (!flavour.vdus.some((d) => d.id === vduId))
      err(bag, "VNF_UNKNOWN_VDU", `server group policy for \`${vduId}\`, which is not a VDU of flavour \`${flavour.id}\``);
    else if (!SERVER_GROUP_POLICIES.includes(policy))
      err(bag, "VNF_SERVER_GROUP_POLICY", `server group policy \`${policy}\` for \`${vduId}\` is not one of ${SERVER_GROUP_POLICIES.join(", ")}`);
    else if (groupOfVdu.has(vduId))
      err(
        bag,
        "VNF_AFFINITY_TWICE",
        `VDU \`${vduId}\` is in the VNFD's affinity rule \`${groupOfVdu.get(vduId)}\` and has a server group policy too: a Nova server joins one group`,
      );
    else {
      serverGroups.push({ ruleId, policy });
      groupOfVdu.set(vduId, ruleId);
    }
  }

  const vnfcs: PlannedVnfc[] = [];
  for (const pv of vdus) {
    const vdu = flavour.vdus.find((v) => v.id === pv.vduId) as ComputeVdu;
    const cps = flavour.cps.filter((c) => c.vduId === vdu.id).sort((a, b) => (a.order ?? 0) - (b.order ?? 0));
    for (let index = 0; index < pv.instances; index++) {
      const ports: PlannedPort[] = cps.map((cp, i) => {
        const ext = extByCp.get(cp.id);
        const port: PlannedPort = {
          cpId: cp.id,
          networkId: ext ? ext.linkId : (cp.virtualLinkId ?? ""),
          fixedAddresses: [],
          allowedAddressPairs: options.allowedAddressPairs?.[cp.id] ?? [],
          order: cp.order ?? i,
        };
        const config = ext?.configs[index];
        if (config?.linkPortId) port.linkPortId = config.linkPortId;
        for (const data of config?.cpProtocolData ?? []) {
          if (data.ipOverEthernet?.macAddress) port.macAddress = data.ipOverEthernet.macAddress;
          for (const ip of data.ipOverEthernet?.ipAddresses ?? []) {
            port.fixedAddresses.push(...(ip.fixedAddresses ?? []));
            if (ip.subnetId) port.subnetId = ip.subnetId;
          }
        }
        return port;
      });
      const volumes = storages
        .filter((s) => vdu.storageIds.includes(s.id) || (options.extraStorages ?? []).some((e) => e.id === s.id && e.vduIds.includes(vdu.id)))
        .map((s): PlannedVolume => (s.imageName ? { storageId: s.id, sizeGib: s.sizeGib, imageName: s.imageName } : { storageId: s.id, sizeGib: s.sizeGib }));
      // A VDU without an image boots from its volume that has one (vmProblems: it has one).
      if (!vdu.swImage) {
        const boot = volumes.find((x) => x.imageName);
        if (boot) boot.boot = true;
      }
      const vnfc: PlannedVnfc = { id: `${vdu.id}-${index}`, vduId: vdu.id, index, scaledOut: index >= pv.initialInstances, ports, volumes };
      const group = groupOfVdu.get(vdu.id);
      if (group) vnfc.serverGroup = group;
      vnfcs.push(vnfc);
    }
  }
  // The same fixed address on two ports cannot work; say so before Neutron does.
  const seen = new Map<string, string>();
  for (const v of vnfcs)
    for (const p of v.ports)
      for (const a of p.fixedAddresses) {
        if (seen.has(a)) err(bag, "VNF_DUPLICATE_ADDRESS", `fixed address ${a} is requested for ${seen.get(a)} and ${v.id}/${p.cpId}`);
        seen.set(a, `${v.id}/${p.cpId}`);
      }
  for (const e of options.extraStorages ?? [])
    for (const v of e.vduIds) {
      if (!flavour.vdus.some((d) => d.id === v)) err(bag, "VNF_UNKNOWN_VDU", `extra storage \`${e.id}\`: \`${v}\` is not a VDU of flavour \`${flavour.id}\``);
    }

  bag.throwIfErrors(`invalid VM VNF request for flavour \`${flavour.id}\``);
  const plan: VmVnfPlan = { flavourId: flavour.id, scaleLevels, vdus, networks, serverGroups, vnfcs, lcmOperations: flavour.lcmHooks.map((h) => h.operation) };
  if (levelId !== undefined) plan.instantiationLevelId = levelId;
  return plan;
}

function resolveScaleLevels(flavour: Flavour, fromLevel: Record<string, number>, given: Record<string, number>, bag: DiagnosticBag): Record<string, number> {
  const levels: Record<string, number> = {};
  for (const aspect of flavour.aspects) levels[aspect.id] = fromLevel[aspect.id] ?? 0;
  for (const [aspectId, value] of Object.entries(given)) {
    const aspect = flavour.aspects.find((a) => a.id === aspectId);
    if (!aspect) {
      err(
        bag,
        "VNF_UNKNOWN_ASPECT",
        `scale level for \`${aspectId}\`, which is not a scaling aspect of flavour \`${flavour.id}\` (aspects: ${flavour.aspects.map((a) => a.id).join(", ") || "none"})`,
      );
    } else if (!Number.isInteger(value) || value < 0 || value > aspect.maxScaleLevel) {
      err(bag, "VNF_SCALE_LEVEL", `scale level ${value} of aspect \`${aspectId}\` is outside 0..${aspect.maxScaleLevel} (max_scale_level)`);
    } else {
      levels[aspectId] = value;
    }
  }
  return levels;
}

/**
 * Instances of a VDU: its count at the instantiation level (VduInstantiationLevels, what Tacker
 * instantiates, even where initial delta plus scale_info says otherwise), plus the step deltas of
 * every aspect scaled away from the level's scale_info.
 */
function planVdu(
  vdu: ComputeVdu,
  levelId: string | undefined,
  levelScale: Record<string, number>,
  scaleLevels: Record<string, number>,
  bag: DiagnosticBag,
): PlannedVdu {
  const atLevel = levelId !== undefined ? (vdu.instancesByLevel[levelId] ?? vdu.initialInstances) : vdu.initialInstances;
  let instances = atLevel;
  for (const s of vdu.scaling) {
    const lvl = scaleLevels[s.aspectId] ?? 0;
    const n = s.instancesByScaleLevel[lvl];
    const from = s.instancesByScaleLevel[levelScale[s.aspectId] ?? 0];
    if (n === undefined) err(bag, "VNF_SCALE_LEVEL", `VDU \`${vdu.id}\`: aspect \`${s.aspectId}\` has no instance count for scale level ${lvl}`);
    else if (from !== undefined) instances += n - from;
  }
  // At the level's own count, the graph's INSTANCES_OUT_OF_RANGE (instantiateViolation) says it.
  if (instances !== atLevel && (instances < vdu.minInstances || instances > vdu.maxInstances)) {
    err(bag, "VNF_INSTANCES_OUT_OF_PROFILE", `VDU \`${vdu.id}\`: ${instances} instances is outside vdu_profile ${vdu.minInstances}..${vdu.maxInstances}`);
  }
  const pv: PlannedVdu = {
    vduId: vdu.id,
    instances,
    initialInstances: Math.min(atLevel, instances),
    memoryMib: vdu.virtualCompute.memoryMib,
    numCpus: vdu.virtualCompute.numCpus,
    rootDiskGib: vdu.virtualCompute.localStorageGib[0] ?? 0,
  };
  if (vdu.virtualCompute.requestedFlavorNames[0]) pv.flavorName = vdu.virtualCompute.requestedFlavorNames[0];
  if (vdu.swImage) pv.imageName = vdu.swImage.name;
  if (vdu.swImage?.artifactFile) pv.imageFile = vdu.swImage.artifactFile;
  if (vdu.keyName) pv.keyName = vdu.keyName;
  if (vdu.userData !== undefined) pv.userData = vdu.userData;
  return pv;
}

function planNetworks(flavour: Flavour, request: InstantiateVnfRequest, bag: DiagnosticBag): PlannedNetwork[] {
  const out: PlannedNetwork[] = [];
  const managed = new Map((request.extManagedVirtualLinks ?? []).map((m) => [m.vnfVirtualLinkDescId, m]));
  for (const vl of flavour.vls) {
    const m = managed.get(vl.id);
    const ipVersion = vl.ipVersion === "ipv6" ? 6 : 4;
    if (m) {
      out.push({ id: vl.id, external: true, resourceId: m.resourceId, ipVersion, dhcpEnabled: true });
      continue;
    }
    if (vl.networkName) {
      out.push({ id: vl.id, external: true, resourceName: vl.networkName, ipVersion, dhcpEnabled: true });
      continue;
    }
    const n: PlannedNetwork = { id: vl.id, external: false, ipVersion, dhcpEnabled: vl.dhcpEnabled ?? true };
    if (vl.cidr) n.cidr = vl.cidr;
    if (vl.gatewayIp) n.gatewayIp = vl.gatewayIp;
    out.push(n);
  }
  for (const link of request.extVirtualLinks ?? []) {
    if (out.some((n) => n.id === link.id)) err(bag, "VNF_DUPLICATE_LINK", `extVirtualLinks id \`${link.id}\` is also a VL id or used twice`);
    out.push({ id: link.id, external: true, resourceId: link.resourceId, ipVersion: 4, dhcpEnabled: true });
  }
  return out;
}
