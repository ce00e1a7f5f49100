/**
 * `planVmVnf`: a pure function from one flavour of a VNF model plus a Tacker InstantiateVnfRequest
 * (and the scale level per aspect) to the exact list of VNFCs, ports, networks, volumes and server
 * groups `VmVnf` registers: the flavour's component graph (the plan `nfv translate` shows), one VNFC
 * per instance. Every problem is collected; `planVmVnf` throws one `DiagnosticError` listing them
 * all, so that nothing is registered while any remains.
 */
import type { Input } from "@pulumi/pulumi";
import { DiagnosticBag, DiagnosticError } from "../../translators/diagnostics";
import { ownServerGroupId } from "../../translators/graph/component-resources";
import { planVmGraph } from "../../translators/graph/to-component-graph";
import type { ComponentGraph, GraphAspect, GraphEdge, GraphNode, NetworkNode, VduNode } from "../../translators/graph/types";
import type { InstantiateVnfRequest } from "../../translators/tacker/instantiate-request";
import type { Flavour } from "../../translators/tosca/model";

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

/**
 * The plan, or a `DiagnosticError` listing every problem: the component graph of the request's
 * flavour (translators/graph, what `nfv translate` shows), expanded to one VNFC per instance at
 * the scale levels, with the component's own additions of `options`.
 */
export function planVmVnf(flavours: Flavour[] | Flavour, request: InstantiateVnfRequest, options: PlanOptions = {}): VmVnfPlan {
  const { graph, diagnostics } = planVmGraph(Array.isArray(flavours) ? flavours : [flavours], request);
  if (!graph) throw new DiagnosticError("invalid VM VNF request", diagnostics);
  const bag = new DiagnosticBag();
  bag.add(...diagnostics);
  const plan = expandVmGraph(graph, options, bag);
  bag.throwIfErrors(`invalid VM VNF request for flavour \`${graph.flavourId}\``);
  return plan;
}

/** The graph's VDUs, networks, ports, volumes and server groups as the VNFCs `VmVnf` registers. */
function expandVmGraph(graph: ComponentGraph, options: PlanOptions, bag: DiagnosticBag): VmVnfPlan {
  const nodes = <K extends GraphNode["kind"]>(kind: K) => graph.nodes.filter((n): n is Extract<GraphNode, { kind: K }> => n.kind === kind);
  const targets = (from: string, kind: GraphEdge["kind"]) => graph.edges.filter((e) => e.from === from && e.kind === kind).map((e) => e.to);
  const flavourId = graph.flavourId;
  const vduNodes = nodes("vdu");
  const portNodes = nodes("port");

  const scaleLevels = resolveScaleLevels(flavourId, graph.aspects, options.scaleLevels ?? {}, bag);
  const vdus = vduNodes.filter((v) => v.vduKind === "compute").map((v) => planVdu(v, graph.aspects, scaleLevels, bag));

  const networkNodes = nodes("network");
  const networks = planNetworks(networkNodes, bag);
  const networkOf = new Map(networkNodes.map((n) => [n.id, n.networkId]));
  for (const cpId of Object.keys(options.allowedAddressPairs ?? {})) {
    if (!portNodes.some((p) => p.cpId === cpId)) err(bag, "VNF_UNKNOWN_CP", `allowedAddressPairs: \`${cpId}\` is not a CP of flavour \`${flavourId}\``);
  }

  // The VNFD's volumes; the component's own (the registry's) come through `extraStorages`.
  const vnfdVolumes = nodes("volume").filter((v) => v.addedBy === undefined);
  const vduIdOf = new Map(vduNodes.map((v) => [v.id, v.vduId]));
  const serverGroups: PlannedServerGroup[] = [];
  const groupOfVdu = new Map<string, string>();
  // The VNFD's affinity rules; the component's own groups come through `serverGroupPolicies`.
  for (const group of nodes("server-group").filter((g) => g.addedBy === undefined)) {
    serverGroups.push({ ruleId: group.ruleId, policy: group.policy });
    for (const e of graph.edges.filter((x) => x.kind === "member-of" && x.to === group.id)) {
      const v = vduIdOf.get(e.from)!;
      if (groupOfVdu.has(v))
        err(bag, "VNF_AFFINITY_TWICE", `VDU \`${v}\` is in two affinity rules (\`${groupOfVdu.get(v)}\`, \`${group.ruleId}\`): a Nova server joins one group`);
      groupOfVdu.set(v, group.ruleId);
    }
  }
  for (const [vduId, policy] of Object.entries(options.serverGroupPolicies ?? {})) {
    const ruleId = ownServerGroupId(vduId);
    if (!vduNodes.some((d) => d.vduId === vduId))
      err(bag, "VNF_UNKNOWN_VDU", `server group policy for \`${vduId}\`, which is not a VDU of flavour \`${flavourId}\``);
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
    const vduNode = vduNodes.find((v) => v.vduId === pv.vduId)!;
    const cps = portNodes.filter((p) => p.vduId === pv.vduId).sort((a, b) => (a.order ?? 0) - (b.order ?? 0));
    // What every instance of the VDU shares, found once: each CP's network, the volumes.
    const cpNetworks = cps.map((cp) => networkOf.get(targets(cp.id, "attaches")[0] ?? "") ?? "");
    const mounted = new Set(targets(vduNode.id, "mounts"));
    const volumes: PlannedVolume[] = [
      ...vnfdVolumes
        .filter((v) => mounted.has(v.id))
        .map((v): PlannedVolume =>
          v.imageName ? { storageId: v.storageId, sizeGib: v.sizeGib, imageName: v.imageName } : { storageId: v.storageId, sizeGib: v.sizeGib },
        ),
      ...(options.extraStorages ?? []).filter((e) => e.vduIds.includes(pv.vduId)).map((e): PlannedVolume => ({ storageId: e.id, sizeGib: e.sizeGib })),
    ];
    // A VDU without an image boots from its volume that has one (vmProblems: it has one).
    if (!vduNode.imageName) {
      const boot = volumes.find((x) => x.imageName);
      if (boot) boot.boot = true;
    }
    for (let index = 0; index < pv.instances; index++) {
      const ports: PlannedPort[] = cps.map((cp, i) => {
        const port: PlannedPort = {
          cpId: cp.cpId,
          networkId: cpNetworks[i],
          fixedAddresses: [],
          allowedAddressPairs: options.allowedAddressPairs?.[cp.cpId] ?? [],
          order: cp.order ?? i,
        };
        const config = cp.perInstance?.[index];
        if (config) {
          port.fixedAddresses.push(...config.fixedAddresses);
          if (config.subnetId) port.subnetId = config.subnetId;
          if (config.macAddress) port.macAddress = config.macAddress;
          if (config.linkPortId) port.linkPortId = config.linkPortId;
        }
        return port;
      });
      const vnfc: PlannedVnfc = {
        id: `${pv.vduId}-${index}`,
        vduId: pv.vduId,
        index,
        scaledOut: index >= pv.initialInstances,
        ports,
        volumes: volumes.map((v) => ({ ...v })),
      };
      const group = groupOfVdu.get(pv.vduId);
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
      if (!vduNodes.some((d) => d.vduId === v)) err(bag, "VNF_UNKNOWN_VDU", `extra storage \`${e.id}\`: \`${v}\` is not a VDU of flavour \`${flavourId}\``);
    }

  const plan: VmVnfPlan = { flavourId, scaleLevels, vdus, networks, serverGroups, vnfcs, lcmOperations: nodes("hook").map((h) => h.operation) };
  if (graph.instantiationLevelId !== undefined) plan.instantiationLevelId = graph.instantiationLevelId;
  return plan;
}

function resolveScaleLevels(flavourId: string, aspects: GraphAspect[], given: Record<string, number>, bag: DiagnosticBag): Record<string, number> {
  const levels: Record<string, number> = {};
  for (const aspect of aspects) levels[aspect.aspectId] = aspect.levelScale;
  for (const [aspectId, value] of Object.entries(given)) {
    const aspect = aspects.find((a) => a.aspectId === aspectId);
    if (!aspect) {
      err(
        bag,
        "VNF_UNKNOWN_ASPECT",
        `scale level for \`${aspectId}\`, which is not a scaling aspect of flavour \`${flavourId}\` (aspects: ${aspects.map((a) => a.aspectId).join(", ") || "none"})`,
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
function planVdu(vdu: VduNode, aspects: GraphAspect[], scaleLevels: Record<string, number>, bag: DiagnosticBag): PlannedVdu {
  const atLevel = vdu.instances;
  let instances = atLevel;
  for (const s of vdu.scaling ?? []) {
    const lvl = scaleLevels[s.aspectId] ?? 0;
    const n = s.instancesByScaleLevel[lvl];
    const from = s.instancesByScaleLevel[aspects.find((a) => a.aspectId === s.aspectId)?.levelScale ?? 0];
    if (n === undefined) err(bag, "VNF_SCALE_LEVEL", `VDU \`${vdu.vduId}\`: aspect \`${s.aspectId}\` has no instance count for scale level ${lvl}`);
    else if (from !== undefined) instances += n - from;
  }
  // At the level's own count, the graph's INSTANCES_OUT_OF_RANGE (instantiateViolation) says it.
  if (instances !== atLevel && (instances < vdu.minInstances || instances > vdu.maxInstances)) {
    err(bag, "VNF_INSTANCES_OUT_OF_PROFILE", `VDU \`${vdu.vduId}\`: ${instances} instances is outside vdu_profile ${vdu.minInstances}..${vdu.maxInstances}`);
  }
  const pv: PlannedVdu = {
    vduId: vdu.vduId,
    instances,
    initialInstances: Math.min(atLevel, instances),
    memoryMib: vdu.memoryMib ?? 0,
    numCpus: vdu.numCpus ?? 0,
    rootDiskGib: vdu.rootDiskGib ?? 0,
  };
  if (vdu.flavorName) pv.flavorName = vdu.flavorName;
  if (vdu.imageName) pv.imageName = vdu.imageName;
  if (vdu.imageFile) pv.imageFile = vdu.imageFile;
  if (vdu.keyName) pv.keyName = vdu.keyName;
  if (vdu.userData !== undefined) pv.userData = vdu.userData;
  return pv;
}

/** Created networks (a subnet each) and existing ones: handed over, named, or the request's external links. */
function planNetworks(networks: NetworkNode[], bag: DiagnosticBag): PlannedNetwork[] {
  const out: PlannedNetwork[] = [];
  for (const n of networks) {
    if (out.some((x) => x.id === n.networkId)) err(bag, "VNF_DUPLICATE_LINK", `extVirtualLinks id \`${n.networkId}\` is also a VL id or used twice`);
    const ipVersion = n.ipVersion === "ipv6" ? 6 : 4;
    if (n.resourceId !== undefined) out.push({ id: n.networkId, external: true, resourceId: n.resourceId, ipVersion, dhcpEnabled: true });
    else if (n.resourceName !== undefined) out.push({ id: n.networkId, external: true, resourceName: n.resourceName, ipVersion, dhcpEnabled: true });
    else {
      const p: PlannedNetwork = { id: n.networkId, external: false, ipVersion, dhcpEnabled: n.dhcpEnabled ?? true };
      if (n.cidr) p.cidr = n.cidr;
      if (n.gatewayIp) p.gatewayIp = n.gatewayIp;
      out.push(p);
    }
  }
  return out;
}
