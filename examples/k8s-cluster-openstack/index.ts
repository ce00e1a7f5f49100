/**
 * pulumi-nfv example: a private Docker registry VNF and a Kubernetes cluster VNF on an OpenStack
 * VIM, the cluster's every image from that registry (an air-gapped site), the cluster registered as
 * a Kubernetes VIM. Both packages are ours (packages/); the VIM and the requests are Tacker's own
 * files. The registry comes first: load the cluster's images into it, then give `clusterRequest`.
 */
import * as path from "node:path";
import * as pulumi from "@pulumi/pulumi";
import { formatDiagnostic, K8sCluster, loadVnfPackage, OpenStackVim, PrivateRegistry, readVimConfigFile, vimFromSpec, type ComponentKind } from "pulumi-nfv";

const config = new pulumi.Config();

/** The package read, validated and planned with Tacker's request; every error names its file and line. */
async function load(dir: string, request: string, kind: ComponentKind) {
  const loaded = await loadVnfPackage(path.join(__dirname, "packages", dir), request);
  const errors = loaded.diagnostics.filter((d) => d.severity === "error");
  if (errors.length > 0 || !loaded.model || !loaded.request) throw new Error(errors.map(formatDiagnostic).join("\n"));
  if (loaded.component !== kind) throw new Error(`packages/${dir} plans a ${loaded.component}, not a ${kind}`);
  return { flavours: loaded.model.flavours, request: loaded.request, packageSource: loaded.pkg.source };
}

export = async () => {
  const vim = vimFromSpec("vim", readVimConfigFile(config.require("vimConfig")).spec);
  if (!(vim instanceof OpenStackVim)) throw new Error("vimConfig must be an OpenStack VIM");
  const ssh = { sshPublicKey: config.require("sshPublicKey"), sshPrivateKey: config.requireSecret("sshPrivateKey") };

  const registry = new PrivateRegistry("registry", {
    vnf: { ...(await load("registry", config.require("registryRequest"), "private-registry")), provider: vim.provider, ...ssh },
    mode: config.get<"container" | "native">("registryMode") ?? "container",
  });

  const clusterRequest = config.get("clusterRequest");
  if (clusterRequest === undefined) return { registry: registry.endpoint };

  // Kubernetes and the packages of the node image, pinned: no default may drift between two ups.
  const cluster = new K8sCluster("cluster", {
    ...(await load("cluster", clusterRequest, "kubernetes-cluster")),
    provider: vim.provider,
    placement: vim,
    versions: {
      kubernetes: config.require("kubernetesVersion"),
      kubernetesPackage: config.require("kubernetesPackageVersion"),
      containerdPackage: config.require("containerdPackageVersion"),
    },
    // The registry's address is known once it is up: the images were pushed there by then.
    sandboxImage: config.require("sandboxImage"),
    imageRepository: config.require("imageRepository"),
    registries: [registry.connectionInfo],
    cniManifest: config.require("cniManifest"),
    kubeProxyConntrackMaxPerCore: config.getNumber("kubeProxyConntrackMaxPerCore"),
    ...ssh,
  });
  return { registry: registry.endpoint, kubernetesVim: cluster.vim.vimRecord, kubeconfig: pulumi.secret(cluster.kubeconfig) };
};
