import * as command from "@pulumi/command";
import type * as k8s from "@pulumi/kubernetes";
import * as openstack from "@pulumi/openstack";
import * as pulumi from "@pulumi/pulumi";
import { DiagnosticError, type Diagnostic } from "../../translators/diagnostics";
import type { InstantiateVnfRequest } from "../../translators/tacker/instantiate-request";
import type { Flavour } from "../../translators/tosca/model";
import type { PackageSource } from "../../translators/tosca/phase1-read/package-source";
import { KubernetesVim } from "../vim/kubernetes-vim";
import type { RegistryConnectionInfo } from "../registry/private-registry";
import type { ServerPlacementSource } from "../vim/server-placement";
import { VmVnf } from "../vnf/vm-vnf";
import { APISERVER_PORT, FRONTEND_PORT } from "./config/haproxy";
import { NodeCommands, type NodeAddresses } from "./node-commands";
import { planK8sCluster, type ClusterServerGroups, type K8sClusterPlan } from "./plan";
import { isDebianPackageName, isDebianVersion } from "../host-files";
import { clusterRegistries } from "./registries";
import { parseKeyValues } from "./stdin";

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

/**
 * A Kubernetes cluster on OpenStack VMs (Tacker's Kubernetes Mgmt Driver, as a component): the
 * package's masters and workers as a VmVnf, a VIP port in every master port's allowed address
 * pairs (HA), kubeadm driven over SSH by remote Commands, and the cluster registered as a
 * `KubernetesVim` named `vim_name`.
 */
export class K8sCluster extends pulumi.ComponentResource {
  readonly plan: K8sClusterPlan;
  readonly vnf: VmVnf;
  /** The VIP port (HA). */
  readonly vipPort?: openstack.networking.Port;
  /** Every remote Command and copy, by resource name, in the order they were declared. */
  readonly commands: Map<string, command.remote.Command | command.remote.CopyToRemote>;
  /** `https://<VIP or floating IP>:16443` (HA) or `https://<master>:6443`. */
  readonly endpoint: pulumi.Output<string>;
  /** The cluster CA (PEM). */
  readonly caCertificate: pulumi.Output<string>;
  /** Bearer token of the `nfv-admin` ServiceAccount (cluster-admin); secret. */
  readonly adminToken: pulumi.Output<string>;
  /** Secret. */
  readonly kubeconfig: pulumi.Output<string>;
  readonly vim: KubernetesVim;
  /** The VIM's name: `vim_name`, default `kubernetes_vim_<name>`. */
  readonly vimName: string;
  /** The VIM's provider: deploy onto the new cluster with it. */
  readonly provider: k8s.Provider;

  constructor(name: string, args: K8sClusterArgs, opts?: pulumi.ComponentResourceOptions) {
    // Everything is checked before anything, even this component, is registered.
    const plan = planK8sCluster({
      clusterName: name,
      flavours: args.flavours,
      request: args.request,
      installationParam: args.installationParam,
      scaleLevels: args.scaleLevels,
      healGenerations: args.healGenerations,
      packageSource: args.packageSource,
      packageDir: args.packageDir,
      hasSshKey: args.sshPrivateKey !== undefined,
      serverGroups: args.serverGroups,
    });
    checkArgs(args, plan);
    super("nfv:k8s:Cluster", name, {}, opts);
    this.plan = plan;
    for (const w of plan.warnings) pulumi.log.warn(w, this);
    const inst = plan.installation;
    const vnfName = `${name}-vnf`;

    if (inst.master.vip) {
      this.vipPort = new openstack.networking.Port(
        `${name}-${inst.master.clusterCpName}`,
        {
          name: `${name}-${inst.master.clusterCpName}`,
          networkId: plan.vipNetworkResourceId!,
          adminStateUp: true,
          tags: [`nfv-k8s-cluster=${name}`, `nfv-cp-id=${inst.master.clusterCpName}`],
        },
        { parent: this, provider: args.provider },
      );
    }
    const vip = this.vipPort?.allFixedIps.apply((ips) => ips[0]);

    // Node addresses come from VmVnf's ports, which exist only once it is built, but the heal
    // steps must be declared before it (its servers wait for them): deferred until then.
    const addresses: NodeAddresses = {};
    const resolvers: (() => void)[] = [];
    for (const n of plan.nodes) {
      const [ssh, resolveSsh] = pulumi.deferredOutput<string>();
      const [nic, resolveNic] = pulumi.deferredOutput<string>();
      const [serverId, resolveServer] = pulumi.deferredOutput<string>();
      addresses[n.vnfcId] = { ssh, nic, serverId };
      const cps = n.role === "master" ? inst.master : inst.worker;
      resolvers.push(() => {
        resolveSsh(this.portIp(n.vnfcId, cps.sshCpName));
        resolveNic(this.portIp(n.vnfcId, cps.nicCpName));
        resolveServer(this.vnf.servers[n.vnfcId].id);
      });
    }
    const cmds = new NodeCommands(this, name, plan, args, addresses, vip, clusterRegistries(plan.installation.registries, args.registries));
    const healSteps = cmds.healSteps();

    this.vnf = new VmVnf(
      vnfName,
      {
        flavours: args.flavours,
        request: args.request,
        provider: args.provider,
        scaleLevels: args.scaleLevels,
        images: args.images,
        packageSource: args.packageSource,
        packageDir: args.packageDir,
        flavorNames: args.flavorNames,
        keyPair: args.keyPair,
        sshPublicKey: args.sshPublicKey,
        securityGroupIds: args.securityGroupIds,
        userData: args.userData,
        serverGroupPolicies: plan.serverGroupPolicies,
        // Every master answers for the VIP (keepalived moves it): Neutron must let its address through.
        ...(vip ? { allowedAddressPairs: { [inst.master.nicCpName]: [vip] } } : {}),
        // A healed node's server is replaced only once the node is out of the cluster.
        serverDependsOn: Object.fromEntries([...healSteps].map(([vnfcId, step]) => [vnfcId, [step]])),
      },
      { parent: this },
    );
    for (const r of resolvers) r();
    const init = cmds.lifecycle(this.vnf.servers);
    this.commands = cmds.all;

    const out = pulumi.secret(init.stdout.apply(parseKeyValues));
    this.caCertificate = pulumi.unsecret(out.apply((o) => Buffer.from(o.ca_crt_b64 ?? "", "base64").toString("utf8")));
    this.adminToken = pulumi.secret(out.apply((o) => o.admin_token ?? ""));
    const host = args.floatingIp ?? (inst.master.vip ? vip! : addresses[plan.initNode].nic);
    this.endpoint = pulumi.interpolate`https://${host}:${inst.master.vip ? FRONTEND_PORT : APISERVER_PORT}`;
    this.vimName = inst.vimName ?? `kubernetes_vim_${name}`;
    this.vim = new KubernetesVim(
      this.vimName,
      {
        authUrl: this.endpoint,
        bearerToken: this.adminToken,
        sslCaCert: this.caCertificate,
        vimName: this.vimName,
      },
      { parent: this },
    );
    this.kubeconfig = this.vim.kubeconfig;
    this.provider = this.vim.provider;
    this.registerOutputs({
      endpoint: this.endpoint,
      caCertificate: this.caCertificate,
      adminToken: this.adminToken,
      kubeconfig: this.kubeconfig,
      vnfcs: this.vnf.vnfcs,
    });
  }

  private portIp(vnfcId: string, cpId: string): pulumi.Output<string> {
    const port = this.vnf.ports[`${vnfcId}/${cpId}`];
    const planned = this.plan.vm.vnfcs.find((v) => v.id === vnfcId)?.ports.find((p) => p.cpId === cpId);
    if (planned?.fixedAddresses[0]) return pulumi.output(planned.fixedAddresses[0]);
    return port.allFixedIps.apply((ips) => ips[0]);
  }
}

function checkArgs(args: K8sClusterArgs, plan: K8sClusterPlan): void {
  const problems: Diagnostic[] = [];
  const bad = (path: string, message: string) => problems.push({ severity: "error", code: "K8S_ARGS", path, message });
  const v = args.versions ?? ({} as K8sVersions);
  for (const k of ["kubernetes", "kubernetesPackage", "containerdPackage"] as const)
    if (!v[k]) bad(`versions.${k}`, `versions.${k} is required: every installed version is pinned`);
  if (v.kubernetes && !/^v?1\.\d+\.\d+$/.test(v.kubernetes)) bad("versions.kubernetes", `versions.kubernetes ${v.kubernetes} is not 1.x.y`);
  // Each becomes one `apt-get install name=version` argument: Debian's grammar, so never an apt option.
  if (v.containerdPackageName !== undefined && !isDebianPackageName(v.containerdPackageName))
    bad("versions.containerdPackageName", "versions.containerdPackageName is not a Debian package name");
  for (const k of ["kubernetesPackage", "containerdPackage", "etcdClientPackage", "haproxyPackage", "keepalivedPackage"] as const) {
    if (v[k] && !isDebianVersion(v[k])) bad(`versions.${k}`, `versions.${k} is not a Debian package version`);
  }
  if (args.kubeProxyConntrackMaxPerCore !== undefined && !(Number.isSafeInteger(args.kubeProxyConntrackMaxPerCore) && args.kubeProxyConntrackMaxPerCore >= 0))
    bad("kubeProxyConntrackMaxPerCore", "kubeProxyConntrackMaxPerCore must be a whole number, 0 or more");
  if (!args.sandboxImage || !args.sandboxImage.includes(":") || args.sandboxImage.endsWith(":latest"))
    bad("sandboxImage", "sandboxImage must be a pinned image (name:tag, not latest)");
  if (plan.labelWorkers && !args.placement)
    bad(
      "placement",
      `the workers are in an anti-affinity server group, so each is labelled with its compute host (CIS-node): pass the OpenStackVim as placement`,
    );
  if (problems.length > 0) throw new DiagnosticError("invalid nfv:k8s:Cluster arguments", problems);
}
