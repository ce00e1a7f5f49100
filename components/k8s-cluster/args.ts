/**
 * K8sCluster's args (and the versions they pin): a module of their own, so that the parts of the
 * component (its node commands) read them without importing the component.
 */
import type * as openstack from "@pulumi/openstack";
import type * as pulumi from "@pulumi/pulumi";
import type { InstantiateVnfRequest } from "../../translators/tacker/instantiate-request";
import type { Flavour } from "../../translators/tosca/model";
import type { PackageSource } from "../../translators/tosca/phase1-read/package-source";
import type { RegistryConnectionInfo } from "../registry/private-registry";
import type { ServerPlacementSource } from "../vim/server-placement";
import type { ClusterServerGroups } from "./plan";

/** Versions of everything installed, pinned: no default may drift between two `pulumi up`s. */
export interface K8sVersions {
  /** Kubernetes, e.g. `1.30.14` (kubeadm's `kubernetesVersion`). */
  kubernetes: string;
  /** apt version of kubeadm, kubelet and kubectl, e.g. `1.30.14-1.1`. */
  kubernetesPackage: string;
  /** apt version of the containerd package. */
  containerdPackage: string;
  /** The apt package providing containerd; default `containerd` (Docker's repository calls it `containerd.io`). */
  containerdPackageName?: string;
  /** apt version of `etcd-client` on masters (etcdctl, for a master heal); absent: it is not installed. */
  etcdClientPackage?: string;
  /** apt versions of `haproxy` and `keepalived` (HA); absent: whatever the apt source has. */
  haproxyPackage?: string;
  keepalivedPackage?: string;
}

export interface K8sClusterArgs {
  /** Every flavour of the cluster package's model; `request.flavourId` picks one. */
  flavours: Flavour[];
  /** Tacker's InstantiateVnfRequest, as it is (e.g. the seed's `private_registry_kubernetes_param_file.json`). */
  request: InstantiateVnfRequest;
  /**
   * `OpenStackVim.provider`: VMs, ports and the VIP port are created with it. Without it, the
   * `openstack` provider of `opts.providers` (or `opts.provider`), as in `VmVnfArgs.provider`.
   */
  provider?: openstack.Provider;
  /** Pinned versions of what is installed on the nodes. */
  versions: K8sVersions;
  /** The pause image, pinned (e.g. `192.168.246.10:5000/pause:3.9`). */
  sandboxImage: string;
  /** Control-plane images from this repository (the private registry on an air-gapped site); default kubeadm's. */
  imageRepository?: string;
  /**
   * kube-proxy's `conntrack.maxPerCore` (default 32768: kube-proxy sizes the kernel's conntrack
   * table). 0 leaves the table alone, for nodes that are themselves containers (kind, LXD, the
   * lab's), where only the host may set that host-wide value and kube-proxy would fail to start.
   */
  kubeProxyConntrackMaxPerCore?: number;
  /** Local path of the CNI manifest (from the package or a mirror), applied on the first master. */
  cniManifest?: string;
  /** An apt sources.list for the mirror the packages come from; default the VMs' own sources. */
  aptSource?: string;
  /**
   * The package as read (`openPackage(path).source`, a directory or a zip): the files the
   * parameters name (`certificate_path`, `helm_installation_script_path`) are read through it,
   * regular files inside it only (components/package-file.ts).
   */
  packageSource?: PackageSource;
  /** The package directory, when no `packageSource` is given (a zip must come as `packageSource`). */
  packageDir?: string;
  /** `k8s_cluster_installation_param`; default `request.additionalParams.k8s_cluster_installation_param`. */
  installationParam?: Record<string, unknown>;
  /** Scale level per aspect (stack config); only the worker aspect may change after instantiation. */
  scaleLevels?: Record<string, number>;
  /** Heal generation per VNFC (stack config, raised by `nfv heal --vnfc`). */
  healGenerations?: Record<string, number>;
  /** Whole-cluster heal generation (stack config `heal_generation`, raised by `nfv heal` without VNFCs): the cluster is made again. */
  healGeneration?: number;
  /**
   * A Nova server group per role (`anti-affinity`, `soft-anti-affinity`, `affinity`,
   * `soft-affinity`, or `none`), for a VDU the VNFD's affinity rules leave out. Default: none,
   * except the `podaffinity` flavour, whose masters and workers are `anti-affinity` (Tacker's BaseHOT).
   * Workers in an anti-affinity group are labelled with their compute host and zone (see `placement`).
   */
  serverGroups?: ClusterServerGroups;
  /**
   * Where Nova put each server (the `OpenStackVim`): workers in an anti-affinity group get the
   * labels `CIS-node=<compute host>` (Tacker's) and `topology.kubernetes.io/zone=<zone>`, so pods can
   * spread over physical hosts. Required for such workers.
   */
  placement?: ServerPlacementSource;
  /**
   * More private registries, as component outputs: a `PrivateRegistry`'s `connectionInfo` passed
   * as it is (an HTTPS one brings its certificate as the CA). Configured on every node like those of
   * `private_registry_connection_info`.
   */
  registries?: pulumi.Input<RegistryConnectionInfo>[];
  /** SSH private key (preferred over the parameters' passwords); secret. */
  sshPrivateKey?: pulumi.Input<string>;
  /** Pinned SSH host key (authorized_keys format). */
  sshHostKey?: pulumi.Input<string>;
  /** The floating IP of `cluster_fip_name`: the API endpoint, and a name in the API server's certificate. */
  floatingIp?: pulumi.Input<string>;
  /** Passed to VmVnf. */
  images?: "lookup" | "upload";
  flavorNames?: Record<string, string>;
  keyPair?: pulumi.Input<string>;
  /** OpenSSH public key: VmVnf makes a Nova key pair `<name>-vnf-keypair` for every node (ignored with `keyPair`). */
  sshPublicKey?: pulumi.Input<string>;
  securityGroupIds?: Record<string, pulumi.Input<string>[]>;
  userData?: Record<string, pulumi.Input<string>>;
}
