/**
 * The VNF model: what a VNF package means, independent of TOSCA syntax.
 *
 * The translator (`translatePackage`) produces one `VnfModel` per package; components and the
 * component graph (`translators/graph`) read only this model, never TOSCA. Everything here is plain
 * JSON (no classes, no `undefined` inside arrays, no Maps) so that a model can be written to disk,
 * diffed and read back.
 *
 * Units are fixed so that consumers never parse strings: sizes in GiB or MiB as the field name
 * says, bitrates in bits per second.
 */

import type { SourceLocation } from "../diagnostics";

/** Which input format a model was read from. */
export type VnfSourceFormat =
  /** ETSI NFV SOL001 (v2.6.1 types) VNFD inside a SOL004 package. */
  | "sol001"
  /** Tacker's legacy `tosca_simple_profile_for_nfv_1_0_0` containerized VNFD (`tosca.nodes.nfv.VDU.Tacker`). */
  | "tacker-legacy";

export interface VnfModel {
  format: VnfSourceFormat;
  vnf: VnfInfo;
  /** One entry per deployment flavour found in the package, in file order. */
  flavours: Flavour[];
  /**
   * Kubernetes manifest files declared as package artifacts (`Files/kubernetes/...`, paths relative
   * to the package root). A CNF's instantiate request picks among them (`lcm-kubernetes-def-files`).
   */
  kubernetesManifests: string[];
}

/** Properties of the VNF node (`tosca.nodes.nfv.VNF` or a type derived from it). */
export interface VnfInfo {
  descriptorId: string;
  descriptorVersion: string;
  provider: string;
  productName: string;
  softwareVersion: string;
  /** `vnfm_info`: VNFMs this VNF is compatible with (e.g. `Tacker`, `etsivnfm:v2.6.1`). */
  vnfmInfo: string[];
  /** The VNF node type, e.g. `company.provider.VNF`. */
  nodeType: string;
  productInfoName?: string;
  productInfoDescription?: string;
}

/** A deployment flavour: one `topology_template` whose `substitution_mappings` names the flavour. */
export interface Flavour {
  /** `flavour_id`, the key used by `InstantiateVnfRequest.flavourId`. */
  id: string;
  description: string;
  /** Package-relative path of the file that defines this flavour. */
  file: string;
  vdus: Vdu[];
  storages: VirtualStorage[];
  cps: Cp[];
  vls: VirtualLink[];
  aspects: ScalingAspect[];
  instantiationLevels: InstantiationLevel[];
  /** Id of the default instantiation level; absent when the flavour declares no levels. */
  defaultInstantiationLevelId?: string;
  placementGroups: PlacementGroup[];
  affinityRules: AffinityRule[];
  /** LCM hooks: `Vnflcm` operations that have an implementation artifact. */
  lcmHooks: LcmHook[];
  /** `Vnflcm` operations declared without implementation (`instantiate: []`): Tacker's default behaviour. */
  defaultLcmOperations: string[];
  /** External connection requirements from `substitution_mappings.requirements`. */
  externalLinks: ExternalLink[];
}

export type Vdu = ComputeVdu | ContainerVdu;

/** Fields shared by both VDU kinds. */
export interface VduBase {
  /** Node template name, e.g. `VDU1`; unique within a flavour, reused across flavours. */
  id: string;
  /** `properties.name`; for a CNF it is the name of the Kubernetes workload (Tacker's join key). */
  name: string;
  description?: string;
  /** `vdu_profile.min_number_of_instances`. */
  minInstances: number;
  /** `vdu_profile.max_number_of_instances`. */
  maxInstances: number;
  /** Instances at the default instantiation level (or `minInstances` when there are no levels). */
  initialInstances: number;
  /** `VduInitialDelta.initial_delta.number_of_instances`, when a policy targets this VDU. */
  initialDelta?: number;
  /** Instances at each instantiation level, keyed by level id. */
  instancesByLevel: Record<string, number>;
  /** How this VDU scales, one entry per aspect whose `VduScalingAspectDeltas` target it. */
  scaling: VduScaling[];
  /** Instance counts outside `vdu_profile` that the VNFD allows (absent: none); an operation reaching one is refused. */
  profileViolations?: ProfileViolation[];
}

/**
 * An instance count outside `vdu_profile` at an instantiation level, a scale level or initially.
 * SOL001 does not make it invalid and Tacker onboards it (it refuses only the instantiate or scale
 * that would exceed the profile), so validation warns and the operation refuses, located at
 * `where` (the warning's location).
 */
export interface ProfileViolation {
  /** Set for an instantiation level; `aspectId` and `scaleLevel` for a scale level; neither: the initial delta. */
  levelId?: string;
  aspectId?: string;
  scaleLevel?: number;
  instances: number;
  where: SourceLocation;
}

/** A VM: `tosca.nodes.nfv.Vdu.Compute` with a `virtual_compute` capability. */
export interface ComputeVdu extends VduBase {
  kind: "compute";
  virtualCompute: VirtualCompute;
  /** `sw_image_data` plus the `sw_image` artifact, when the VDU boots from an image. */
  swImage?: SwImage;
  /** Ids of `Vdu.VirtualBlockStorage` nodes attached through `virtual_storage` requirements. */
  storageIds: string[];
  bootData?: string;
  /** Legacy VNFDs only: `key_name`, an existing Nova key pair. */
  keyName?: string;
  /** Legacy VNFDs only: `user_data`, passed to the server as it is. */
  userData?: string;
}

/**
 * A containerized workload: either a SOL001 `Vdu.Compute` without `virtual_compute` (a CNF whose
 * workload is a Kubernetes manifest named by `name`) or a legacy `tosca.nodes.nfv.VDU.Tacker`.
 */
export interface ContainerVdu extends VduBase {
  kind: "container";
  /** Containers declared in the VNFD (legacy `vnfcs`); empty when the workload is a manifest. */
  containers: Container[];
  /** Legacy only: `namespace`. */
  namespace?: string;
  /** Legacy only: `labels` as a map. */
  labels: Record<string, string>;
  /** Legacy only: `mapping_ports` as Service ports. */
  servicePorts: ServicePort[];
  /** Legacy only: `service_type` (ClusterIP, NodePort, LoadBalancer). */
  serviceType?: string;
  /** Legacy only: `tosca.policies.tacker.Scaling` becomes a HorizontalPodAutoscaler. */
  autoscaling?: { minReplicas: number; maxReplicas: number; targetCpuUtilizationPercentage?: number };
  /** SOL001 only: `sw_image_data` of a VDU without `virtual_compute` (a container image when its `container_format` is `docker`). */
  swImage?: SwImage;
}

export interface Container {
  name: string;
  image: string;
  command?: string[];
  args?: string[];
  /** CPU limit/request in cores (`num_cpus`). */
  cpu?: number;
  /** Memory limit/request in bytes (`mem_size`). */
  memoryBytes?: number;
  ports: number[];
  /** `config` text turned into key/value pairs (a ConfigMap plus env entries). */
  config: Record<string, string>;
}

export interface ServicePort {
  port: number;
  targetPort: number;
}

export interface VirtualCompute {
  memoryMib: number;
  numCpus: number;
  /** `virtual_local_storage[].size_of_storage` in GiB (root/ephemeral disks). */
  localStorageGib: number[];
  /**
   * `requested_additional_capabilities.*.requested_additional_capability_name`; Tacker uses the
   * first one as the Nova flavor name (e.g. `m1.medium`).
   */
  requestedFlavorNames: string[];
}

export interface SwImage {
  name: string;
  version: string;
  checksum?: { algorithm: string; hash: string };
  containerFormat?: string;
  diskFormat?: string;
  minDiskGib?: number;
  minRamMib?: number;
  sizeGib?: number;
  /** Package-relative path of the `sw_image` artifact file (may be absent from the package). */
  artifactFile?: string;
}

/** One scaling aspect as seen from one VDU. */
export interface VduScaling {
  aspectId: string;
  /** Instances added per step, in step order (`step_deltas` mapped through the VDU's `deltas`). */
  stepDeltas: number[];
  /**
   * Instances at each scale level, index = scale level (0 … maxScaleLevel): initial delta plus the
   * sum of the step deltas so far.
   */
  instancesByScaleLevel: number[];
  /** A step delta the VDU's VduScalingAspectDeltas lacks (counted as 0): scaling this aspect is refused. */
  missingDelta?: MissingDelta;
}

export interface MissingDelta {
  deltaId: string;
  /** Where the VNFD's deltas are (the warning's location). */
  where: SourceLocation;
}

/** `tosca.nodes.nfv.Vdu.VirtualBlockStorage`. */
export interface VirtualStorage {
  id: string;
  sizeGib: number;
  rdmaEnabled?: boolean;
  /** Set when the volume is created from an image. */
  swImage?: SwImage;
}

/** `tosca.nodes.nfv.VduCp`. */
export interface Cp {
  id: string;
  /** The VDU this CP is bound to (`virtual_binding`). */
  vduId: string;
  /** Internal VL id (`virtual_link`), absent for an external CP. */
  virtualLinkId?: string;
  /** Name of the `substitution_mappings` requirement that exposes this CP, when it is external. */
  externalRequirement?: string;
  layerProtocols: string[];
  order?: number;
  vnicType?: string;
  bitrateRequirement?: number;
}

/** `tosca.nodes.nfv.VnfVirtualLink`. */
export interface VirtualLink {
  id: string;
  description?: string;
  layerProtocols: string[];
  /** From the first `vl_profile.virtual_link_protocol_data[].l3_protocol_data`. */
  ipVersion?: "ipv4" | "ipv6";
  cidr?: string;
  gatewayIp?: string;
  dhcpEnabled?: boolean;
  maxBitrate?: Bitrate;
  minBitrate?: Bitrate;
  /** `VirtualLinkInstantiationLevels`, keyed by level id. */
  bitrateByLevel: Record<string, Bitrate>;
  /** Legacy VNFDs only: `network_name`, the existing network this VL stands for (never created). */
  networkName?: string;
}

export interface Bitrate {
  /** Bits per second on the root (trunk). */
  root: number;
  /** Bits per second on each leaf; absent when not given. */
  leaf?: number;
}

/** A `ScalingAspects` entry. */
export interface ScalingAspect {
  id: string;
  name: string;
  description?: string;
  maxScaleLevel: number;
  /** Delta ids in step order; Tacker only uses the first (uniform steps). */
  stepDeltas: string[];
  /** VDUs scaled by this aspect (targets of its `VduScalingAspectDeltas`). */
  vduIds: string[];
}

/** An `InstantiationLevels` level. */
export interface InstantiationLevel {
  id: string;
  description?: string;
  /** Scale level per aspect at this instantiation level. */
  scaleInfo: Record<string, number>;
  isDefault: boolean;
}

/** `tosca.groups.nfv.PlacementGroup`. */
export interface PlacementGroup {
  id: string;
  description?: string;
  members: string[];
}

/** `tosca.policies.nfv.AffinityRule` / `AntiAffinityRule`. */
export interface AffinityRule {
  id: string;
  kind: "affinity" | "anti-affinity";
  /** `nfvi_node`, `zone`, `zone_group` or `nfvi_pop`. */
  scope: string;
  /** Targets as written: VDU, VL or placement group ids. */
  targets: string[];
  /** Targets with placement groups expanded to their VDU members. */
  vduIds: string[];
}

/** A `Vnflcm` operation with its implementation artifact. */
export interface LcmHook {
  /** Operation name, e.g. `instantiate_end`. */
  operation: string;
  /** Artifact name on the VNF node, e.g. `mgmt-drivers-kubernetes`. */
  artifact: string;
  /** Package-relative path of the artifact file, e.g. `Scripts/kubernetes_mgmt.py`. */
  file: string;
  /** Artifact type, e.g. `tosca.artifacts.Implementation.Python`. */
  artifactType: string;
  /** Names of further artifacts the implementation depends on (`dependencies`). */
  dependencies: string[];
}

/** A `substitution_mappings` requirement: `name: [node, requirement]`. */
export interface ExternalLink {
  /** Requirement name, e.g. `virtual_link_external1_1`. */
  name: string;
  /** The CP node template that is exposed. */
  cpId: string;
  /** The CP's requirement name (`virtual_link`). */
  requirement: string;
}
