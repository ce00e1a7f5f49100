import * as command from "@pulumi/command";
import type * as k8s from "@pulumi/kubernetes";
import * as openstack from "@pulumi/openstack";
import * as pulumi from "@pulumi/pulumi";
import { DiagnosticError, type Diagnostic } from "../../translators/diagnostics";
import { KubernetesVim } from "../vim/kubernetes-vim";
import { VmVnf } from "../vnf/vm-vnf";
import { APISERVER_PORT, FRONTEND_PORT } from "./config/haproxy";
import { NodeCommands, type NodeAddresses } from "./node-commands";
import { planK8sCluster, type K8sClusterPlan } from "./plan";
import { isDebianPackageName, isDebianVersion } from "../host-files";
import { clusterRegistries } from "./registries";
import { parseKeyValues } from "./stdin";
import type { K8sClusterArgs, K8sVersions } from "./args";

export type { K8sClusterArgs, K8sVersions } from "./args";

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
