export { haproxyConfig, FRONTEND_PORT, APISERVER_PORT, type Backend } from "./haproxy";
export { keepalivedConfig, virtualRouterIdFor, NIC_PLACEHOLDER, type KeepalivedInput } from "./keepalived";
export { hostsToml, containerdConfig, registryCredentials, CERTS_DIR, type HostsToml, type ContainerdSettings } from "./containerd";
export { kubeadmInitConfig, kubeadmJoinConfig, kubeadmApiVersion, CRI_SOCKET, type KubeadmInitInput, type KubeadmJoinInput } from "./kubeadm";
export { noProxy, type NoProxyInput } from "./no-proxy";
export { nodeName, nodeNames } from "./node-names";
export { hostsBlock } from "./hosts";
