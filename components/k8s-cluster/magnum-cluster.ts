/**
 * `nfv:k8s:MagnumCluster`: the other way to Kubernetes on OpenStack. Magnum builds the cluster
 * (its own Heat stack, its own image and drivers); we describe it as a ClusterTemplate and a
 * Cluster, and give it the same output contract as `K8sCluster`: kubeconfig (secret), endpoint,
 * CA, a `KubernetesVim` named `vimName` and its provider.
 *
 * Scale is `nodeCount` (Magnum resizes the cluster in place). Heal of one node is Magnum's own
 * business (its health monitor and auto-healer labels); a whole heal is a replace of the Cluster.
 */
import * as k8s from "@pulumi/kubernetes";
import * as openstack from "@pulumi/openstack";
import * as pulumi from "@pulumi/pulumi";
import { DiagnosticError, type Diagnostic } from "../../translators/diagnostics";
import { parseNoProxy, parseProxyUrl } from "../host-files";
import { KubernetesVim } from "../vim";

export interface MagnumClusterArgs {
  /**
   * `OpenStackVim.provider`: the template and the cluster are made in its project. Without it,
   * the `openstack` provider of `opts.providers` (or `opts.provider`, or a parent's), else
   * Pulumi's default provider; an explicit `provider` wins over them.
   */
  provider?: openstack.Provider;
  /** Glance image of the COE (e.g. Fedora CoreOS), name or id. */
  image: pulumi.Input<string>;
  /** Number of masters; default 1. An even number gives etcd no better quorum than one less (warned). */
  masterCount?: number;
  /** Number of workers; default 1. Changing it resizes the cluster in place (scale). */
  nodeCount?: number;
  /** Nova flavor of the masters. */
  masterFlavor?: pulumi.Input<string>;
  /** Nova flavor of the workers. */
  flavor?: pulumi.Input<string>;
  /** Nova key pair for the nodes. */
  keypair?: pulumi.Input<string>;
  /** Network of the floating IPs and the load balancer. */
  externalNetworkId?: pulumi.Input<string>;
  /** Existing network and subnet for the nodes; default: Magnum makes a private one. */
  fixedNetwork?: pulumi.Input<string>;
  fixedSubnet?: pulumi.Input<string>;
  dnsNameserver?: pulumi.Input<string>;
  /** Docker/containerd volume per node, GiB. */
  dockerVolumeSize?: number;
  /** `flannel` (Magnum's default) or `calico`. */
  networkDriver?: "flannel" | "calico";
  /** Floating IPs on the nodes; default false (the API is reached through the load balancer). */
  floatingIpEnabled?: boolean;
  /** A load balancer in front of the masters; default: on with more than one master. */
  masterLbEnabled?: boolean;
  /** Magnum labels, e.g. `{kube_tag: "v1.27.8", auto_healing_enabled: "true"}`; values are strings. */
  labels?: Record<string, string>;
  /** Secret in the state (a proxy URL may hold a password), whether or not the input is. */
  httpProxy?: pulumi.Input<string>;
  httpsProxy?: pulumi.Input<string>;
  noProxy?: pulumi.Input<string>;
  /** Minutes Magnum may take to create the cluster; default 60. */
  createTimeout?: number;
  /** Name of the Kubernetes VIM; default `kubernetes_vim_<name>`. */
  vimName?: string;
  /** Namespace of the VIM (Tacker `project_name`); default `default`. */
  projectName?: pulumi.Input<string>;
}

/**
 * The `kubeconfig` map of the Cluster resource: `host`, `cluster_ca_certificate`,
 * `client_certificate`, `client_key`, `raw_config` (Terraform's keys: a map's keys are not renamed).
 */
type MagnumKubeconfig = Record<string, string | undefined>;

export class MagnumCluster extends pulumi.ComponentResource {
  readonly template: openstack.containerinfra.ClusterTemplate;
  readonly cluster: openstack.containerinfra.Cluster;
  /** The API server URL Magnum reports. */
  readonly endpoint: pulumi.Output<string>;
  /** The cluster CA (PEM). */
  readonly caCertificate: pulumi.Output<string>;
  /** Secret: client certificate auth, as Magnum issues it. */
  readonly kubeconfig: pulumi.Output<string>;
  readonly vim: KubernetesVim;
  /** The Kubernetes VIM's name (`vimName`, default `kubernetes_vim_<name>`). */
  readonly vimName: string;
  readonly provider: k8s.Provider;

  constructor(name: string, args: MagnumClusterArgs, opts?: pulumi.ComponentResourceOptions) {
    // Checked before anything, even this component, is registered.
    const warnings = checkArgs(args);
    super("nfv:k8s:MagnumCluster", name, {}, opts);
    for (const w of warnings) pulumi.log.warn(w, this);
    const masterCount = args.masterCount ?? 1;
    const child: pulumi.CustomResourceOptions = { parent: this, provider: args.provider };

    this.template = new openstack.containerinfra.ClusterTemplate(
      `${name}-template`,
      {
        name: `${name}-template`,
        coe: "kubernetes",
        image: args.image,
        // TLS stays on: the VIM verifies the API server with the cluster's CA.
        tlsDisabled: false,
        masterLbEnabled: args.masterLbEnabled ?? masterCount > 1,
        floatingIpEnabled: args.floatingIpEnabled ?? false,
        networkDriver: args.networkDriver ?? "flannel",
        ...optional({
          masterFlavor: args.masterFlavor,
          flavor: args.flavor,
          externalNetworkId: args.externalNetworkId,
          fixedNetwork: args.fixedNetwork,
          fixedSubnet: args.fixedSubnet,
          dnsNameserver: args.dnsNameserver,
          dockerVolumeSize: args.dockerVolumeSize,
          labels: args.labels,
          httpProxy: secret(args.httpProxy),
          httpsProxy: secret(args.httpsProxy),
          noProxy: secret(args.noProxy),
        }),
      },
      { ...child, additionalSecretOutputs: ["httpProxy", "httpsProxy", "noProxy"] },
    );

    this.cluster = new openstack.containerinfra.Cluster(
      name,
      {
        name,
        clusterTemplateId: this.template.id,
        masterCount,
        nodeCount: args.nodeCount ?? 1,
        createTimeout: args.createTimeout ?? 60,
        ...optional({ keypair: args.keypair }),
      },
      { ...child, additionalSecretOutputs: ["kubeconfig"] },
    );

    const kc: pulumi.Output<MagnumKubeconfig> = pulumi.secret(this.cluster.kubeconfig);
    this.endpoint = pulumi.unsecret(kc.apply((k) => k.host ?? ""));
    this.caCertificate = pulumi.unsecret(kc.apply((k) => k.cluster_ca_certificate ?? ""));
    const vimName = args.vimName ?? `kubernetes_vim_${name}`;
    this.vimName = vimName;
    this.vim = new KubernetesVim(
      vimName,
      {
        authUrl: this.endpoint,
        sslCaCert: this.caCertificate,
        clientCertificate: kc.apply((k) => k.client_certificate ?? ""),
        clientKey: kc.apply((k) => k.client_key ?? ""),
        projectName: args.projectName ?? "default",
        vimName,
      },
      { parent: this },
    );
    this.kubeconfig = this.vim.kubeconfig;
    this.provider = this.vim.provider;
    this.registerOutputs({ endpoint: this.endpoint, caCertificate: this.caCertificate, kubeconfig: this.kubeconfig });
  }
}

const secret = (v: pulumi.Input<string> | undefined) => (v === undefined ? undefined : pulumi.secret(v));

/** The entries whose value is set. */
function optional<T extends Record<string, unknown>>(o: T): Partial<T> {
  return Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined)) as Partial<T>;
}

function checkArgs(args: MagnumClusterArgs): string[] {
  const problems: Diagnostic[] = [];
  const bad = (path: string, message: string) => problems.push({ severity: "error", code: "MAGNUM_ARGS", path, message });
  const count = (v: number | undefined, path: string, min: number) => {
    if (v !== undefined && (!Number.isInteger(v) || v < min)) bad(path, `${path} must be a whole number ≥ ${min}, got ${v}`);
  };
  count(args.masterCount, "masterCount", 1);
  count(args.nodeCount, "nodeCount", 0);
  count(args.dockerVolumeSize, "dockerVolumeSize", 1);
  count(args.createTimeout, "createTimeout", 1);
  if (typeof args.image === "string" && args.image.trim() === "") bad("image", "image must name the COE image");
  if (args.networkDriver !== undefined && !["flannel", "calico"].includes(args.networkDriver))
    bad("networkDriver", `networkDriver must be flannel or calico, got ${String(args.networkDriver)}`);
  for (const [k, v] of Object.entries(args.labels ?? {}))
    if (typeof v !== "string") bad(`labels.${k}`, `labels.${k} must be a string (Magnum labels are strings)`);
  for (const [k, parse] of [
    ["httpProxy", parseProxyUrl],
    ["httpsProxy", parseProxyUrl],
    ["noProxy", parseNoProxy],
  ] as const) {
    const v = args[k];
    const r = typeof v === "string" ? parse(v) : undefined;
    if (r && "reason" in r) bad(k, `${k} ${r.reason}`);
  }
  if (args.masterCount !== undefined && args.masterCount > 1 && args.masterLbEnabled === false) {
    bad("masterLbEnabled", "more than one master needs masterLbEnabled (the API endpoint is the load balancer)");
  }
  if (problems.length > 0) throw new DiagnosticError("invalid nfv:k8s:MagnumCluster arguments", problems);
  const masters = args.masterCount ?? 1;
  return masters > 1 && masters % 2 === 0 ? [`masterCount ${masters} is even: etcd tolerates no more failures than with ${masters - 1}`] : [];
}
