/**
 * The component graph: the plan that `stacks/` turns into Pulumi components.
 *
 * `toComponentGraph(model, flavourId, request?)` (in `./to-component-graph`) builds it from one
 * flavour of a `VnfModel` and, optionally, a Tacker `InstantiateVnfRequest`. There is exactly one
 * `component` node; every other node is a resource that component owns, and `contains` edges say
 * so. Node ids are stable strings (`vdu:VDU1`, `port:CP1`, …) so that a Pulumi resource name can be
 * derived from them and stay the same between runs.
 */

/** Which Pulumi component realises the VNF. */
export type ComponentKind =
  /** VMs on OpenStack (Nova servers, Neutron ports/networks, Cinder volumes, server groups). */
  | "vm-vnf"
  /** Kubernetes workloads on a Kubernetes VIM (manifests or legacy container VDUs). */
  | "container-vnf"
  /** VMs running a Kubernetes cluster (Tacker's Kubernetes Mgmt Driver hooks). */
  | "kubernetes-cluster"
  /** One VM running a Docker private registry (Tacker's private-registry Mgmt Driver hooks). */
  | "private-registry";

export interface ComponentGraph {
  flavourId: string;
  /** The instantiation level the instance counts are taken from (absent: no levels declared). */
  instantiationLevelId?: string;
  /** The flavour's scaling aspects, each with the scale level the instantiation level starts it at. */
  aspects: GraphAspect[];
  nodes: GraphNode[];
  edges: GraphEdge[];
}

export interface GraphAspect {
  aspectId: string;
  maxScaleLevel: number;
  /** Scale level at the instantiation level (its `scale_info`, else 0). */
  levelScale: number;
}

export type GraphNode = ComponentNode | VduNode | PortNode | NetworkNode | VolumeNode | ServerGroupNode | HookNode | VipNode | KubeObjectNode | HelmReleaseNode;

interface NodeBase {
  /** Unique in the graph: `<kind>:<model id>`. */
  id: string;
  /** Human label for diagrams. */
  label: string;
}

export interface ComponentNode extends NodeBase {
  kind: "component";
  component: ComponentKind;
  /** Why this component was chosen (the rule that matched), for `nfv translate` output. */
  reason: string;
}

export interface VduNode extends NodeBase {
  kind: "vdu";
  vduId: string;
  vduKind: "compute" | "container";
  /** Instances to create (at `instantiationLevelId`). */
  instances: number;
  minInstances: number;
  maxInstances: number;
  /** Compute VDUs: `virtual_compute` in fixed units. */
  memoryMib?: number;
  numCpus?: number;
  rootDiskGib?: number;
  /** Nova flavor name requested through `requested_additional_capabilities`. */
  flavorName?: string;
  /** Image name from `sw_image_data.name` (Glance) or the first container image. */
  imageName?: string;
  /** Package-relative image file, when the package ships it. */
  imageFile?: string;
  /** CNF: name of the Kubernetes workload (`properties.name`). */
  workloadName?: string;
  /** Compute VDUs scaled by an aspect: instances at each scale level of it (index = level). */
  scaling?: { aspectId: string; instancesByScaleLevel: number[] }[];
  /** Legacy VNFDs: `key_name`, an existing Nova key pair. */
  keyName?: string;
  /** Legacy VNFDs: `user_data`. */
  userData?: string;
}

export interface PortNode extends NodeBase {
  kind: "port";
  cpId: string;
  vduId: string;
  order?: number;
  /** What the request's `cpConfig` gives the port of each instance (index = the VDU instance's index); absent: nothing. */
  perInstance?: PortInstanceConfig[];
}

/** One `cpConfig` entry of an external CP. */
export interface PortInstanceConfig {
  fixedAddresses: string[];
  subnetId?: string;
  macAddress?: string;
  /** An existing port to use instead of creating one. */
  linkPortId?: string;
}

/** A port no VDU is plugged into, whose address moves between VDUs: a Kubernetes cluster's VIP (keepalived on the masters). */
export interface VipNode extends NodeBase {
  kind: "vip";
  /** Its name in the Tacker parameters (`cluster_cp_name`). */
  cpId: string;
}

export interface NetworkNode extends NodeBase {
  kind: "network";
  /** VL id for an internal network, the `extVirtualLinks[].id` for an external one. */
  networkId: string;
  /** True when the network is not created by the component (external or externally managed). */
  external: boolean;
  /** Existing network id (Neutron UUID) given by the instantiate request. */
  resourceId?: string;
  /** Existing network by name: a legacy VL's `network_name`. */
  resourceName?: string;
  cidr?: string;
  ipVersion?: "ipv4" | "ipv6";
  /** A created network's subnet: its gateway and DHCP (default on). */
  gatewayIp?: string;
  dhcpEnabled?: boolean;
}

export interface VolumeNode extends NodeBase {
  kind: "volume";
  storageId: string;
  sizeGib: number;
  imageName?: string;
  /** Set on a volume the component adds beyond the VNFD (components/registry); its arguments size it. */
  addedBy?: ComponentKind;
}

export interface ServerGroupNode extends NodeBase {
  kind: "server-group";
  ruleId: string;
  policy: "affinity" | "anti-affinity";
  scope: string;
  /** Set on a group the component adds beyond the VNFD (components/k8s-cluster); its arguments decide it. */
  addedBy?: ComponentKind;
}

export interface HookNode extends NodeBase {
  kind: "hook";
  operation: string;
  artifact: string;
  file: string;
}

/** A Kubernetes object a containerized VNF creates: a manifest's, or one generated for a VDU. */
export interface KubeObjectNode extends NodeBase {
  kind: "k8s-object";
  apiVersion: string;
  /** The object's `kind` (`Deployment`). */
  objectKind: string;
  name: string;
  /** Absent for a cluster-scoped kind, and for an object that lands in the VIM's namespace. */
  namespace?: string;
  namespaced: boolean;
  /** The component's child-name suffix: `<kind>-<name>` lower-cased (`deployment-vdu2`). */
  key: string;
  /** The replicas planned for a VDU's workload (none for a DaemonSet, a bare Pod or an HPA's workload). */
  replicas?: number;
}

/** A Helm chart of the package, installed as one release (its objects are rendered at deploy time). */
export interface HelmReleaseNode extends NodeBase {
  kind: "helm-release";
  releaseName: string;
  /** Package path of the chart (`.tgz` or directory). */
  chartFile: string;
  /** The component's child-name suffix (`helm-<release>`). */
  key: string;
}

export type EdgeKind =
  /** The component owns the target resource. */
  | "contains"
  /** Port → VDU it is plugged into. */
  | "binds"
  /** Port or VIP → network it is attached to. */
  | "attaches"
  /** VDU → volume. */
  | "mounts"
  /** VDU → server group. */
  | "member-of"
  /** Kubernetes object → the VDU whose pods it runs (or that it was generated for). */
  | "realises";

export interface GraphEdge {
  from: string;
  to: string;
  kind: EdgeKind;
}
