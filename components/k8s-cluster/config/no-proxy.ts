/**
 * `no_proxy` for every node: what the cluster reaches directly. Tacker expanded `k8s_node_cidr`
 * into 256 single addresses; containerd, kubeadm, kubectl and curl all match CIDRs in no_proxy,
 * so it stays a CIDR here.
 */

export interface NoProxyInput {
  /** The user's `no_proxy` entries; kept first. */
  user?: readonly string[];
  nodeIps: string[];
  nodeNames: string[];
  vip?: string;
  podCidr: string;
  serviceCidr: string;
  k8sNodeCidr?: string;
  /** Registry servers (`host:port`); the host part goes in. */
  registryServers: string[];
  /** Cluster DNS domain; default `cluster.local`. */
  dnsDomain?: string;
}

export function noProxy(i: NoProxyInput): string {
  const domain = i.dnsDomain ?? "cluster.local";
  const entries = [
    ...(i.user ?? []),
    "localhost",
    "127.0.0.1",
    ...(i.k8sNodeCidr ? [i.k8sNodeCidr] : []),
    ...i.nodeIps,
    ...i.nodeNames,
    ...(i.vip ? [i.vip] : []),
    i.podCidr,
    i.serviceCidr,
    ...i.registryServers.map((s) => s.replace(/:\d+$/, "")),
    ".svc",
    `.svc.${domain}`,
    `.${domain}`,
  ];
  return [...new Set(entries.filter((e) => e !== ""))].join(",");
}
