/**
 * A real Kubernetes cluster (issue 20): K8sCluster (nfv:k8s:Cluster) flavours `simple` (1 master
 * behind the VIP, 2 workers), `podaffinity` and `complex` of kubernetes_vnf_package on the lab OpenStack, whose VM hosts
 * are Kubernetes-capable nodes (image property nfv_lab_node=kubernetes: lab/nodes, systemd as PID 1
 * with containerd, runc and kubelet). The mgmt/k8s scripts run as they would on Ubuntu VMs: the
 * pinned packages are found installed (the node image has them, as a golden image would), then real
 * kubeadm init and join, real HAProxy and keepalived on the master, real etcd. Every image comes
 * from the PrivateRegistry VNF of the same stack: the lab builds the control-plane images, the
 * pause image and the pod network from source (lab/nodes/k8s-images) and pushes them to it, as an
 * operator of an air-gapped site does, then the cluster is added to the stack. Then a CNF of
 * test_cnf through the cluster's VIM (real nginx containers from the registry VNF, its NodePort
 * Service answering another VM host, scale, pod heal, removal) beside a Helm CNF (issue 25: the
 * chart rendered by helm.v4.Chart, its image from the registry VNF through helm_parameters, scaled
 * through helm_value_names, a pod healed), `nfv scale` out and in of the
 * worker aspect, with a workload on the new worker rescheduled by the drain, and a worker heal.
 * Then the example network service (issue 24, examples/hybrid-ns) on the same cluster: a client VM
 * VNF on the lab OpenStack and a server CNF on the cluster, joined by the NS virtual link, the
 * client's hook given the server's node port and a worker's address as Pulumi outputs; heals of
 * either side and a scale-out of the server seen by the client; then the NS leaves the stack.
 * Then the simple cluster leaves the stack and the `podaffinity` flavour comes up on the same
 * registry VNF: a server group per role (the masters' soft, the workers' hard anti-affinity,
 * on the lab's two compute hosts), each worker labelled with the compute host Nova put it on
 * (Tacker's CIS-node), which a pod anti-affinity spreads a Deployment over; a worker heal labels the
 * new server again. It leaves the stack in turn and the `complex` flavour comes up: 3 masters behind the VIP (keepalived's VRRP between the masters' hosts, HAProxy on each),
 * real etcd, the site's proxy and HTTPS registry; the VIP moves when its holder's keepalived stops;
 * a master heal (etcd member removed and added again) and a whole-cluster heal.
 *
 * Every package is given as a `.zip`, as Tacker onboards a CSAR: the registry's and the cluster's
 * (lab/cluster-lab.ts) and the NS's three; the test_cnf and Helm CNFs stay directories.
 *
 * No recording stand-in is on any VM host's PATH (checked). What is still not real: each VM is a
 * set of namespaces sharing this machine's kernel (lab/README.md).
 */
import { execFileSync } from "node:child_process";
import { createHash } from "node:crypto";
import { cpSync, existsSync, mkdirSync, readFileSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import * as path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { aptProxyConf, proxyDropIn, type ProxyUrl } from "../../components/host-files";
import { HELM_CNF_FIXTURE, helmCnfPackage } from "../fixtures/helm-cnf-package";
import { writeZipPackage } from "../fixtures/zip";
import { canary, outputIsSecretInState, ROOT, runNfv, until } from "./harness";
import { inHost as inLabHost, kubectlWith, logNodeMemory, nodeOf, openClusterLab, POD_CIDR, type ClusterLab, type Server } from "./lab/cluster-lab";
import { labResources, openstackLabEnabled } from "./lab/openstack";
import { timer } from "./lab/timings";

const enabled = openstackLabEnabled();
const VNF = "k8sr";
const REGISTRY = "k8sreg";

let lab!: ClusterLab;
let podnetImage = "";
let nginxImage = "";
const { timings, timed } = timer();
const os = <T>(...args: string[]) => lab.os<T>(...args);
const servers = (prefix: string) => lab.servers(prefix);

const ports = (prefix: string) =>
  os<{ Name: string }[]>("port", "list")
    .filter((p) => p.Name.startsWith(`${prefix}-`))
    .map((p) => p.Name);

/** The cgroup directories of the lab nodes of these servers (lab/nodes/node keeps them in <node>/cgroups). */
function nodeCgroups(serverIds: string[]): string[] {
  return serverIds.flatMap((id) => {
    const f = path.join(lab.labEnv.state_dir, "nodes", `vmh-${id.slice(0, 8)}`, "cgroups");
    return existsSync(f) ? readFileSync(f, "utf8").split("\n").filter(Boolean) : [];
  });
}

/**
 * What is left of these servers' VM hosts: the agent's host, the lab node (state directory, every
 * cgroup: a process left in one would keep it), the network namespace, a mount on this machine.
 */
function leftovers(serverIds: string[], cgroups: string[]): string[] {
  const hosts = readdirSync(path.join(lab.labEnv.state_dir, "hosts"));
  const nodesDir = path.join(lab.labEnv.state_dir, "nodes");
  const nodes = existsSync(nodesDir) ? readdirSync(nodesDir) : [];
  const netns = execFileSync("ip", ["netns", "list"], { encoding: "utf8" });
  const mounts = readFileSync("/proc/self/mountinfo", "utf8");
  return [
    ...serverIds.flatMap((id) => {
      const node = `vmh-${id.slice(0, 8)}`;
      return [
        hosts.includes(id) && `host ${id}`,
        nodes.includes(node) && `node ${node}`,
        netns.includes(node) && `netns ${node}`,
        mounts.includes(path.join(nodesDir, node)) && `a mount of ${node}`,
      ].filter((x): x is string => !!x);
    }),
    ...cgroups.filter((d) => existsSync(d)).map((d) => `cgroup ${d}`),
  ];
}

const logMemory = (ours: Server[]) => logNodeMemory(lab.labEnv, ours);

/** systemd as PID 1, nothing in /usr/local (where the lab's stand-ins went, first on sudo's PATH), the packages' kubeadm and kubelet. */
function expectRealNode(s: Server): void {
  expect(inHost(s, "ps", "-p", "1", "-o", "comm=").trim(), s.Name).toBe("systemd");
  expect(inHost(s, "sh", "-c", "find /usr/local/sbin /usr/local/bin /usr/local/lib/nfv-lab-standins -mindepth 1 2>/dev/null || true").trim(), s.Name).toBe("");
  expect(inHost(s, "sh", "-c", "command -v kubeadm; command -v kubelet").trim().split("\n"), s.Name).toEqual(["/usr/bin/kubeadm", "/usr/bin/kubelet"]);
}

/** The node's containerd has images, every one named by the registry VNF (digests aside). */
function expectImagesFromRegistry(s: Server): void {
  const refs = inHost(s, "ctr", "-n", "k8s.io", "images", "ls", "-q")
    .split("\n")
    .filter((l) => l && !l.startsWith("sha256:"));
  expect(refs.length, s.Name).toBeGreaterThan(0);
  expect(
    refs.filter((r) => !r.startsWith(`${lab.registry}/`)),
    s.Name,
  ).toEqual([]);
}

interface NodeView {
  metadata: { name: string; uid: string; labels: Record<string, string> };
  status: { conditions: { type: string; status: string }[] };
}
const nodeList = () => (JSON.parse(kubectl("get", "nodes", "-o", "json")) as { items: NodeView[] }).items;
/** Until the cluster's nodes are exactly `names` (lower case), every one Ready. */
function allReady(names: string[], seconds = 600): Promise<NodeView[]> {
  return until(`nodes ${names.join(" ")} Ready`, seconds, () => {
    const items = nodeList();
    const ready = items.filter((n) => n.status.conditions.some((c) => c.type === "Ready" && c.status === "True"));
    return (
      items.length === names.length &&
      ready
        .map((n) => n.metadata.name)
        .sort()
        .join(" ") === [...names].sort().join(" ") &&
      items
    );
  });
}

const inHost = (s: Server, ...cmd: string[]) => inLabHost(lab.labEnv, s, ...cmd);

/** kubectl on this machine with the cluster VIM's kubeconfig (the stack's `kubeconfigs` output). */
let kubeconfigFile = "";
const kubectl = (...args: string[]) => kubectlWith(kubeconfigFile, ...args);

/**
 * The HA cluster's site settings (the complex request's proxy and HTTPS registry), on addresses of
 * the lab network that nothing answers: the nodes have no route out, so every image must come from
 * the registry VNF without the proxy (the NO_PROXY the cluster makes), and nothing pulls from the
 * HTTPS registry (its CA, credentials and hosts line are only written). Passwords are canaries.
 */
const SITE = {
  proxyPasswordHttp: canary("real-proxy-password-http"),
  proxyPasswordHttps: canary("real-proxy-password-https"),
  pullPassword: canary("real-registry-pull-password"),
  proxyIp: "10.10.0.251",
  httpsRegistry: "registry.example:5443",
  httpsRegistryIp: "10.10.0.252",
};
const HTTP_PROXY = `http://user1:${SITE.proxyPasswordHttp}@${SITE.proxyIp}:3128` as ProxyUrl;
const HTTPS_PROXY = `https://user2:${SITE.proxyPasswordHttps}@${SITE.proxyIp}:3129` as ProxyUrl;

/** A flavour's request (ClusterLab.clusterRequest); `site`: the proxy and HTTPS registry above instead of the seed's; without it, none. */
function clusterRequest(fixture: string, vimName: string, site = false): string {
  return lab.clusterRequest(fixture, vimName, (install) => {
    if (!site) return;
    install.proxy = { http_proxy: HTTP_PROXY, https_proxy: HTTPS_PROXY, no_proxy: "10.0.0.1", k8s_node_cidr: "10.10.0.0/24" };
    install.private_registry_connection_info = [
      {
        connection_type: "1",
        server: SITE.httpsRegistry,
        username: "puller",
        password: SITE.pullPassword,
        certificate_path: "Files/registry-ca.crt",
        hosts_string: `${SITE.httpsRegistryIp} ${SITE.httpsRegistry.split(":")[0]}`,
      },
    ];
  });
}

const set = (k: string, v: string) => lab.set(k, v);
const addCluster = (vnf: string, request: string) => lab.addCluster(vnf, request);
/** kubectl from now on through this VIM's kubeconfig (the stack's `kubeconfigs` output). */
async function useKubeconfig(vimName: string): Promise<void> {
  kubeconfigFile = await lab.kubeconfigOf(vimName);
}

beforeAll(async () => {
  if (!enabled) return;
  lab = await openClusterLab({ stackName: "it-k8s-real", registryVnf: REGISTRY, flavours: ["simple", "podaffinity", "complex"], timed });
  // The HTTPS registry's CA, shipped in the package (certificate_path).
  mkdirSync(path.join(lab.work, "package/Files"));
  cpSync(path.join(ROOT, "test/fixtures/k8s-cluster/Files/registry-ca.crt"), path.join(lab.work, "package/Files/registry-ca.crt"));
  podnetImage = lab.pushedImage("podnet");
  nginxImage = lab.pushedImage("nginx");
  expect(nginxImage, lab.pushed).not.toBe("");

  await addCluster(VNF, clusterRequest("private_registry_kubernetes_param_file.json", "kubernetes_vim"));
  await timed("cluster up", () => lab.stack.up({ color: "never" }));
  await useKubeconfig("kubernetes_vim");
}, 3_600_000);

afterAll(async () => {
  console.log(`timings (s): ${JSON.stringify(timings)}`);
  console.log(`Nova group-race heals: ${novaGroupRaceHeals.length} ${JSON.stringify(novaGroupRaceHeals)}`);
  if (lab?.stack) await lab.stack.destroy({ color: "never" }).catch((e) => console.log(`destroy: ${String(e)}`));
  await lab?.stack.workspace.removeStack("it-k8s-real").catch(() => undefined);
  rmSync(path.join(ROOT, "stacks/Pulumi.it-k8s-real.yaml"), { force: true });
  lab?.dispose();
  if (helmPkg) rmSync(helmPkg, { recursive: true, force: true });
}, 1_200_000);

describe.skipIf(!enabled)("a real Kubernetes cluster from kubernetes_vnf_package (simple) on lab nodes, images from the registry VNF", () => {
  it("3 servers on Kubernetes nodes with no stand-in on any PATH; kubectl through the cluster VIM shows 3 nodes Ready", async () => {
    const ours = servers(VNF).sort((a, b) => a.Name.localeCompare(b.Name));
    expect(ours.map((s) => [s.Name, s.Status])).toEqual([
      [`${VNF}-vnf-masterNode-0`, "ACTIVE"],
      [`${VNF}-vnf-workerNode-0`, "ACTIVE"],
      [`${VNF}-vnf-workerNode-1`, "ACTIVE"],
    ]);
    for (const s of ours) expectRealNode(s);
    await allReady([`${VNF}-masternode-0`, `${VNF}-workernode-0`, `${VNF}-workernode-1`]);
    logMemory(ours);
  });

  it("every kube-system pod Running; CoreDNS answers for kubernetes.default through the Service from a worker's network", async () => {
    await until("kube-system pods Running", 600, () => {
      const pods = (
        JSON.parse(kubectl("-n", "kube-system", "get", "pods", "-o", "json")) as { items: { metadata: { name: string }; status: { phase: string } }[] }
      ).items;
      console.log(`kube-system: ${pods.map((p) => `${p.metadata.name}=${p.status.phase}`).join(" ")}`);
      return pods.length >= 8 && pods.every((p) => p.status.phase === "Running") && pods;
    });
    const dnsIp = (JSON.parse(kubectl("-n", "kube-system", "get", "service", "kube-dns", "-o", "json")) as { spec: { clusterIP: string } }).spec.clusterIP;
    const worker = servers(VNF).find((s) => s.Name.endsWith("workerNode-1"))!;
    // A DNS query from the worker's own network namespace (kube-proxy's rules are there).
    const answer = await until("CoreDNS answers", 300, () => {
      const a = execFileSync(
        "ip",
        ["netns", "exec", nodeOf(worker), "python3", path.join(ROOT, "test/integration/lab/dns-query.py"), dnsIp, "kubernetes.default.svc.cluster.local"],
        { encoding: "utf8" },
      ).trim();
      return a.length > 0 && a;
    }).catch((e: Error) => {
      // What a failure needs to be understood: the worker's routes (podnet's) and the endpoints.
      console.log(`worker routes:\n${execFileSync("ip", ["-n", nodeOf(worker), "route"], { encoding: "utf8" })}`);
      console.log(`kube-dns endpoints: ${kubectl("-n", "kube-system", "get", "endpointslices", "-l", "kubernetes.io/service-name=kube-dns", "-o", "wide")}`);
      throw e;
    });
    const apiIp = (JSON.parse(kubectl("get", "service", "kubernetes", "-o", "json")) as { spec: { clusterIP: string } }).spec.clusterIP;
    expect(answer).toBe(apiIp);
  });

  it("every image on every node came from the registry VNF", () => {
    for (const s of servers(VNF)) expectImagesFromRegistry(s);
  });
});

/**
 * test_cnf as the site ships it: its manifests' `image: nginx` from the registry VNF (the lab's
 * nginx image), TOSCA.meta's hashes of the changed files made again.
 */
function cnfPackage(): string {
  const dir = path.join(lab.work, "cnf-package");
  cpSync(path.join(ROOT, "../shared/vnf-packages/test_cnf"), dir, { recursive: true });
  const metaFile = path.join(dir, "TOSCA-Metadata/TOSCA.meta");
  let meta = readFileSync(metaFile, "utf8");
  for (const f of ["pod.yaml", "replicaset_service_secret.yaml"]) {
    const file = path.join(dir, "Files/kubernetes", f);
    const text = readFileSync(file, "utf8").replace(/image: nginx$/gm, `image: ${nginxImage}`);
    writeFileSync(file, text);
    const hash = createHash("sha256").update(text).digest("hex");
    meta = meta.replace(new RegExp(`(Name: Files/kubernetes/${f.replace(".", "\\.")}\n(?:.+\n)*?Hash: )[0-9a-f]{64}`), `$1${hash}`);
  }
  writeFileSync(metaFile, meta);
  return dir;
}

function cnfRequest(): string {
  const r = JSON.parse(readFileSync(path.join(ROOT, "lab/requests/test-cnf-simple.json"), "utf8")) as { additionalParams: Record<string, unknown> };
  r.additionalParams["lcm-kubernetes-def-files"] = ["Files/kubernetes/pod.yaml", "Files/kubernetes/replicaset_service_secret.yaml"];
  const out = path.join(lab.work, "cnf.json");
  writeFileSync(out, JSON.stringify(r, null, 2));
  return out;
}

interface PodInfo {
  name: string;
  node: string;
  phase: string;
  images: string[];
  ip: string;
}
function pods(selector: string[]): PodInfo[] {
  const items = (
    JSON.parse(kubectl("get", "pods", ...selector, "-o", "json")) as {
      items: {
        metadata: { name: string; deletionTimestamp?: string };
        spec: { nodeName?: string; containers: { image: string }[] };
        status: { phase: string; podIP?: string };
      }[];
    }
  ).items;
  return items
    .filter((p) => !p.metadata.deletionTimestamp)
    .map((p) => ({
      name: p.metadata.name,
      node: p.spec.nodeName ?? "",
      phase: p.status.phase,
      images: p.spec.containers.map((c) => c.image),
      ip: p.status.podIP ?? "",
    }));
}
const vdu2Pods = () => pods(["-l", "app=webserver"]);

/** An HTTP GET from another VM host's network namespace (the registry VNF's host). */
function getFrom(host: Server, url: string): string {
  const code = "import sys, urllib.request; print(urllib.request.urlopen(sys.argv[1], timeout=5).read().decode(), end='')";
  return execFileSync("ip", ["netns", "exec", `vmh-${host.ID.slice(0, 8)}`, "python3", "-c", code, url], { encoding: "utf8" });
}

async function nfv(...args: string[]): Promise<string> {
  const r = await runNfv(lab.local.env, [args[0], "--stack", "it-k8s-real", ...args.slice(1)]);
  if (r.code !== 0) throw new Error(r.out);
  return r.out;
}

/**
 * The Helm CNF fixture (test/fixtures/packages/helm-cnf, issue 25) with the site's image: its request's
 * helm_parameters point the chart's image at the registry VNF's nginx, as an operator's values would.
 */
function helmRequest(): string {
  const r = JSON.parse(readFileSync(path.join(HELM_CNF_FIXTURE, "instantiate-request.json"), "utf8")) as {
    additionalParams: { helm_parameters: Record<string, string> };
  };
  const at = nginxImage.lastIndexOf(":");
  r.additionalParams.helm_parameters = { "image.repository": nginxImage.slice(0, at), "image.tag": nginxImage.slice(at + 1) };
  const out = path.join(lab.work, "helm.json");
  writeFileSync(out, JSON.stringify(r, null, 2));
  return out;
}
const webPods = () => pods(["-l", "app=web"]);
let helmPkg = "";

/** An HTTP GET from a worker's own network namespace, where the pod network's routes are. */
function getFromWorker(url: string): string {
  const worker = servers(VNF).find((s) => s.Name.endsWith("workerNode-0"))!;
  const code = "import sys, urllib.request; print(urllib.request.urlopen(sys.argv[1], timeout=5).read().decode(), end='')";
  return execFileSync("ip", ["netns", "exec", nodeOf(worker), "python3", "-c", code, url], { encoding: "utf8" });
}

describe.skipIf(!enabled)("CNFs through the cluster's VIM, on real containers: test_cnf's manifests and a Helm chart", () => {
  let replicas = 0;
  it("up of both: test_cnf's pods Running on the workers from the registry's image; its NodePort Service answers from another VM host", async () => {
    const c = "vnfs.cnf";
    await set(`${c}.vim`, "kubernetes_vim");
    await set(`${c}.package`, cnfPackage());
    await set(`${c}.instantiate_request`, cnfRequest());
    // The Helm CNF in the same up: one run of the whole stack for both.
    helmPkg = helmCnfPackage();
    await set("vnfs.helm.vim", "kubernetes_vim");
    await set("vnfs.helm.package", helmPkg);
    await set("vnfs.helm.instantiate_request", helmRequest());
    await timed("cnfs up", () => lab.stack.up({ color: "never" }));
    replicas = Number(kubectl("get", "replicaset", "vdu2", "-o", "jsonpath={.spec.replicas}"));
    expect(replicas).toBeGreaterThan(0);
    const all = await until("vdu1 and vdu2 Running", 300, () => {
      const p = [...pods(["--field-selector", "metadata.name=vdu1"]), ...vdu2Pods()];
      return p.length === replicas + 1 && p.every((x) => x.phase === "Running") && p;
    });
    for (const p of all) {
      expect(
        p.images.every((i) => i === nginxImage),
        p.name,
      ).toBe(true);
      expect([`${VNF}-workernode-0`, `${VNF}-workernode-1`], p.name).toContain(p.node);
    }
    const port = kubectl("get", "service", "curry-svc-vdu001-multiple", "-o", "jsonpath={.spec.ports[0].nodePort}");
    const [reg] = servers(REGISTRY);
    for (const w of servers(VNF).filter((s) => s.Name.includes("workerNode"))) {
      const answer = await until(`the Service on ${w.Name}:${port}`, 120, () => getFrom(reg, `http://${Object.values(w.Networks)[0][0]}:${port}/`));
      expect(answer).toMatch(/^nfv-lab nginx on vdu2-/);
    }
  });

  it("nfv scale out of vdu2_aspect adds a replica, Running; nfv heal --vnfc replaces that pod", async () => {
    const out = await timed("cnf scale out", () => nfv("scale", "--vnf", "cnf", "--aspect", "vdu2_aspect", "--steps", "1", "--type", "out"));
    expect(out).toContain(`ReplicaSet vdu2: replicas ${replicas} → ${replicas + 1}`);
    const before = await until(`${replicas + 1} vdu2 pods Running`, 300, () => {
      const p = vdu2Pods();
      return p.length === replicas + 1 && p.every((x) => x.phase === "Running") && p;
    });
    await timed("cnf heal", () => nfv("heal", "--vnf", "cnf", "--vnfc", before[0].name));
    const after = await until("a replacement pod Running", 300, () => {
      const p = vdu2Pods();
      return p.length === replicas + 1 && !p.some((x) => x.name === before[0].name) && p.every((x) => x.phase === "Running") && p;
    });
    expect(after.map((p) => p.name)).toContain(before[1].name);
  });

  it("the Helm CNF: the chart's pod Running on a worker from the registry's image (helm_parameters), answering over the pod network", async () => {
    const [web] = await until("a web pod Running", 300, () => {
      const p = webPods();
      return p.length === 1 && p[0].phase === "Running" && p;
    });
    expect(web.images).toEqual([nginxImage]);
    expect([`${VNF}-workernode-0`, `${VNF}-workernode-1`]).toContain(web.node);
    expect(kubectl("get", "deployment", "web", "-o", "jsonpath={.metadata.labels.tacker_vnf_instance_id}")).toMatch(/^[0-9a-f-]{36}$/);
    const answer = await until(`${web.name} answers`, 120, () => getFromWorker(`http://${web.ip}/`));
    expect(answer).toBe(`nfv-lab nginx on ${web.name}\n`);
  });

  it("the Helm CNF: nfv scale out of web_aspect sets the chart's replicaCount (2 pods Running); nfv heal --vnfc replaces one, which answers", async () => {
    const out = await timed("helm scale out", () => nfv("scale", "--vnf", "helm", "--aspect", "web_aspect", "--steps", "1", "--type", "out"));
    expect(out).toContain("Deployment web: replicas 1 → 2");
    const before = await until("2 web pods Running", 300, () => {
      const p = webPods();
      return p.length === 2 && p.every((x) => x.phase === "Running") && p;
    });
    await timed("helm heal", () => nfv("heal", "--vnf", "helm", "--vnfc", before[0].name));
    const after = await until("a replacement web pod Running", 300, () => {
      const p = webPods();
      return p.length === 2 && !p.some((x) => x.name === before[0].name) && p.every((x) => x.phase === "Running") && p;
    });
    const fresh = after.find((p) => p.name !== before[1].name)!;
    expect(fresh.images).toEqual([nginxImage]);
    expect(await until(`${fresh.name} answers`, 120, () => getFromWorker(`http://${fresh.ip}/`))).toBe(`nfv-lab nginx on ${fresh.name}\n`);
  });

  it("both removed from the stack: their pods, ReplicaSets, Deployment and Service are gone from the cluster", async () => {
    await lab.stack.removeConfig("pulumi-nfv:vnfs.cnf", true);
    await lab.stack.removeConfig("pulumi-nfv:vnfs.helm", true);
    await timed("cnfs removed", () => lab.stack.up({ color: "never" }));
    await until(
      "no CNF pod left",
      120,
      () => pods(["--field-selector", "metadata.name=vdu1"]).length === 0 && vdu2Pods().length === 0 && webPods().length === 0,
    );
    expect(kubectl("get", "deployment,replicaset,service", "-o", "name")).not.toMatch(/vdu2|curry-svc|web/);
  });
});

/** A Deployment `name` (pods labelled app=<name>) of `replicas` sleeping containers in podnet's image, placed by `affinity`. */
function applySleepers(name: string, replicas: number, affinity: object): void {
  const manifest = {
    apiVersion: "apps/v1",
    kind: "Deployment",
    metadata: { name, namespace: "default" },
    spec: {
      replicas,
      selector: { matchLabels: { app: name } },
      template: {
        metadata: { labels: { app: name } },
        spec: { terminationGracePeriodSeconds: 1, affinity, containers: [{ name, image: podnetImage, command: ["sleep", "infinity"] }] },
      },
    },
  };
  writeFileSync(path.join(lab.work, `${name}.json`), JSON.stringify(manifest));
  kubectl("apply", "-f", path.join(lab.work, `${name}.json`));
}

/** The pods of the `sleeper` Deployment: name, node, phase. */
function sleepers(): { name: string; node: string; phase: string }[] {
  const pods = (
    JSON.parse(kubectl("get", "pods", "-l", "app=sleeper", "-o", "json")) as {
      items: { metadata: { name: string; deletionTimestamp?: string }; spec: { nodeName?: string }; status: { phase: string } }[];
    }
  ).items;
  return pods.filter((p) => !p.metadata.deletionTimestamp).map((p) => ({ name: p.metadata.name, node: p.spec.nodeName ?? "", phase: p.status.phase }));
}

async function scale(type: "out" | "in"): Promise<void> {
  await timed(`scale ${type}`, () => nfv("scale", "--vnf", VNF, "--aspect", "worker_instance", "--steps", "1", "--type", type));
}

describe.skipIf(!enabled)("worker scale-out, scale-in and heal of the real cluster, a workload rescheduled", () => {
  const NEW = `${VNF}-workernode-2`;
  it("scale out: workerNode-2's server, its node joins and is Ready; a workload scheduled there runs from the registry's image", async () => {
    await scale("out");
    expect(
      servers(VNF)
        .map((s) => s.Name)
        .sort(),
    ).toContain(`${VNF}-vnf-workerNode-2`);
    await until(`${NEW} Ready`, 300, () => {
      const n = JSON.parse(kubectl("get", "node", NEW, "-o", "json")) as { status: { conditions: { type: string; status: string }[] } };
      return n.status.conditions.some((c) => c.type === "Ready" && c.status === "True");
    });
    // A Deployment that prefers the new node (the scheduler places it there).
    applySleepers("sleeper", 1, {
      nodeAffinity: {
        preferredDuringSchedulingIgnoredDuringExecution: [
          { weight: 100, preference: { matchExpressions: [{ key: "kubernetes.io/hostname", operator: "In", values: [NEW] }] } },
        ],
      },
    });
    const [pod] = await until("the workload Running", 300, () => {
      const p = sleepers();
      return p.length === 1 && p[0].phase === "Running" && p;
    });
    expect(pod.node).toBe(NEW);
  });

  it("scale in: the new node drained (the workload rescheduled on another worker), the Node deleted, then its server", async () => {
    const leaving = servers(VNF).find((s) => s.Name === `${VNF}-vnf-workerNode-2`)!;
    await scale("in");
    expect(
      servers(VNF)
        .map((s) => s.Name)
        .sort(),
    ).toEqual([`${VNF}-vnf-masterNode-0`, `${VNF}-vnf-workerNode-0`, `${VNF}-vnf-workerNode-1`]);
    const nodes = (JSON.parse(kubectl("get", "nodes", "-o", "json")) as { items: { metadata: { name: string } }[] }).items.map((n) => n.metadata.name).sort();
    expect(nodes).toEqual([`${VNF}-masternode-0`, `${VNF}-workernode-0`, `${VNF}-workernode-1`]);
    const [pod] = await until("the workload Running elsewhere", 300, () => {
      const p = sleepers();
      return p.length === 1 && p[0].phase === "Running" && p;
    });
    expect([`${VNF}-workernode-0`, `${VNF}-workernode-1`]).toContain(pod.node);
    await until("workerNode-2's VM host removed", 120, () => !readdirSync(path.join(lab.labEnv.state_dir, "hosts")).includes(leaving.ID));
  });

  it("nfv heal --vnfc workerNode-1: a new server, the same node name joins again and is Ready; the workload runs", async () => {
    const name = `${VNF}-workernode-1`;
    const before = servers(VNF).find((s) => s.Name === `${VNF}-vnf-workerNode-1`)!;
    const uidBefore = nodeList().find((n) => n.metadata.name === name)!.metadata.uid;
    await timed("worker heal", () => nfv("heal", "--vnf", VNF, "--vnfc", "workerNode-1"));
    const after = servers(VNF).find((s) => s.Name === `${VNF}-vnf-workerNode-1`)!;
    expect(after.ID).not.toBe(before.ID);
    const nodes = await allReady([`${VNF}-masternode-0`, `${VNF}-workernode-0`, name]);
    // The Node object is a new one (the old one was deleted before the server went), of the same name.
    expect(nodes.find((n) => n.metadata.name === name)!.metadata.uid).not.toBe(uidBefore);
    await until("the workload Running", 300, () => {
      const p = sleepers();
      return p.length === 1 && p[0].phase === "Running" && p;
    });
    kubectl("delete", "deployment", "sleeper", "--wait=true");
  });
});

/** The podaffinity flavour's VNF: 3 masters behind the VIP in a soft anti-affinity server group, 2 workers in a hard one. */
const PA = "k8sp";
const PA_VIM = "kubernetes_podaffinity_vim";
const PA_NODES = ["masterNode-0", "masterNode-1", "masterNode-2", "workerNode-0", "workerNode-1"].map((v) => `${PA}-${v.toLowerCase()}`);
const paServer = (vnfc: string) => servers(PA).find((s) => s.Name === `${PA}-vnf-${vnfc}`)!;
interface Placement {
  "OS-EXT-SRV-ATTR:host": string;
  "OS-EXT-AZ:availability_zone": string;
}
const placement = (s: Server) => os<Placement>("server", "show", s.ID);
const serverGroups = (prefix: string) =>
  os<{ ID: string; Name: string }[]>("server", "group", "list", "--all-projects").filter((g) => g.Name.startsWith(`${prefix}-`));

/**
 * Two servers of a hard anti-affinity group booted at the same moment can both be placed on one of
 * the lab's two compute hosts; Nova's late check on the host then reschedules one, with no alternate
 * host left, and it ends in ERROR (about 1 `up` in 6). An operator heals that VNFC: so does this
 * `up`, by replacing that server, and counts it.
 */
const NOVA_GROUP_RACE =
  /creating (urn:pulumi:\S+?openstack:compute\/instance:Instance::\S+?): 1 error occurred:\s+\* Error waiting for instance \(\S+\) to become ready: unexpected state 'ERROR'/;
const novaGroupRaceHeals: string[] = [];
async function upHealingGroupRace(label: string): Promise<void> {
  await timed(label, async () => {
    for (let replace: string[] | undefined, attempt = 0; ; attempt++) {
      try {
        await lab.stack.up({ color: "never", replace });
        return;
      } catch (e) {
        const errored = NOVA_GROUP_RACE.exec(String((e as Error).message));
        if (attempt >= 2 || !errored) throw e;
        novaGroupRaceHeals.push(`${label}: ${errored[1]}`);
        const kept = (await lab.stack.exportStack()).deployment.resources.some((r: { urn: string }) => r.urn === errored[1]);
        replace = kept ? [errored[1]] : undefined;
      }
    }
  });
}

/** The pods of the `spread` Deployment (one per CIS-node value): name, node, phase. */
const spreadPods = () => pods(["-l", "app=spread"]);
/** Until both replicas of `spread` run, on two different workers. */
const spreadOverWorkers = () =>
  until("a spread pod Running on each worker", 300, () => {
    const p = spreadPods();
    return p.length === 2 && p.every((x) => x.phase === "Running") && new Set(p.map((x) => x.node)).size === 2 && p;
  });

/**
 * Removes a cluster from the stack by an `up` of its own (an `up` that also adds the next cluster
 * would delete only at its end, with both clusters' nodes on the lab's two cores meanwhile), then
 * checks that nothing of it is left: server, port, server group, VM host, lab node, cgroup, netns.
 */
async function removeCluster(vnf: string, label: string): Promise<void> {
  const ids = servers(vnf).map((s) => s.ID);
  const cgroups = nodeCgroups(ids);
  expect(cgroups.length).toBeGreaterThan(0);
  await lab.stack.removeConfig(`pulumi-nfv:vnfs.${vnf}`, true);
  await timed(label, () => lab.stack.up({ color: "never" }));
  expect(servers(vnf)).toEqual([]);
  expect(ports(vnf)).toEqual([]);
  expect(serverGroups(vnf)).toEqual([]);
  await until(`nothing of ${vnf}'s VM hosts left`, 120, () => leftovers(ids, cgroups).length === 0);
  // The package's VDUs have no block storage: no volume to look for.
}

/**
 * The example NS (examples/hybrid-ns) as a site builds its packages: ETSI's SOL001 type files
 * added to each (they are not in this repository), the server's `image: nginx` from the registry VNF;
 * each given as a `.zip`, as Tacker onboards them (the NS, the VM VNF's hook files, the CNF's manifest).
 */
function hybridNsPackages(): Record<"ns" | "client-vnf" | "server-cnf", string> {
  const out = {} as Record<"ns" | "client-vnf" | "server-cnf", string>;
  for (const name of ["ns", "client-vnf", "server-cnf"] as const) {
    const dir = path.join(lab.work, `hybrid-${name}`);
    cpSync(path.join(HYBRID, "packages", name), dir, { recursive: true });
    for (const f of ["etsi_nfv_sol001_common_types.yaml", "etsi_nfv_sol001_vnfd_types.yaml"]) {
      cpSync(path.join(ROOT, "../shared/vnf-packages/etsi-sol001-2.6.1", f), path.join(dir, "Definitions", f));
    }
    if (name === "server-cnf") {
      const manifest = path.join(dir, "Files/kubernetes/server.yaml");
      writeFileSync(manifest, readFileSync(manifest, "utf8").replace(/image: nginx$/m, `image: ${nginxImage}`));
    }
    out[name] = writeZipPackage(`${dir}.zip`, dir);
  }
  return out;
}

const HYBRID = path.join(ROOT, "examples/hybrid-ns");
/** The NS's VNF entries and the child name of its VM VNF (`<ns>-<NSD VNF id>`). */
const NS_CLIENT = "nsclient";
const NS_SERVER = "nsserver";
const CLIENT_VNF = "hybrid-client";
const serverPods = () => pods(["-l", "app=server"]);
/** The client hook's answers on a VM host of the client: [operation, answer]. */
function clientLog(s: Server): [string, string][] {
  const file = path.join(lab.labEnv.state_dir, "hosts", s.ID, "root/var/log/nfv-client.log");
  return existsSync(file)
    ? readFileSync(file, "utf8")
        .trim()
        .split("\n")
        .map((l) => {
          const [, op, ...answer] = l.split(" ");
          return [op, answer.join(" ")];
        })
    : [];
}

describe.skipIf(!enabled)("a hybrid NS (examples/hybrid-ns): a VM VNF on the lab OpenStack and a CNF on the cluster, joined by the NS virtual link", () => {
  let client: Server;
  let url = "";
  it("one up: the server CNF's pod Running from the registry's image; the client's hook reached its Service over the link, answered by that pod, seen in its log", async () => {
    const pkgs = hybridNsPackages();
    await set(`vnfs.${NS_SERVER}.vim`, "kubernetes_vim");
    await set(`vnfs.${NS_SERVER}.package`, pkgs["server-cnf"]);
    await set(`vnfs.${NS_SERVER}.instantiate_request`, path.join(HYBRID, "requests/server.json"));
    const c = `vnfs.${NS_CLIENT}`;
    await set(`${c}.vim`, "lab");
    await set(`${c}.package`, pkgs["client-vnf"]);
    await set(`${c}.instantiate_request`, path.join(HYBRID, "requests/client.json"));
    await set(`${c}.ssh.cp`, "clientCp");
    await set(`${c}.ssh.user`, "cirros");
    await set(`${c}.ssh.private_key_file`, path.join(lab.work, "id_ed25519"));
    await set(`${c}.ssh.public_key_file`, path.join(lab.work, "id_ed25519.pub"));
    for (const op of ["instantiate_end", "heal_end"]) await set(`${c}.hooks.${op}`, path.join(HYBRID, "mgmt/call-server.sh"));
    // The server's address and port as the stack's outputs of the cluster and the CNF: resolved by Pulumi.
    await set(`${c}.hook_parameters.server_address`, `\${vnfs.${VNF}.vnfcs.workerNode-0.ips[0]}`);
    await set(`${c}.hook_parameters.server_port`, `\${vnfs.${NS_SERVER}.services.server.ports[0].nodePort}`);
    await set("network_services.hybrid.package", pkgs.ns);
    await set("network_services.hybrid.vnfs.client", NS_CLIENT);
    await set("network_services.hybrid.vnfs.server", NS_SERVER);
    // The NS virtual link on the network the cluster's nodes are on: the CNF is reached through its Service there.
    await set("network_services.hybrid.links.service_link", labResources(lab.labEnv)["network.lab-net"]);
    const up = await timed("ns up", () => lab.stack.up({ color: "never" }));
    expect(up.outputs.networkServices.value.hybrid).toEqual({
      vnfs: { client: NS_CLIENT, server: NS_SERVER },
      linkNetworkIds: { service_link: labResources(lab.labEnv)["network.lab-net"] },
    });
    const [pod] = await until("the server pod Running", 300, () => {
      const p = serverPods();
      return p.length === 1 && p[0].phase === "Running" && p;
    });
    expect(pod.images).toEqual([nginxImage]);
    expect([`${VNF}-workernode-0`, `${VNF}-workernode-1`]).toContain(pod.node);
    [client] = servers(CLIENT_VNF);
    expect([client.Name, client.Status]).toEqual([`${CLIENT_VNF}-client-0`, "ACTIVE"]);
    expect(Object.keys(client.Networks)).toEqual(["lab-net"]);
    expect(clientLog(client)).toEqual([["instantiate_end", `nfv-lab nginx on ${pod.name}`]]);
    expect(kubectl("logs", pod.name)).toMatch(/"GET \/ HTTP\/1\.1" 200 .*"curl\//);
    const worker0 = servers(VNF).find((s) => s.Name === `${VNF}-vnf-workerNode-0`)!;
    url = `http://${Object.values(worker0.Networks)[0][0]}:30080/`;
    const again = await lab.stack.up({ color: "never" });
    expect(Object.entries(again.summary.resourceChanges ?? {}).filter(([op, n]) => op !== "same" && (n ?? 0) > 0)).toEqual([]);
  });

  it("nfv heal --vnfc of the server's pod: a new pod answers the client over the link", async () => {
    const [old] = serverPods();
    await timed("ns cnf heal", () => nfv("heal", "--vnf", NS_SERVER, "--vnfc", old.name));
    const [pod] = await until("a new server pod Running", 300, () => {
      const p = serverPods();
      return p.length === 1 && p[0].name !== old.name && p[0].phase === "Running" && p;
    });
    expect(await until("the new pod answers the client", 120, () => getFrom(client, url))).toBe(`nfv-lab nginx on ${pod.name}\n`);
  });

  it("nfv heal --vnfc client-0: a new server on the link, whose heal_end hook reached the server", async () => {
    await timed("ns vm heal", () => nfv("heal", "--vnf", NS_CLIENT, "--vnfc", "client-0"));
    const [healed] = servers(CLIENT_VNF);
    expect(healed.ID).not.toBe(client.ID);
    expect(healed.Status).toBe("ACTIVE");
    const [pod] = serverPods();
    expect(clientLog(healed)).toEqual([["heal_end", `nfv-lab nginx on ${pod.name}`]]);
    client = healed;
  });

  it("nfv scale out of server_aspect: a second pod, and the client's requests are answered by both", async () => {
    await timed("ns cnf scale out", () => nfv("scale", "--vnf", NS_SERVER, "--aspect", "server_aspect", "--steps", "1", "--type", "out"));
    const running = await until("2 server pods Running", 300, () => {
      const p = serverPods();
      return p.length === 2 && p.every((x) => x.phase === "Running") && p;
    });
    const seen = new Set<string>();
    await until("both pods answer the client", 120, () => {
      for (let i = 0; i < 10; i++) seen.add(getFrom(client, url).trim());
      return seen.size === 2;
    });
    expect([...seen].sort()).toEqual(running.map((p) => `nfv-lab nginx on ${p.name}`).sort());
  });

  it("nfv terminate --ns hybrid: its entry and its constituents' go from the config; the client's server, port and VM host and the server's pods and Service are gone", async () => {
    const ids = servers(CLIENT_VNF).map((s) => s.ID);
    await timed("ns terminated", () => nfv("terminate", "--ns", "hybrid"));
    const config = await lab.stack.getAllConfig();
    expect(Object.keys(JSON.parse(config["pulumi-nfv:network_services"]?.value ?? "{}") as object)).toEqual([]);
    const vnfs = Object.keys(JSON.parse(config["pulumi-nfv:vnfs"].value) as object);
    expect(vnfs).toContain(VNF);
    expect(vnfs.filter((v) => v === NS_CLIENT || v === NS_SERVER)).toEqual([]);
    expect(servers(CLIENT_VNF)).toEqual([]);
    expect(ports(CLIENT_VNF)).toEqual([]);
    await until("no server pod left", 120, () => serverPods().length === 0);
    expect(kubectl("get", "deployment,service", "-o", "name")).not.toMatch(/\/server$/m);
    await until("nothing of the client's VM host left", 120, () => leftovers(ids, []).length === 0);
  });
});

describe.skipIf(!enabled)("the simple cluster removed from the stack", () => {
  it("leaves no server, port or server group of it, and no VM host, lab node, cgroup or network namespace", async () => {
    await removeCluster(VNF, "cluster removed");
  });
});

describe.skipIf(!enabled)("a real cluster of the podaffinity flavour: server groups, workers labelled with their compute host", () => {
  // Five nodes' up or heal, then up to 600 s for them Ready (and 300 s for etcd): more than vitest's default 600 s.
  it("up: 5 nodes Ready on real nodes, every image from the registry VNF", async () => {
    await addCluster(PA, clusterRequest("podaffinity_request.json", PA_VIM));
    // The lab has two compute hosts: three masters fit only a soft policy; the two workers keep Tacker's hard one.
    await set(`vnfs.${PA}.cluster.master_server_group`, "soft-anti-affinity");
    await upHealingGroupRace("podaffinity up");
    await useKubeconfig(PA_VIM);
    await allReady(PA_NODES);
    const ours = servers(PA);
    for (const s of ours) {
      expectRealNode(s);
      expectImagesFromRegistry(s);
    }
    logMemory(ours);
  }, 1_200_000);

  it("a server group per role through the API with its members; the workers on different compute hosts, each labelled with its own host and zone; the masters not", () => {
    const groups = serverGroups(PA);
    const show = (name: string) =>
      os<{ policy?: string; policies?: string | string[]; members: string | string[] }>("server", "group", "show", groups.find((g) => g.Name === name)!.ID);
    // The client prints lists as lists or as "a, b" depending on its version.
    const list = (v: string | string[] | undefined) =>
      (Array.isArray(v)
        ? v
        : String(v ?? "")
            .split(/,\s*/)
            .filter(Boolean)
      ).sort();
    const policy = (name: string) => {
      const g = show(name);
      return g.policy ?? list(g.policies).join(",");
    };
    expect(groups.map((g) => g.Name).sort()).toEqual([`${PA}-vnf-masterNode_server_group`, `${PA}-vnf-workerNode_server_group`]);
    expect([policy(`${PA}-vnf-masterNode_server_group`), policy(`${PA}-vnf-workerNode_server_group`)]).toEqual(["soft-anti-affinity", "anti-affinity"]);
    expect(list(show(`${PA}-vnf-workerNode_server_group`).members)).toEqual(["workerNode-0", "workerNode-1"].map((w) => paServer(w).ID).sort());
    expect(list(show(`${PA}-vnf-masterNode_server_group`).members)).toEqual(["masterNode-0", "masterNode-1", "masterNode-2"].map((m) => paServer(m).ID).sort());
    const [w0, w1] = ["workerNode-0", "workerNode-1"].map((w) => placement(paServer(w)));
    expect(w0["OS-EXT-SRV-ATTR:host"]).not.toBe(w1["OS-EXT-SRV-ATTR:host"]);
    const labels = Object.fromEntries(nodeList().map((n) => [n.metadata.name, n.metadata.labels]));
    // The lab VIM's user has the admin role in its project (as a Tacker VIM's user has): Nova shows it the host's name.
    for (const [w, p] of [
      ["workerNode-0", w0],
      ["workerNode-1", w1],
    ] as const) {
      const l = labels[`${PA}-${w.toLowerCase()}`];
      expect([l["CIS-node"], l["topology.kubernetes.io/zone"]], w).toEqual([p["OS-EXT-SRV-ATTR:host"], p["OS-EXT-AZ:availability_zone"]]);
    }
    for (const m of PA_NODES.slice(0, 3)) expect(labels[m]["CIS-node"], m).toBeUndefined();
  });

  it("a Deployment with a required pod anti-affinity on CIS-node (what the labels are for) runs one pod on each worker", async () => {
    applySleepers("spread", 2, {
      podAntiAffinity: { requiredDuringSchedulingIgnoredDuringExecution: [{ topologyKey: "CIS-node", labelSelector: { matchLabels: { app: "spread" } } }] },
    });
    const p = await spreadOverWorkers();
    expect(p.map((x) => x.node).sort()).toEqual(PA_NODES.slice(3));
  });

  it("nfv heal --vnfc workerNode-0: a new server, labelled again with the host Nova put it on; the spread pod runs on it again", async () => {
    const before = paServer("workerNode-0").ID;
    await timed("podaffinity worker heal", () => nfv("heal", "--vnf", PA, "--vnfc", "workerNode-0"));
    expect(paServer("workerNode-0").ID).not.toBe(before);
    await allReady(PA_NODES);
    const [w0, w1] = ["workerNode-0", "workerNode-1"].map((w) => placement(paServer(w)));
    expect(w0["OS-EXT-SRV-ATTR:host"]).not.toBe(w1["OS-EXT-SRV-ATTR:host"]);
    const labels = Object.fromEntries(nodeList().map((n) => [n.metadata.name, n.metadata.labels]));
    expect(labels[`${PA}-workernode-0`]["CIS-node"]).toBe(w0["OS-EXT-SRV-ATTR:host"]);
    expect(labels[`${PA}-workernode-1`]["CIS-node"]).toBe(w1["OS-EXT-SRV-ATTR:host"]);
    expect((await spreadOverWorkers()).map((x) => x.node).sort()).toEqual(PA_NODES.slice(3));
  });

  it("removed from the stack: no server, port or server group of it, no VM host, lab node, cgroup or network namespace", async () => {
    await removeCluster(PA, "podaffinity removed");
  });
});

/** The HA flavour's VNF: 3 masters behind the VIP (keepalived, HAProxy), 2 workers. */
const HA = "k8sh";
const HA_VIM = "kubernetes_ha_vim";
const MASTERS = [0, 1, 2].map((i) => `masterNode-${i}`);
const HA_NODES = [...MASTERS, "workerNode-0", "workerNode-1"].map((v) => `${HA}-${v.toLowerCase()}`);
/** The HA VNF's servers as of the last operation (each `openstack` call takes seconds: listed once per operation). */
let haServers: Server[] = [];
const listHaServers = () => (haServers = servers(HA));
const haServer = (vnfc: string) => haServers.find((s) => s.Name === `${HA}-vnf-${vnfc}`)!;

/** etcd's members as a master's etcdctl sees them (the healthcheck client certificate kubeadm made). */
function etcdctl(master: Server, ...args: string[]): string {
  return inHost(
    master,
    "etcdctl",
    "--endpoints=https://127.0.0.1:2379",
    "--cacert=/etc/kubernetes/pki/etcd/ca.crt",
    "--cert=/etc/kubernetes/pki/etcd/healthcheck-client.crt",
    "--key=/etc/kubernetes/pki/etcd/healthcheck-client.key",
    "--command-timeout=10s",
    ...args,
  );
}
/** The names of the members, once all are started and every endpoint of the cluster is healthy. */
function healthyMembers(master: Server): string[] | false {
  const members = (JSON.parse(etcdctl(master, "member", "list", "-w", "json")) as { members: { name?: string }[] }).members;
  const health = JSON.parse(etcdctl(master, "endpoint", "health", "--cluster", "-w", "json")) as { health: boolean }[];
  return members.every((m) => m.name) && health.length === members.length && health.every((h) => h.health) && members.map((m) => m.name!).sort();
}

/** The masters whose network namespace holds the VIP. */
function vipHolders(vip: string): string[] {
  return MASTERS.filter((m) => execFileSync("ip", ["-n", nodeOf(haServer(m)), "-o", "-4", "addr", "show"], { encoding: "utf8" }).includes(` ${vip}/32 `));
}

describe.skipIf(!enabled)("a real HA cluster (complex): 3 masters behind the VIP with keepalived and HAProxy, real etcd", () => {
  let vip = "";
  // Five nodes' up or heal, then up to 600 s for them Ready (and 300 s for etcd): more than vitest's default 600 s.
  it("up: 5 nodes Ready, 3 of them control plane; the API on the VIP; 3 healthy etcd members; the VIP on one master", async () => {
    await addCluster(HA, clusterRequest("complex_request.json", HA_VIM, true));
    await timed("complex up", () => lab.stack.up({ color: "never" }));
    listHaServers();
    await useKubeconfig(HA_VIM);
    const nodes = await allReady(HA_NODES);
    expect(
      nodes
        .filter((n) => "node-role.kubernetes.io/control-plane" in n.metadata.labels)
        .map((n) => n.metadata.name)
        .sort(),
    ).toEqual(HA_NODES.slice(0, 3));
    const vipPort = os<{ ID: string; Name: string }[]>("port", "list").find((p) => p.Name === `${HA}-vip_CP`)!;
    vip = os<{ fixed_ips: { ip_address: string }[] }>("port", "show", vipPort.ID).fixed_ips[0].ip_address;
    expect(readFileSync(kubeconfigFile, "utf8")).toContain(`server: https://${vip}:16443`);
    for (const m of MASTERS) {
      expect(inHost(haServer(m), "systemctl", "is-active", "haproxy", "keepalived").trim().split("\n"), m).toEqual(["active", "active"]);
      expect(inHost(haServer(m), "cat", "/etc/haproxy/haproxy.cfg").match(/^ +server /gm), m).toHaveLength(3);
    }
    expect(await until("3 healthy etcd members", 300, () => healthyMembers(haServer("masterNode-0")))).toEqual(HA_NODES.slice(0, 3));
    expect(await until("one VIP holder", 60, () => vipHolders(vip).length === 1 && vipHolders(vip))).toHaveLength(1);
    logMemory(haServers);
    for (const s of haServers) {
      expectRealNode(s);
      expectImagesFromRegistry(s);
    }
    // Neutron lets the VIP through every master's port (allowed address pairs), no worker's.
    for (const p of os<{ ID: string; Name: string }[]>("port", "list").filter((x) => x.Name.startsWith(`${HA}-vnf-`))) {
      const pairs = os<{ allowed_address_pairs: { ip_address: string }[] }>("port", "show", p.ID).allowed_address_pairs.map((a) => a.ip_address);
      expect(pairs, p.Name).toEqual(p.Name.includes("masterNode") ? [vip] : []);
    }
    // The API server's certificate names the VIP; the kubeconfig is in the state only as a secret.
    const cert = inHost(haServer("masterNode-0"), "cat", "/etc/kubernetes/pki/apiserver.crt");
    expect(execFileSync("openssl", ["x509", "-noout", "-ext", "subjectAltName"], { input: cert, encoding: "utf8" })).toContain(`IP Address:${vip}`);
    expect(await outputIsSecretInState(lab.stack, "kubeconfigs", HA_VIM)).toBe(true);
  }, 1_200_000);

  it("the site's proxy and HTTPS registry on every node, byte for byte what the cluster generates; NO_PROXY let every pull reach the registry VNF", async () => {
    const registryIp = lab.registry.split(":")[0];
    for (const s of haServers) {
      const file = (f: string) => inHost(s, "cat", f);
      const dropIn = file("/etc/systemd/system/containerd.service.d/nfv-proxy.conf");
      const noProxy = /"NO_PROXY=([^"]+)"/.exec(dropIn)![1].split(",");
      expect(noProxy, s.Name).toEqual(
        expect.arrayContaining([vip, "10.10.0.0/24", POD_CIDR, "10.199.187.0/24", registryIp, "10.0.0.1", "localhost", ".svc", ".cluster.local"]),
      );
      expect(dropIn, s.Name).toBe(proxyDropIn({ httpProxy: HTTP_PROXY, httpsProxy: HTTPS_PROXY, noProxy: noProxy.join(",") }));
      expect(file("/etc/systemd/system/kubelet.service.d/nfv-proxy.conf"), s.Name).toBe(dropIn);
      expect(file("/etc/apt/apt.conf.d/95nfv-k8s-proxy"), s.Name).toBe(aptProxyConf({ httpProxy: HTTP_PROXY, httpsProxy: HTTPS_PROXY }));
      // containerd really runs with it (its environment, from the drop-in).
      const pid = inHost(s, "systemctl", "show", "-p", "MainPID", "--value", "containerd").trim();
      expect(inHost(s, "cat", `/proc/${pid}/environ`).split("\0"), s.Name).toContain(`HTTPS_PROXY=${HTTPS_PROXY}`);
      // The HTTPS registry: its CA for containerd, the kubelet's credentials (mode 600), its /etc/hosts line.
      const certs = `/etc/containerd/certs.d/${SITE.httpsRegistry}`;
      expect(file(`${certs}/hosts.toml`), s.Name).toContain(`ca = "${certs}/ca.crt"`);
      expect(file(`${certs}/ca.crt`), s.Name).toBe(readFileSync(path.join(ROOT, "test/fixtures/k8s-cluster/Files/registry-ca.crt"), "utf8").trimEnd() + "\n");
      expect(inHost(s, "stat", "-c", "%a", "/var/lib/kubelet/config.json").trim(), s.Name).toBe("600");
      expect(Object.keys((JSON.parse(file("/var/lib/kubelet/config.json")) as { auths: object }).auths).sort(), s.Name).toEqual(
        [lab.registry, SITE.httpsRegistry].sort(),
      );
      expect(file("/etc/hosts"), s.Name).toContain(`${SITE.httpsRegistryIp} registry.example`);
    }
  });

  it("the VIP holder's keepalived stopped: the VIP moves to another master and the API keeps answering on it", async () => {
    const [holder] = vipHolders(vip);
    inHost(haServer(holder), "systemctl", "stop", "keepalived");
    const [next] = await until("the VIP on another master", 60, () => {
      const h = vipHolders(vip);
      return h.length === 1 && h[0] !== holder && h;
    });
    console.log(`VIP ${vip}: ${holder} -> ${next}`);
    expect(
      nodeList()
        .map((n) => n.metadata.name)
        .sort(),
    ).toEqual(HA_NODES);
    inHost(haServer(holder), "systemctl", "start", "keepalived");
    await until("one VIP holder again", 60, () => vipHolders(vip).length === 1);
    expect(nodeList()).toHaveLength(5);
  });

  it("nfv heal --vnfc masterNode-1: its etcd member removed, a new server rejoins; 3 healthy members, HAProxy over 3 again", async () => {
    const before = haServer("masterNode-1");
    await timed("master heal", () => nfv("heal", "--vnf", HA, "--vnfc", "masterNode-1"));
    listHaServers();
    expect(haServer("masterNode-1").ID).not.toBe(before.ID);
    await allReady(HA_NODES);
    expect(await until("3 healthy etcd members", 300, () => healthyMembers(haServer("masterNode-0")))).toEqual(HA_NODES.slice(0, 3));
    for (const m of MASTERS) expect(inHost(haServer(m), "cat", "/etc/haproxy/haproxy.cfg").match(/^ +server /gm), m).toHaveLength(3);
  });

  // Five nodes' up or heal, then up to 600 s for them Ready (and 300 s for etcd): more than vitest's default 600 s.
  it("nfv heal of the whole VNF: every server new, a new cluster (a new CA in the VIM), 5 nodes Ready, 3 healthy members", async () => {
    const before = Object.fromEntries(haServers.map((s) => [s.Name, s.ID]));
    const caBefore = /certificate-authority-data: (\S+)/.exec(readFileSync(kubeconfigFile, "utf8"))![1];
    // No second `up` allowed: the lab's nova-compute takes a deleted server's host down inside
    // Nova's delete (lab/README.md), so prepare-node never meets an old host at a kept address. The
    // test ran `up` again when it did (twice in CI until 2026-12-03, under the agent's earlier polling).
    await timed("complex whole heal", () => nfv("heal", "--vnf", HA));
    const after = listHaServers();
    expect(after.map((s) => s.Name).sort()).toEqual(Object.keys(before).sort());
    for (const s of after) expect(s.ID, s.Name).not.toBe(before[s.Name]);
    await useKubeconfig(HA_VIM);
    expect(/certificate-authority-data: (\S+)/.exec(readFileSync(kubeconfigFile, "utf8"))![1]).not.toBe(caBefore);
    await allReady(HA_NODES);
    expect(await until("3 healthy etcd members", 300, () => healthyMembers(haServer("masterNode-0")))).toEqual(HA_NODES.slice(0, 3));
  }, 1_200_000);
});

describe.skipIf(!enabled)("destroy", () => {
  it("leaves no server or port of the HA cluster or the registry, and no VM host, lab node, cgroup or network namespace", async () => {
    const ids = [...listHaServers(), ...servers(REGISTRY)].map((s) => s.ID);
    const cgroups = nodeCgroups(ids);
    expect(cgroups.length).toBeGreaterThan(0);
    await timed("destroy", () => lab.stack.destroy({ color: "never" }));
    expect(servers(HA)).toEqual([]);
    expect(servers(REGISTRY)).toEqual([]);
    expect([...ports(HA), ...ports(REGISTRY)]).toEqual([]);
    await until("nothing of the VM hosts left", 120, () => leftovers(ids, cgroups).length === 0);
  });
});
