/**
 * kubeadm configuration files. `kubeadmInitConfig` (not secret) makes the first control plane;
 * `kubeadmJoinConfig` (secret: it carries the bootstrap token and the certificate key) joins a
 * node, so that neither ever appears on a command line.
 *
 * The API server certificate names every address the API is reached at: the VIP, every master,
 * and the floating IP. A VIM on the floating IP therefore keeps verifying TLS (Tacker dropped the
 * CA instead).
 */
import { stringify } from "yaml";
import { APISERVER_PORT } from "./haproxy";

export const CRI_SOCKET = "unix:///run/containerd/containerd.sock";

/**
 * Multi-line values double-quoted as JSON, never block scalars nor folded: yaml 2.9.1 writes `" \n"`
 * as `|+` with a blank-only line, read back as `"\n"`, and folds a double-quoted line of one space
 * into a `\ ` escape read back as a backslash (both found by
 * test/unit/host-files/config-values.test.ts).
 */
const YAML_OPTIONS = { blockQuote: false, doubleQuotedAsJSON: true } as const;

/** `v1beta4` from Kubernetes 1.31 (v1beta3 is deprecated there), `v1beta3` before. */
export function kubeadmApiVersion(kubernetesVersion: string): string {
  const m = /^v?(\d+)\.(\d+)\.\d+$/.exec(kubernetesVersion);
  if (!m) throw new Error(`kubernetes version ${kubernetesVersion} is not x.y.z`);
  const minor = Number(m[2]);
  if (Number(m[1]) !== 1 || minor < 26) throw new Error(`kubernetes version ${kubernetesVersion}: 1.26 or later is supported`);
  return minor >= 31 ? "kubeadm.k8s.io/v1beta4" : "kubeadm.k8s.io/v1beta3";
}

interface NodeRegistration {
  name: string;
  ip: string;
}

function nodeRegistration(api: string, n: NodeRegistration): Record<string, unknown> {
  // The kubelet must register the cluster NIC's address, not whichever interface comes first.
  const kubeletExtraArgs = api.endsWith("v1beta4") ? [{ name: "node-ip", value: n.ip }] : { "node-ip": n.ip };
  return { name: n.name, criSocket: CRI_SOCKET, kubeletExtraArgs };
}

export interface KubeadmInitInput {
  /** e.g. `1.30.14`. */
  kubernetesVersion: string;
  /** Cluster name in kubeconfigs. */
  clusterName: string;
  /** `host:port` every node and client uses: VIP:16443 (HA) or the master's IP:6443. */
  controlPlaneEndpoint: string;
  node: NodeRegistration;
  podCidr: string;
  serviceCidr: string;
  /** Extra API server certificate names: VIP, masters, floating IP. */
  certSans: string[];
  /** Control-plane images from here (the private registry on an air-gapped site). */
  imageRepository?: string;
  dnsDomain?: string;
  /** kube-proxy's `conntrack.maxPerCore`; absent: kube-proxy's default (32768). */
  kubeProxyConntrackMaxPerCore?: number;
}

export function kubeadmInitConfig(i: KubeadmInitInput): string {
  const apiVersion = kubeadmApiVersion(i.kubernetesVersion);
  const init = {
    apiVersion,
    kind: "InitConfiguration",
    localAPIEndpoint: { advertiseAddress: i.node.ip, bindPort: APISERVER_PORT },
    nodeRegistration: nodeRegistration(apiVersion, i.node),
  };
  const cluster: Record<string, unknown> = {
    apiVersion,
    kind: "ClusterConfiguration",
    clusterName: i.clusterName,
    kubernetesVersion: `v${i.kubernetesVersion.replace(/^v/, "")}`,
    controlPlaneEndpoint: i.controlPlaneEndpoint,
    networking: { podSubnet: i.podCidr, serviceSubnet: i.serviceCidr, dnsDomain: i.dnsDomain ?? "cluster.local" },
    apiServer: { certSANs: [...new Set(i.certSans)] },
  };
  if (i.imageRepository) cluster.imageRepository = i.imageRepository;
  const kubelet = { apiVersion: "kubelet.config.k8s.io/v1beta1", kind: "KubeletConfiguration", cgroupDriver: "systemd" };
  const docs: Record<string, unknown>[] = [init, cluster, kubelet];
  if (i.kubeProxyConntrackMaxPerCore !== undefined) {
    docs.push({ apiVersion: "kubeproxy.config.k8s.io/v1alpha1", kind: "KubeProxyConfiguration", conntrack: { maxPerCore: i.kubeProxyConntrackMaxPerCore } });
  }
  return docs.map((d) => stringify(d, YAML_OPTIONS)).join("---\n");
}

export interface KubeadmJoinInput {
  kubernetesVersion: string;
  controlPlaneEndpoint: string;
  node: NodeRegistration;
  /** Bootstrap token `abcdef.0123456789abcdef`. */
  token: string;
  /** `sha256:<hex>` of the cluster CA's public key. */
  caCertHash: string;
  /** Masters only: the key of the certificates uploaded by `kubeadm init phase upload-certs`. */
  certificateKey?: string;
}

export function kubeadmJoinConfig(j: KubeadmJoinInput): string {
  if (!/^[a-z0-9]{6}\.[a-z0-9]{16}$/.test(j.token)) throw new Error("kubeadmJoinConfig: the bootstrap token is malformed");
  if (!/^sha256:[0-9a-f]{64}$/.test(j.caCertHash)) throw new Error("kubeadmJoinConfig: the CA certificate hash is not sha256:<64 hex>");
  if (j.certificateKey !== undefined && !/^[0-9a-f]{64}$/.test(j.certificateKey))
    throw new Error("kubeadmJoinConfig: the certificate key is not 64 hex digits");
  const apiVersion = kubeadmApiVersion(j.kubernetesVersion);
  const join: Record<string, unknown> = {
    apiVersion,
    kind: "JoinConfiguration",
    discovery: { bootstrapToken: { apiServerEndpoint: j.controlPlaneEndpoint, token: j.token, caCertHashes: [j.caCertHash] } },
    nodeRegistration: nodeRegistration(apiVersion, j.node),
  };
  if (j.certificateKey !== undefined) {
    join.controlPlane = { localAPIEndpoint: { advertiseAddress: j.node.ip, bindPort: APISERVER_PORT }, certificateKey: j.certificateKey };
  }
  return stringify(join, YAML_OPTIONS);
}
