/**
 * What the files on real Kubernetes clusters share (issues 20 and 26): the lab OpenStack, a stack
 * holding the PrivateRegistry VNF with lab/nodes' images pushed to it (as an operator of an
 * air-gapped site does), and K8sCluster VNFs of kubernetes_vnf_package on lab nodes (VM hosts that
 * are Kubernetes-capable: lab/nodes) whose every image comes from that registry. Both packages are
 * given as `.zip` files, as Tacker onboards a CSAR: their scripts and files reach the hosts through
 * the package source.
 */
import { execFileSync } from "node:child_process";
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import * as path from "node:path";
import type { Stack } from "@pulumi/pulumi/automation";
import { kubernetesPackage } from "../../fixtures/kubernetes-package";
import { writeZipPackage } from "../../fixtures/zip";
import { openLocalStack, ROOT, type LocalStack } from "../harness";
import { labResources, labUp, openstackCli, type LabFacts } from "./openstack";

export const NODES = path.join(ROOT, "lab/nodes");
/** The lab image whose VM hosts are Kubernetes nodes (image property nfv_lab_node=kubernetes). */
export const NODE_IMAGE = "Image for kubernetes node";
/** master_node.pod_cidr of the request files. */
export const POD_CIDR = "192.168.0.0/16";
const KUBECTL = path.join(process.env.NFV_CACHE ?? path.join(process.env.HOME ?? "/root", ".cache/pulumi-nfv"), "k8s/kubectl-v1.34.4/bin/kubectl");

export interface Server {
  ID: string;
  Name: string;
  Status: string;
  Networks: Record<string, string[]>;
}

/** The Tacker parameters of a request's cluster (`additionalParams.k8s_cluster_installation_param`). */
export type InstallParam = Record<string, unknown>;

export interface ClusterLab {
  labEnv: LabFacts;
  /** The file's scratch directory: the SSH key pair, the packages, generated requests and manifests. */
  work: string;
  local: LocalStack;
  stack: Stack;
  /** HOST:PORT of the registry VNF. */
  registry: string;
  /** `lab/nodes/push-images`' lines for lab/nodes' images: "<upstream name:tag> <pushed name:tag>". */
  pushed: string;
  /** A stack config value of `pulumi-nfv` (path syntax). */
  set(key: string, value: string): Promise<void>;
  /** The VNF's hosts reached as user ubuntu with the file's key pair. */
  setSsh(vnf: string): Promise<void>;
  /** The `openstack` CLI as the lab's admin, JSON out. */
  os<T>(...args: string[]): T;
  /** The lab's servers named `<prefix>-...`, every project. */
  servers(prefix: string): Server[];
  /** The pushed image whose name starts with `<registry>/<name>:`. */
  pushedImage(name: string): string;
  /**
   * A flavour's request (test/fixtures/k8s-cluster) on the lab network, its VIM named `vimName`,
   * without the seed's registry (the registry VNF is given instead), proxy and Helm script (the
   * fixture's is not Helm: issue 25); `edit` may change its installation parameters.
   */
  clusterRequest(fixture: string, vimName: string, edit?: (install: InstallParam) => void): string;
  /**
   * A K8sCluster VNF of the package in the stack (`work/package` zipped as it is at this call): the
   * node image's pinned versions, every image from the registry VNF.
   */
  addCluster(vnf: string, request: string): Promise<void>;
  /** This VIM's kubeconfig (the stack's `kubeconfigs` output), written to a file of `work`; its path. */
  kubeconfigOf(vimName: string): Promise<string>;
  /** Removes the scratch directory and the stack's backend (after the file destroyed the stack). */
  dispose(): void;
}

/** kubectl (lab/k8s/build.sh's) with this kubeconfig. */
export function kubectlWith(kubeconfig: string, ...args: string[]): string {
  return execFileSync(KUBECTL, ["--kubeconfig", kubeconfig, "--request-timeout=20s", ...args], { encoding: "utf8", maxBuffer: 64 << 20 });
}

/** The lab node of a server (lab/openstack/vmhost-agent names it vmh-<first 8 of the id>). */
export const nodeOf = (s: Server) => `vmh-${s.ID.slice(0, 8)}`;

/** Runs a command in a VM host, as root, as SSH + sudo would (lab/nodes/node exec). */
export function inHost(labEnv: LabFacts, s: Server, ...cmd: string[]): string {
  return execFileSync(path.join(NODES, "node"), ["exec", nodeOf(s), ...cmd], {
    env: { ...process.env, NFV_LAB_STATE: labEnv.state_dir },
    encoding: "utf8",
    maxBuffer: 64 << 20,
  });
}

/** The memory of each node (its cgroup: every process of the "VM") and in all, logged. */
export function logNodeMemory(labEnv: LabFacts, ours: Server[]): void {
  let rss = 0;
  let cache = 0;
  for (const s of ours) {
    const cgroup = readFileSync(path.join(labEnv.state_dir, "nodes", nodeOf(s), "cgroups"), "utf8")
      .split("\n")
      .find((l) => l.includes("/memory/"))!;
    const stat = Object.fromEntries(
      readFileSync(path.join(cgroup, "memory.stat"), "utf8")
        .trim()
        .split("\n")
        .map((l) => l.split(" ")),
    );
    rss += Number(stat.total_rss);
    cache += Number(stat.total_cache);
    console.log(`memory ${s.Name}: rss ${Math.round(Number(stat.total_rss) / 1048576)} MiB, page cache ${Math.round(Number(stat.total_cache) / 1048576)} MiB`);
  }
  console.log(`memory of the ${ours.length} nodes: rss ${Math.round(rss / 1048576)} MiB, page cache ${Math.round(cache / 1048576)} MiB`);
}

/** The node image's package versions (/etc/nfv-node-image), which the cluster pins. */
export function imageVersions(): Record<string, string> {
  const image = execFileSync(path.join(NODES, "image"), { encoding: "utf8", stdio: ["ignore", "pipe", "inherit"] }).trim();
  return Object.fromEntries(
    readFileSync(path.join(image, "etc/nfv-node-image"), "utf8")
      .split("\n")
      .filter((l) => l.includes("="))
      .map((l) => [l.slice(0, l.indexOf("=")), l.slice(l.indexOf("=") + 1)]),
  );
}

/**
 * Brings the lab up, builds lab/nodes' images (cached), opens the stack `stackName` with the lab's
 * VIM as `lab` and the registry VNF `registryVnf` in it, runs `up` and pushes the images there.
 * `timed` times each of those steps.
 */
export async function openClusterLab(opts: {
  stackName: string;
  registryVnf: string;
  /** The package's flavours whose VDUs are pointed at NODE_IMAGE. */
  flavours: string[];
  timed: <T>(label: string, f: () => Promise<T> | T) => Promise<T>;
}): Promise<ClusterLab> {
  const work = mkdtempSync(path.join(tmpdir(), `nfv-it-${opts.stackName}-`));
  const labEnv = labUp();
  execFileSync("ssh-keygen", ["-q", "-t", "ed25519", "-N", "", "-C", opts.stackName, "-f", path.join(work, "id_ed25519")]);
  // The package as the operator's site has it: its VDUs on the site's Kubernetes node image.
  cpSync(kubernetesPackage(), path.join(work, "package"), { recursive: true });
  for (const flavour of opts.flavours) {
    const df = path.join(work, `package/Definitions/sample_kubernetes_df_${flavour}.yaml`);
    writeFileSync(df, readFileSync(df, "utf8").replace(/name: Image for (master|worker)Node (HA )?kubernetes/g, `name: ${NODE_IMAGE}`));
  }
  const registryPackage = writeZipPackage(
    path.join(work, "private_registry_vnf_package.zip"),
    path.join(ROOT, "../shared/vnf-packages/private_registry_vnf_package"),
  );
  // The images, built from source once (cached), before anything is deployed.
  await opts.timed("images built or found", () => execFileSync(path.join(NODES, "k8s-images"), { stdio: ["ignore", "ignore", "inherit"] }));

  const local = await openLocalStack({ stackName: opts.stackName });
  const stack = local.stack;
  const set = (k: string, v: string) => stack.setConfig(`pulumi-nfv:${k}`, { value: v }, true);
  const setSsh = async (v: string) => {
    await set(`${v}.ssh.user`, "ubuntu");
    await set(`${v}.ssh.private_key_file`, path.join(work, "id_ed25519"));
    await set(`${v}.ssh.public_key_file`, path.join(work, "id_ed25519.pub"));
  };
  const os = <T>(...args: string[]) => openstackCli<T>(labEnv, args, "oslab-admin");
  const servers = (prefix: string) => os<Server[]>("server", "list", "--all-projects", "--long").filter((s) => s.Name.startsWith(`${prefix}-`));
  const labNet = () => labResources(labEnv)["network.lab-net"];

  await set("vims.lab.file", labEnv.vim_config);
  const r = `vnfs.${opts.registryVnf}`;
  await set(`${r}.vim`, "lab");
  await set(`${r}.package`, registryPackage);
  await set(`${r}.instantiate_request`, registryRequest(work, labNet()));
  await set(`${r}.mode`, "native");
  await setSsh(r);
  await opts.timed("registry up", () => stack.up({ color: "never" }));
  const [reg] = servers(opts.registryVnf);
  const registry = `${Object.values(reg.Networks)[0][0]}:5000`;
  const pushed = await opts.timed("images pushed", () =>
    execFileSync(path.join(NODES, "push-images"), [registry, "--insecure"], { encoding: "utf8", stdio: ["ignore", "pipe", "inherit"] }),
  );
  const pushedImage = (name: string) => pushedImageOf(pushed, registry, name);

  return {
    labEnv,
    work,
    local,
    stack,
    registry,
    pushed,
    set,
    setSsh,
    os,
    servers,
    pushedImage,
    clusterRequest(fixture, vimName, edit) {
      const text = readFileSync(path.join(ROOT, "test/fixtures/k8s-cluster", fixture), "utf8").replace(/\s#[^\n]*/g, "");
      const req = JSON.parse(text) as {
        flavourId: string;
        extVirtualLinks: { resourceId: string }[];
        additionalParams: { k8s_cluster_installation_param: InstallParam };
      };
      for (const l of req.extVirtualLinks) l.resourceId = labNet();
      const install = req.additionalParams.k8s_cluster_installation_param;
      delete install.helm_installation_script_path;
      delete install.proxy;
      delete install.private_registry_connection_info;
      edit?.(install);
      install.vim_name = vimName;
      const out = path.join(work, `${req.flavourId}.json`);
      writeFileSync(out, JSON.stringify(req, null, 2));
      return out;
    },
    async addCluster(vnf, request) {
      const v = `vnfs.${vnf}`;
      const versions = imageVersions();
      await set(`${v}.vim`, "lab");
      // Zipped now, not when the lab opened: a file may add to the package first (the complex request's CA).
      await set(`${v}.package`, writeZipPackage(path.join(work, "kubernetes_vnf_package.zip"), path.join(work, "package")));
      await set(`${v}.instantiate_request`, request);
      await setSsh(v);
      const cluster: Record<string, string> = {
        kubernetes_version: versions.k8s_version.replace(/^v/, ""),
        kubernetes_package_version: versions.kubeadm,
        containerd_package_version: versions.containerd,
        etcd_client_package_version: versions["etcd-client"],
        sandbox_image: pushedImage("pause"),
        image_repository: registry,
        cni_manifest: writePodnetManifest(work, pushed, registry),
        // The conntrack table size is host-wide: a lab node (a container) cannot set it (kind's setting).
        kube_proxy_conntrack_max_per_core: "0",
      };
      for (const [k, val] of Object.entries(cluster)) await set(`${v}.cluster.${k}`, val);
      await set(`${v}.cluster.private_registries[0]`, opts.registryVnf);
    },
    async kubeconfigOf(vimName) {
      const outs = await stack.outputs();
      const file = path.join(work, `${vimName}.kubeconfig`);
      writeFileSync(file, (outs.kubeconfigs.value as Record<string, string>)[vimName], { mode: 0o600 });
      return file;
    },
    dispose() {
      local.dispose();
      rmSync(work, { recursive: true, force: true });
    },
  };
}

/** `lab/nodes/push-images`' pushed reference of the image whose name starts with `<registry>/<name>:`; "" if none. */
export function pushedImageOf(pushed: string, registry: string, name: string): string {
  return (
    pushed
      .split("\n")
      .map((l) => l.split(" ")[1])
      .find((ref) => ref?.startsWith(`${registry}/${name}:`)) ?? ""
  );
}

/**
 * The pod network's DaemonSet (lab/nodes/podnet) with its image from the registry and POD_CIDR,
 * written to `work/podnet.yaml`; its path.
 */
export function writePodnetManifest(work: string, pushed: string, registry: string): string {
  const podnet = pushedImageOf(pushed, registry, "podnet");
  if (!podnet) throw new Error(`no podnet image among those pushed:\n${pushed}`);
  const out = path.join(work, "podnet.yaml");
  const text = readFileSync(path.join(NODES, "podnet/podnet.yaml"), "utf8");
  writeFileSync(out, text.replaceAll("@PODNET_IMAGE@", podnet).replaceAll("@POD_SUBNET@", POD_CIDR));
  return out;
}

/** The registry VNF's request (the seed's) on the lab network, without its proxy. */
function registryRequest(work: string, network: string): string {
  const seed = readFileSync(path.join(ROOT, "test/fixtures/vnf/private_registry_param_file.json"), "utf8").replace(/\s#[^\n]*/g, "");
  const r = JSON.parse(seed) as {
    extVirtualLinks: { resourceId: string }[];
    additionalParams: { private_registry_installation_param: Record<string, unknown> };
  };
  for (const l of r.extVirtualLinks) l.resourceId = network;
  delete r.additionalParams.private_registry_installation_param.proxy;
  const out = path.join(work, "registry.json");
  writeFileSync(out, JSON.stringify(r, null, 2));
  return out;
}
