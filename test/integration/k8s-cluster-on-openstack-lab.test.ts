/**
 * K8sCluster (nfv:k8s:Cluster) on the lab's real OpenStack (lab/openstack), by a real `pulumi up`
 * of the stack program: flavours `simple` (1 master behind the VIP port, 2 workers), `complex`
 * (3 masters, 2 workers, an HTTPS registry with a CA) and `podaffinity` (server groups on the lab's
 * two compute hosts, workers labelled with Nova's placement) of kubernetes_vnf_package.
 *
 * Real: Nova servers, Neutron ports (the VIP port's address in every master port's allowed address
 * pairs, read back through the API), the Nova key pair, SSH into the VM hosts, the mgmt/k8s scripts
 * run by remote Commands with their stdin, the files they write in the hosts' trees, `ip`, openssl
 * (the cluster CA, its public key hash, the API server certificate's SANs), `haproxy -c` and
 * `keepalived --config-test` on the hosts. Recorded: kubeadm, kubectl, etcdctl, systemctl,
 * apt-get/apt-mark/dpkg-query and the kernel tools: the lab's stand-ins (lab/openstack/standins)
 * keep the cluster's membership and a call log per host, which the tests read back.
 */
import { execFileSync } from "node:child_process";
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import * as path from "node:path";
import type { Stack } from "@pulumi/pulumi/automation";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { aptProxyConf, proxyDropIn, type ProxyUrl } from "../../components/host-files";
import { canary, openLocalStack, outputIsSecretInState, ROOT, runNfv, type LocalStack } from "./harness";
import { labResources, labUp, openstackCli, openstackLabEnabled, type LabFacts } from "./lab/openstack";
import { timer } from "./lab/timings";

const enabled = openstackLabEnabled();
const PACKAGE = path.join(ROOT, "../shared/vnf-packages/kubernetes_vnf_package");
const CLUSTER = {
  kubernetes_version: "1.30.14", kubernetes_package_version: "1.30.14-1.1", containerd_package_version: "1.7.24-1",
  etcd_client_package_version: "3.4.23-4+b6", sandbox_image: "192.168.246.10:5000/pause:3.9",
};

let labEnv: LabFacts = {};
let work = "";
const os = <T>(...args: string[]) => openstackCli<T>(labEnv, args, "oslab-admin");

interface Server { ID: string; Name: string; Status: string }
interface Call { ts: number; host: string; kind: "call" | "emul"; tool: string; text: string }

const since = () => Date.now() / 1000;
/** Operations that stopped on a stale VM host and were finished by another up (see ClusterStack.run). */
const staleHostRetries: string[] = [];
/**
 * Two servers of a hard anti-affinity group booted at the same moment can both be placed on one
 * host; Nova's late check on the compute host then reschedules one, and with two hosts there is no
 * alternate left, so it ends in ERROR (seen once in about 6 runs of the podaffinity `up`). An
 * operator heals that VNFC; the test does the same and counts it.
 */
const NOVA_GROUP_RACE = /creating (urn:pulumi:\S+?openstack:compute\/instance:Instance::\S+?): 1 error occurred:\s+\* Error waiting for instance \(\S+\) to become ready: unexpected state 'ERROR'/;
const novaGroupRaceRetries: string[] = [];
const nfvOk = async (p: Promise<{ code: number; out: string }>) => {
  const r = await p;
  if (r.code !== 0) throw new Error(r.out);
};
const { timings, timed } = timer();

/** The stand-ins' call log of every host whose name starts with `prefix`, since `from` (epoch s), in time order. */
function calls(prefix: string, from: number): Call[] {
  const dir = path.join(labEnv.state_dir, "standins/kubernetes/calls");
  const out: Call[] = [];
  for (const f of existsSync(dir) ? readdirSync(dir) : []) {
    if (!f.startsWith(prefix) || !f.endsWith(".log")) continue;
    for (const line of readFileSync(path.join(dir, f), "utf8").split("\n")) {
      const [ts, host, kind, tool, ...text] = line.split("\t");
      if (!line || Number(ts) < from) continue;
      out.push({ ts: Number(ts), host, kind: kind as Call["kind"], tool, text: text.join("\t") });
    }
  }
  return out.sort((a, b) => a.ts - b.ts);
}
const on = (cs: Call[], host: string) => cs.filter((c) => c.host === host);
/** Index of the first entry matching, after index `after`; -1 if none. */
function find(cs: Call[], pred: (c: Call) => boolean, after = -1): number {
  for (let i = after + 1; i < cs.length; i++) if (pred(cs[i])) return i;
  return -1;
}
const is = (tool: string, re: RegExp, kind: Call["kind"] = "call") => (c: Call) => c.tool === tool && c.kind === kind && re.test(c.text);
/** Asserts the steps appear in this order in `cs`; returns their indexes. */
function inOrder(cs: Call[], steps: [string, (c: Call) => boolean][]): number[] {
  let at = -1;
  return steps.map(([what, pred]) => {
    const i = find(cs, pred, at);
    expect(i, `${what} (after entry ${at}: ${cs[at]?.tool} ${cs[at]?.text ?? ""})`).toBeGreaterThan(at);
    at = i;
    return i;
  });
}

/** The emulated cluster (stand-in state) behind an endpoint host:port. */
function clusterState(endpoint: string): { nodes: string[]; members: string[]; dir: string } {
  const base = path.join(labEnv.state_dir, "standins/kubernetes");
  const id = readFileSync(path.join(base, "endpoints", endpoint), "utf8").trim();
  const dir = path.join(base, "clusters", id);
  return { dir, nodes: readdirSync(path.join(dir, "nodes")).sort(), members: readdirSync(path.join(dir, "etcd")).sort() };
}

/** A file in a VM host's own tree. */
function hostFile(serverId: string, file: string): string {
  return readFileSync(path.join(labEnv.state_dir, "hosts", serverId, "root", file), "utf8");
}

const PROXY_PASSWORD_HTTP = canary("proxy-password-http");
const PROXY_PASSWORD_HTTPS = canary("proxy-password-https");
const PULL_PASSWORD = canary("registry-pull-password");
const HTTP_PROXY = `http://user1:${PROXY_PASSWORD_HTTP}@host1:3128`;

type Flavour = "simple" | "complex" | "podaffinity";
const REQUEST_FILES: Record<Flavour, string> = { simple: "private_registry_kubernetes_param_file.json", complex: "complex_request.json", podaffinity: "podaffinity_request.json" };

function request(flavour: Flavour): string {
  const net = labResources(labEnv)["network.lab-net"];
  const file = REQUEST_FILES[flavour];
  // The seed's file has `#` comments (accepted with a warning): strip them to keep the test quiet.
  // The proxies' and the pull registry's passwords are canaries, looked for by this file's canary scan.
  const text = readFileSync(path.join(ROOT, "test/fixtures/k8s-cluster", file), "utf8").replace(/\s#[^\n]*/g, "")
    .replaceAll("user1:password1@", `user1:${PROXY_PASSWORD_HTTP}@`).replaceAll("user2:password2@", `user2:${PROXY_PASSWORD_HTTPS}@`)
    .replaceAll('"pull-s3cret"', JSON.stringify(PULL_PASSWORD));
  const r = JSON.parse(text) as { extVirtualLinks: { resourceId: string }[] };
  for (const l of r.extVirtualLinks) l.resourceId = net;
  const out = path.join(work, `${flavour}.json`);
  writeFileSync(out, JSON.stringify(r, null, 2));
  return out;
}

class ClusterStack {
  local!: LocalStack;
  stack!: Stack;
  constructor(readonly name: string, readonly vnf: string, readonly flavour: Flavour, readonly cluster: Record<string, string> = {}, readonly registryVnf?: string) {}

  async open(): Promise<void> {
    this.local = await openLocalStack({ stackName: this.name });
    this.stack = this.local.stack;
    const set = (k: string, v: string) => this.stack.setConfig(`pulumi-nfv:${k}`, { value: v }, true);
    await set("vims.lab.file", labEnv.vim_config);
    const v = `vnfs.${this.vnf}`;
    await set(`${v}.vim`, "lab");
    await set(`${v}.package`, path.join(work, "package"));
    await set(`${v}.instantiate_request`, request(this.flavour));
    await set(`${v}.ssh.user`, "ubuntu");
    await set(`${v}.ssh.private_key_file`, path.join(work, "id_ed25519"));
    await set(`${v}.ssh.public_key_file`, path.join(work, "id_ed25519.pub"));
    for (const [k, val] of Object.entries({ ...CLUSTER, ...this.cluster })) await set(`${v}.cluster.${k}`, val);
    if (this.registryVnf) {
      // The private registry VNF in the same stack, its connection info handed to the cluster.
      const r = `vnfs.${this.registryVnf}`;
      const seed = readFileSync(path.join(ROOT, "test/fixtures/vnf/private_registry_param_file.json"), "utf8");
      const file = path.join(work, `${this.registryVnf}.json`);
      writeFileSync(file, seed.replace("f0c82461-36b5-4d86-8322-b0bc19cda65f", labResources(labEnv)["network.lab-net"]));
      await set(`${r}.vim`, "lab");
      await set(`${r}.package`, path.join(ROOT, "../shared/vnf-packages/private_registry_vnf_package"));
      await set(`${r}.instantiate_request`, file);
      await set(`${r}.mode`, "native");
      await set(`${r}.ssh.user`, "ubuntu");
      await set(`${r}.ssh.private_key_file`, path.join(work, "id_ed25519"));
      await set(`${r}.ssh.public_key_file`, path.join(work, "id_ed25519.pub"));
      await set(`${v}.cluster.private_registries[0]`, this.registryVnf);
    }
  }

  servers(): Server[] {
    return os<Server[]>("server", "list", "--all-projects").filter((s) => s.Name.startsWith(`${this.vnf}-`)).sort((a, b) => a.Name.localeCompare(b.Name));
  }

  server(vnfc: string): Server {
    return this.servers().find((s) => s.Name === `${this.vnf}-vnf-${vnfc}`)!;
  }

  nfv(...args: string[]) {
    return runNfv(this.local.env, args);
  }

  /**
   * Runs an operation (up, nfv scale, nfv heal) to the end. Under load the lab's agent can take
   * minutes to replace a VM host, so a replaced server's address may still answer from the old
   * host: prepare-node.sh then refuses (cloud-init's instance id is not the new server's) and the
   * operation stops there; and an address Neutron gave again may still be held by the host of
   * another project's deleted server (SSH refuses our key). As an operator would, wait until the
   * agent has every server's host, and no other host holds their addresses, and run `up` again.
   */
  async run(label: string, op: () => Promise<void>): Promise<void> {
    await timed(label, async () => {
      let replace: string[] = [];
      for (let attempt = 0; ; attempt++) {
        try {
          await (attempt === 0 ? op() : this.stack.up({ color: "never", replace }).then(() => undefined));
          return;
        } catch (e) {
          const msg = String((e as Error).message);
          const stale = /this host is server \S+, not \S+|ssh \S+@[\d.]+:22: ssh: handshake failed: ssh: unable to authenticate/.exec(msg);
          const errored = NOVA_GROUP_RACE.exec(msg);
          if (attempt >= 3 || !(stale || errored)) throw e;
          if (errored) {
            // Heal the server Nova left in ERROR, as `nfv heal --vnfc` would (if the state kept it).
            novaGroupRaceRetries.push(`${label}: ${errored[1]}`);
            const kept = (await this.stack.exportStack()).deployment.resources.some((r: { urn: string }) => r.urn === errored[1]);
            replace = kept ? [errored[1]] : [];
          } else {
            staleHostRetries.push(`${label}: ${stale![0]}`);
            replace = [];
            await this.waitForHosts();
          }
        }
      }
    });
  }

  /** Until the agent's host of every server of this VNF answers SSH (hosts/index.json). */
  async waitForHosts(): Promise<void> {
    for (let i = 0; i < 120; i++) {
      const index = JSON.parse(readFileSync(path.join(labEnv.state_dir, "hosts/index.json"), "utf8")) as Record<string, { ssh_ready: boolean; ips: string[] }>;
      const ours = this.servers();
      const ips = new Set(ours.flatMap((s) => index[s.ID]?.ips ?? []));
      const clash = Object.entries(index).some(([id, h]) => !ours.some((s) => s.ID === id) && h.ips.some((ip) => ips.has(ip)));
      if (ours.every((s) => index[s.ID]?.ssh_ready) && !clash) return;
      await new Promise((r) => setTimeout(r, 5000));
    }
    throw new Error(`the VM hosts of ${this.vnf} did not come up`);
  }

  async close(): Promise<void> {
    await this.stack?.destroy({ color: "never" }).catch(() => undefined);
    await this.stack?.workspace.removeStack(this.name).catch(() => undefined);
    rmSync(path.join(ROOT, `stacks/Pulumi.${this.name}.yaml`), { force: true });
    this.local?.dispose();
  }
}

/** The VIP port, and every port of the cluster with its allowed address pairs (through the API). */
function vipAndPairs(vnf: string): { vip: string; pairs: Record<string, string[]> } {
  const ports = os<{ ID: string; Name: string }[]>("port", "list").filter((p) => p.Name.startsWith(`${vnf}-`));
  const vipPort = ports.find((p) => p.Name === `${vnf}-vip_CP`)!;
  const show = (id: string) => os<{ fixed_ips: { ip_address: string }[]; allowed_address_pairs: { ip_address: string }[] }>("port", "show", id);
  const vip = show(vipPort.ID).fixed_ips[0].ip_address;
  const pairs: Record<string, string[]> = {};
  for (const p of ports.filter((x) => x !== vipPort)) pairs[p.Name] = show(p.ID).allowed_address_pairs.map((a) => a.ip_address);
  return { vip, pairs };
}

beforeAll(() => {
  if (!enabled) return;
  work = mkdtempSync(path.join(tmpdir(), "nfv-it-k8s-"));
  labEnv = labUp();
  execFileSync("ssh-keygen", ["-q", "-t", "ed25519", "-N", "", "-C", "it-k8s", "-f", path.join(work, "id_ed25519")]);
  // The package as an operator ships it: the HTTPS registry's CA under Files/ (certificate_path).
  cpSync(PACKAGE, path.join(work, "package"), { recursive: true });
  mkdirSync(path.join(work, "package/Files"), { recursive: true });
  cpSync(path.join(ROOT, "test/fixtures/k8s-cluster/Files/registry-ca.crt"), path.join(work, "package/Files/registry-ca.crt"));
  // And its Helm installation script (helm_installation_script_path of the complex request).
  cpSync(path.join(ROOT, "test/fixtures/k8s-cluster/Scripts"), path.join(work, "package/Scripts"), { recursive: true });
}, 1_800_000);

afterAll(() => {
  console.log(`timings (s): ${JSON.stringify(timings)}`);
  console.log(`stale-host retries: ${staleHostRetries.length} ${JSON.stringify(staleHostRetries)}`);
  console.log(`Nova group-race heals: ${novaGroupRaceRetries.length} ${JSON.stringify(novaGroupRaceRetries)}`);
  if (work) rmSync(work, { recursive: true, force: true });
});

describe.skipIf(!enabled)("K8sCluster flavour simple on the lab OpenStack: up, worker scale-out and scale-in, destroy", () => {
  const c = new ClusterStack("it-k8s-simple", "k8ss", "simple");
  let t0 = 0;
  let endpoint = "";
  beforeAll(async () => {
    await c.open();
  }, 600_000);
  afterAll(async () => {
    await c.close();
  }, 900_000);

  it("up: 3 servers, the VIP port's address in the master port's allowed address pairs, init then worker joins with token and CA hash", async () => {
    t0 = since();
    await c.run("simple up", () => c.stack.up({ color: "never" }).then(() => undefined));
    const up = { outputs: await c.stack.outputs() };
    expect(c.servers().map((s) => [s.Name, s.Status])).toEqual([["k8ss-vnf-masterNode-0", "ACTIVE"], ["k8ss-vnf-workerNode-0", "ACTIVE"], ["k8ss-vnf-workerNode-1", "ACTIVE"]]);
    const { vip, pairs } = vipAndPairs("k8ss");
    expect(pairs["k8ss-vnf-masterNode-0-masterNode_CP1"]).toEqual([vip]);
    expect(pairs["k8ss-vnf-workerNode-0-workerNode_CP2"]).toEqual([]);
    const out = (up.outputs.vnfs.value as Record<string, unknown>).k8ss as { endpoint: string; vimName: string; vnfcs: Record<string, unknown> };
    endpoint = `${vip}:16443`;
    expect(out.endpoint).toBe(`https://${endpoint}`);
    expect(Object.keys(out.vnfcs).sort()).toEqual(["masterNode-0", "workerNode-0", "workerNode-1"]);
    // The kubeconfig is only in the state as a secret (ciphertext), never under vnfs.
    expect(await outputIsSecretInState(c.stack, "kubeconfigs", "kubernetes_vim")).toBe(true);
    const stackOutputs = (await c.stack.exportStack()).deployment.resources.find((r: { type: string }) => r.type === "pulumi:pulumi:Stack").outputs;
    expect(JSON.stringify(stackOutputs.vnfs)).not.toContain("client-key-data");

    const log = calls("k8ss-vnf-", t0);
    const m = on(log, "k8ss-vnf-masterNode-0");
    inOrder(m, [
      ["hostname set", is("hostnamectl", /^set-hostname k8ss-masternode-0$/)],
      ["packages pinned", is("apt-get", /install .*kubeadm=1\.30\.14-1\.1 .*etcd-client=3\.4\.23-4\+b6/)],
      ["containerd started", is("systemctl", /^enable --now containerd$/)],
      ["registries: containerd restarted", is("systemctl", /^restart containerd$/)],
      ["HAProxy config checked by the real haproxy -c", is("systemctl", /haproxy -c \(real\).*valid, 1 backend servers: k8ss-masternode-0/, "emul")],
      ["keepalived config checked for real", is("systemctl", /keepalived --config-test \(real\).*valid/, "emul")],
      ["kubeadm init", is("kubeadm", /^init --config /)],
      ["cluster made at the VIP", is("kubeadm", new RegExp(`^init: cluster .* at ${endpoint.replace(/\./g, "\\.")} `), "emul")],
      ["admin ServiceAccount token Secret", is("kubectl", /Secret kube-system\/nfv-admin-token \(kubernetes\.io\/service-account-token\)/, "emul")],
      ["a bootstrap token for the workers", is("kubeadm", /^token create --ttl 1h/)],
    ]);
    expect(m.some(is("kubeadm", /^certs certificate-key/)), "no certificate key without a second master").toBe(false);
    const initAt = m.find(is("kubeadm", /^init --config /))!.ts;
    for (const w of ["workerNode-0", "workerNode-1"]) {
      const node = `k8ss-${w.toLowerCase()}`;
      const joined = on(log, `k8ss-vnf-${w}`).find(is("kubeadm", new RegExp(`^join: ${node} \\(.*\\) joined .* as worker \\(token ok, ca-cert-hash ok \\(openssl\\)\\)$`), "emul"));
      expect(joined, `${w} joined`).toBeDefined();
      expect(joined!.ts).toBeGreaterThan(initAt);
    }
    const state = clusterState(endpoint);
    expect(state.nodes).toEqual(["k8ss-masternode-0", "k8ss-workernode-0", "k8ss-workernode-1"]);
    expect(state.members).toEqual(["k8ss-masternode-0"]);

    // Files the scripts wrote in the hosts' own trees.
    const master = c.server("masterNode-0").ID;
    const worker = c.server("workerNode-0").ID;
    const proxy = hostFile(worker, "etc/systemd/system/containerd.service.d/nfv-proxy.conf");
    const noProxy = /"NO_PROXY=([^"]+)"/.exec(proxy)![1].split(",");
    expect(noProxy).toEqual(expect.arrayContaining([vip, "10.10.0.0/24", "192.168.0.0/16", "10.199.187.0/24", "192.168.246.10", "localhost", ".svc", ".cluster.local"]));
    // Byte for byte what components/host-files writes from the request's proxy (issue 19): apt.conf,
    // and the same drop-in for containerd and the kubelet (NO_PROXY as the node got it, checked above).
    const httpProxy = HTTP_PROXY as ProxyUrl;
    const httpsProxy = `https://user2:${PROXY_PASSWORD_HTTPS}@host2:3129` as ProxyUrl;
    expect(hostFile(worker, "etc/apt/apt.conf.d/95nfv-k8s-proxy")).toBe(aptProxyConf({ httpProxy, httpsProxy }));
    expect(proxy).toBe(proxyDropIn({ httpProxy, httpsProxy, noProxy: noProxy.join(",") }));
    expect(hostFile(worker, "etc/systemd/system/kubelet.service.d/nfv-proxy.conf")).toBe(proxy);
    expect(hostFile(worker, "etc/containerd/certs.d/192.168.246.10:5000/hosts.toml")).toContain('server = "http://192.168.246.10:5000"');
    expect(hostFile(worker, "etc/containerd/config.toml")).toContain('sandbox_image = "192.168.246.10:5000/pause:3.9"');
    expect(hostFile(master, "etc/hosts")).toMatch(/# BEGIN nfv-k8s\n(.*\n)*.* k8ss-workernode-1\n/);
    expect(hostFile(master, "etc/haproxy/haproxy.cfg")).toMatch(/server k8ss-masternode-0 [\d.]+:6443/);
    // The API server certificate names the VIP (real openssl on the master's tree).
    const sans = execFileSync("openssl", ["x509", "-noout", "-ext", "subjectAltName", "-in", path.join(labEnv.state_dir, "hosts", master, "root/etc/kubernetes/pki/apiserver.crt")], { encoding: "utf8" });
    expect(sans).toContain(`IP Address:${vip}`);
  });

  it("nfv scale out joins workerNode-2 with a fresh token; scale in drains and deletes it before its server goes", async () => {
    let from = since();
    await c.run("simple scale out", () => nfvOk(c.nfv("scale", "--stack", c.name, "--vnf", "k8ss", "--aspect", "worker_instance", "--steps", "1", "--type", "out")));
    expect(c.servers().map((s) => s.Name)).toEqual(["k8ss-vnf-masterNode-0", "k8ss-vnf-workerNode-0", "k8ss-vnf-workerNode-1", "k8ss-vnf-workerNode-2"]);
    let log = calls("k8ss-vnf-", from);
    inOrder(log, [
      ["a fresh token on the master", (x) => x.host === "k8ss-vnf-masterNode-0" && is("kubeadm", /^token create/)(x)],
      ["workerNode-2 joins", (x) => x.host === "k8ss-vnf-workerNode-2" && is("kubeadm", /^join: k8ss-workernode-2 .* as worker \(token ok, ca-cert-hash ok/, "emul")(x)],
    ]);
    expect(log.filter((x) => x.tool === "kubeadm" && x.kind === "call" && x.host !== "k8ss-vnf-workerNode-2" && x.host !== "k8ss-vnf-masterNode-0"), "other nodes untouched").toEqual([]);
    expect(clusterState(endpoint).nodes).toHaveLength(4);
    const leaving = c.server("workerNode-2").ID;

    from = since();
    await c.run("simple scale in", () => nfvOk(c.nfv("scale", "--stack", c.name, "--vnf", "k8ss", "--aspect", "worker_instance", "--steps", "1", "--type", "in")));
    expect(c.servers().map((s) => s.Name)).toEqual(["k8ss-vnf-masterNode-0", "k8ss-vnf-workerNode-0", "k8ss-vnf-workerNode-1"]);
    log = on(calls("k8ss-vnf-", from), "k8ss-vnf-masterNode-0");
    const [, , del] = inOrder(log, [
      ["cordon", is("kubectl", /cordon k8ss-workernode-2$/)],
      ["drain", is("kubectl", /drain k8ss-workernode-2 --ignore-daemonsets/)],
      ["delete node", is("kubectl", /delete node k8ss-workernode-2$/)],
    ]);
    expect(clusterState(endpoint).nodes).toEqual(["k8ss-masternode-0", "k8ss-workernode-0", "k8ss-workernode-1"]);
    // The node was deleted while its server was still there: the agent removed the host afterwards.
    // (The agent notices deleted servers late under load: wait for it.)
    let removed: RegExpExecArray | null = null;
    for (let i = 0; i < 60 && !removed; i++) {
      const agentLog = readFileSync(path.join(labEnv.state_dir, "log/vmhost-agent.log"), "utf8");
      removed = new RegExp(`^(\\d\\d):(\\d\\d):(\\d\\d) host for server ${leaving} removed`, "m").exec(agentLog);
      if (!removed) await new Promise((res) => setTimeout(res, 5000));
    }
    expect(removed, "the agent removed workerNode-2's host").not.toBeNull();
    const d = new Date(log[del].ts * 1000);
    const delSeconds = d.getUTCHours() * 3600 + d.getUTCMinutes() * 60 + d.getUTCSeconds();
    expect(delSeconds).toBeLessThanOrEqual(Number(removed![1]) * 3600 + Number(removed![2]) * 60 + Number(removed![3]));
  });

  it("nfv heal of the whole VNF: every server replaced on its ports, the cluster made again (init on the new master, both workers join it)", async () => {
    const before = Object.fromEntries(c.servers().map((s) => [s.Name, s.ID]));
    const ports = () => os<{ ID: string; Name: string }[]>("port", "list").filter((p) => p.Name.startsWith("k8ss-")).map((p) => p.ID).sort();
    const portsBefore = ports();
    const oldCluster = clusterState(endpoint).dir;
    const caOf = async () => (await c.stack.outputs()).vnfs.value.k8ss.caCertificate as string | undefined;
    const caBefore = await caOf();
    const from = since();
    await c.run("simple whole heal", () => nfvOk(c.nfv("heal", "--stack", c.name, "--vnf", "k8ss")));
    const after = c.servers();
    expect(after.map((s) => [s.Name, s.Status])).toEqual(Object.keys(before).sort().map((n) => [n, "ACTIVE"]));
    for (const s of after) expect(s.ID, s.Name).not.toBe(before[s.Name]);
    expect(ports()).toEqual(portsBefore);
    const config = await c.stack.getAllConfig();
    const entry = JSON.parse(config["pulumi-nfv:vnfs"].value).k8ss as Record<string, unknown>;
    expect(entry.heal_generation).toBe(1);

    const log = calls("k8ss-vnf-", from);
    const [initAt] = inOrder(on(log, "k8ss-vnf-masterNode-0"), [
      ["kubeadm init on the new master", is("kubeadm", /^init --config /)],
      ["a bootstrap token for the workers", is("kubeadm", /^token create --ttl 1h/)],
    ]).map((i) => on(log, "k8ss-vnf-masterNode-0")[i].ts);
    for (const w of ["workerNode-0", "workerNode-1"]) {
      const joined = on(log, `k8ss-vnf-${w}`).find(is("kubeadm", /as worker \(token ok, ca-cert-hash ok \(openssl\)\)$/, "emul"));
      expect(joined, `${w} joined the new cluster`).toBeDefined();
      expect(joined!.ts).toBeGreaterThan(initAt);
    }
    const state = clusterState(endpoint);
    expect(state.dir, "the endpoint leads to a new cluster").not.toBe(oldCluster);
    expect(state.nodes).toEqual(["k8ss-masternode-0", "k8ss-workernode-0", "k8ss-workernode-1"]);
    expect(state.members).toEqual(["k8ss-masternode-0"]);
    // The VIM's CA is the new cluster's.
    const caAfter = await caOf();
    expect(caAfter).toContain("BEGIN CERTIFICATE");
    expect(caAfter).not.toBe(caBefore);
    expect(caAfter!.trim()).toBe(readFileSync(path.join(state.dir, "pki/ca.crt"), "utf8").trim());
  });

  it("destroy leaves no server or port of the cluster", async () => {
    await timed("simple destroy", () => c.stack.destroy({ color: "never" }));
    expect(c.servers()).toEqual([]);
    expect(os<{ Name: string }[]>("port", "list").filter((p) => p.Name.startsWith("k8ss-"))).toEqual([]);
  });
});

describe.skipIf(!enabled)("K8sCluster flavour complex on the lab OpenStack: 3 masters behind the VIP, master heal", () => {
  const c = new ClusterStack("it-k8s-complex", "k8sc", "complex");
  let t0 = 0;
  let endpoint = "";
  beforeAll(async () => {
    await c.open();
  }, 600_000);
  afterAll(async () => {
    await c.close();
  }, 900_000);

  it("up: 5 servers, the VIP in every master port's pairs, masters join one after the other with the certificate key, then workers", async () => {
    t0 = since();
    await c.run("complex up", () => c.stack.up({ color: "never" }).then(() => undefined));
    expect(c.servers().map((s) => s.Name)).toEqual(["k8sc-vnf-masterNode-0", "k8sc-vnf-masterNode-1", "k8sc-vnf-masterNode-2", "k8sc-vnf-workerNode-0", "k8sc-vnf-workerNode-1"]);
    const { vip, pairs } = vipAndPairs("k8sc");
    for (const i of [0, 1, 2]) expect(pairs[`k8sc-vnf-masterNode-${i}-masterNode_CP1`], `masterNode-${i}`).toEqual([vip]);
    endpoint = `${vip}:16443`;

    const log = calls("k8sc-vnf-", t0);
    const joinOf = (n: string) => log.findIndex(is("kubeadm", new RegExp(`^join: k8sc-${n.toLowerCase()} `), "emul"));
    const init = log.findIndex(is("kubeadm", /^init --config/));
    expect(log[init].host).toBe("k8sc-vnf-masterNode-0");
    for (const m of ["masterNode-1", "masterNode-2"]) expect(log[joinOf(m)].text).toMatch(/as control-plane \(token ok, ca-cert-hash ok \(openssl\), certificate-key ok\); etcd member added/);
    expect(init).toBeLessThan(joinOf("masterNode-1"));
    expect(joinOf("masterNode-1")).toBeLessThan(joinOf("masterNode-2"));
    for (const w of ["workerNode-0", "workerNode-1"]) {
      expect(log[joinOf(w)].text).toMatch(/as worker \(token ok, ca-cert-hash ok \(openssl\)\)$/);
      expect(joinOf(w)).toBeGreaterThan(joinOf("masterNode-2"));
    }
    // Each control-plane join got its own certificate key, uploaded on masterNode-0 just before.
    expect(on(log, "k8sc-vnf-masterNode-0").filter(is("kubeadm", /^init phase upload-certs --upload-certs/))).toHaveLength(2);
    const state = clusterState(endpoint);
    expect(state.members).toEqual(["k8sc-masternode-0", "k8sc-masternode-1", "k8sc-masternode-2"]);
    expect(state.nodes).toHaveLength(5);
    // Every master ends with HAProxy over all three (checked by the real haproxy -c): the first one
    // from its bootstrap before init (the same configuration, so not rewritten later), the others
    // once every master has joined.
    for (const i of [0, 1, 2]) {
      const checks = on(log, `k8sc-vnf-masterNode-${i}`).filter(is("systemctl", /haproxy -c \(real\)/, "emul"));
      expect(checks.at(-1)!.text, `masterNode-${i}`).toMatch(/3 backend servers: k8sc-masternode-0 k8sc-masternode-1 k8sc-masternode-2 $/);
      if (i > 0) expect(checks.at(-1)!.ts).toBeGreaterThan(log[joinOf("masterNode-2")].ts);
      expect(hostFile(c.server(`masterNode-${i}`).ID, "etc/haproxy/haproxy.cfg").match(/^ +server /gm)).toHaveLength(3);
    }
    expect(log[init].ts).toBeGreaterThan(on(log, "k8sc-vnf-masterNode-0").find(is("systemctl", /haproxy -c \(real\)/, "emul"))!.ts);
    // The HTTPS registry: hosts.toml with its CA, credentials for the kubelet, its /etc/hosts line.
    const w = c.server("workerNode-1").ID;
    expect(hostFile(w, "etc/containerd/certs.d/registry.example:5443/hosts.toml")).toContain('ca = "/etc/containerd/certs.d/registry.example:5443/ca.crt"');
    expect(hostFile(w, "etc/containerd/certs.d/registry.example:5443/ca.crt")).toBe(readFileSync(path.join(ROOT, "test/fixtures/k8s-cluster/Files/registry-ca.crt"), "utf8").trimEnd() + "\n");
    expect(statSync(path.join(labEnv.state_dir, "hosts", w, "root/var/lib/kubelet/config.json")).mode & 0o777).toBe(0o600);
    expect(hostFile(w, "etc/hosts")).toContain("192.168.246.11 registry.example");
    // helm_installation_script_path: the package's script ran on every master (none on the workers),
    // with the admin kubeconfig and the request's proxy in its environment.
    for (const i of [0, 1, 2]) {
      const env = hostFile(c.server(`masterNode-${i}`).ID, "var/tacker/helm/install.env");
      expect(env, `masterNode-${i}`).toBe(`KUBECONFIG=/etc/kubernetes/admin.conf\nhttp_proxy=${HTTP_PROXY}\nno_proxy_set=yes\n`);
      expect(hostFile(c.server(`masterNode-${i}`).ID, "usr/local/bin/helm")).toContain("fixture install_helm.sh");
    }
    expect(existsSync(path.join(labEnv.state_dir, "hosts", w, "root/usr/local/bin/helm"))).toBe(false);
  });

  it("nfv heal --vnfc masterNode-1: out of the survivors' HAProxy, node and etcd member removed, server replaced, rejoined, backends restored", async () => {
    const before = c.server("masterNode-1");
    const portsBefore = os<{ ID: string; Name: string }[]>("port", "list").filter((p) => p.Name.startsWith("k8sc-")).map((p) => p.ID).sort();
    const from = since();
    await c.run("complex heal masterNode-1", () => nfvOk(c.nfv("heal", "--stack", c.name, "--vnf", "k8sc", "--vnfc", "masterNode-1")));
    const after = c.server("masterNode-1");
    expect(after.ID).not.toBe(before.ID);
    for (const other of ["masterNode-0", "masterNode-2", "workerNode-0"]) expect(c.server(other).Status).toBe("ACTIVE");
    expect(os<{ ID: string; Name: string }[]>("port", "list").filter((p) => p.Name.startsWith("k8sc-")).map((p) => p.ID).sort()).toEqual(portsBefore);

    const log = calls("k8sc-vnf-", from);
    const survivorsLb = ["masterNode-0", "masterNode-2"].map((m) => log.findIndex((x) => x.host === `k8sc-vnf-${m}` && is("systemctl", /haproxy -c \(real\).*2 backend servers: k8sc-masternode-0 k8sc-masternode-2 $/, "emul")(x)));
    for (const i of survivorsLb) expect(i, "HAProxy without masterNode-1 on the survivors").toBeGreaterThanOrEqual(0);
    const anchor = on(log, "k8sc-vnf-masterNode-0");
    inOrder(anchor, [
      ["drain", is("kubectl", /drain k8sc-masternode-1 /)],
      ["delete node", is("kubectl", /delete node k8sc-masternode-1$/)],
      ["etcd member list", is("etcdctl", /member list$/)],
      ["etcd member removed", is("etcdctl", /^member remove: etcd member k8sc-masternode-1 /, "emul")],
      ["fresh certificate key uploaded", is("kubeadm", /^init phase upload-certs/)],
    ]);
    const removedAt = log.findIndex(is("etcdctl", /^member remove: /, "emul"));
    for (const i of survivorsLb) expect(i).toBeLessThan(removedAt);
    const rejoin = log.findIndex(is("kubeadm", /^join: k8sc-masternode-1 .* as control-plane \(token ok, ca-cert-hash ok \(openssl\), certificate-key ok\); etcd member added, 3 members/, "emul"));
    expect(rejoin).toBeGreaterThan(removedAt);
    expect(log[rejoin].host).toBe("k8sc-vnf-masterNode-1");
    for (const m of ["masterNode-0", "masterNode-1", "masterNode-2"]) {
      const restored = log.findIndex((x) => x.host === `k8sc-vnf-${m}` && is("systemctl", /haproxy -c \(real\).*3 backend servers/, "emul")(x));
      expect(restored, `${m}: HAProxy with the three masters again`).toBeGreaterThan(rejoin);
    }
    // Workers and the first master were not re-joined.
    expect(log.filter((x) => x.tool === "kubeadm" && /^join --config/.test(x.text)).map((x) => x.host)).toEqual(["k8sc-vnf-masterNode-1"]);
    const state = clusterState(endpoint);
    expect(state.members).toEqual(["k8sc-masternode-0", "k8sc-masternode-1", "k8sc-masternode-2"]);
    expect(state.nodes).toHaveLength(5);
    // The replaced host is a fresh tree (its own new certificates), the call log continued across it.
    expect(hostFile(after.ID, "etc/kubernetes/admin.conf")).toContain(`server: https://${endpoint}`);
    // Helm again on the new master, after it rejoined.
    expect(hostFile(after.ID, "usr/local/bin/helm")).toContain("fixture install_helm.sh");
  });

  it("destroy leaves no server or port of the cluster", async () => {
    await timed("complex destroy", () => c.stack.destroy({ color: "never" }));
    expect(c.servers()).toEqual([]);
    expect(os<{ Name: string }[]>("port", "list").filter((p) => p.Name.startsWith("k8sc-"))).toEqual([]);
  });
});

interface ServerPlacementView { "OS-EXT-SRV-ATTR:host": string; "OS-EXT-AZ:availability_zone": string }

describe.skipIf(!enabled)("K8sCluster flavour podaffinity on the lab OpenStack: server groups, workers labelled with their compute host, a registry VNF of the stack", () => {
  // The lab has two compute hosts: three masters fit only a soft policy; the two workers keep Tacker's hard one.
  const c = new ClusterStack("it-k8s-podaffinity", "k8sp", "podaffinity", { master_server_group: "soft-anti-affinity" }, "k8spreg");
  let endpoint = "";
  beforeAll(async () => {
    await c.open();
  }, 600_000);
  afterAll(async () => {
    await c.close();
  }, 900_000);

  const placement = (vnfc: string) => os<ServerPlacementView>("server", "show", c.server(vnfc).ID);
  const labels = (node: string) => Object.fromEntries(readFileSync(path.join(clusterState(endpoint).dir, "nodes", node), "utf8")
    .split("\n").filter((l) => l.startsWith("label.")).map((l) => [l.slice(6, l.indexOf("=")), l.slice(l.indexOf("=") + 1)]));

  it("up: a server group per role through the API; the workers on different compute hosts, each labelled with its own host and zone; the registry VNF's endpoint on the nodes", async () => {
    const t0 = since();
    await c.run("podaffinity up", () => c.stack.up({ color: "never" }).then(() => undefined));
    const { vip } = vipAndPairs("k8sp");
    endpoint = `${vip}:16443`;
    const groups = os<{ ID: string; Name: string }[]>("server", "group", "list", "--all-projects").filter((g) => g.Name.startsWith("k8sp-"));
    const show = (name: string) => os<{ policy?: string; policies?: string | string[]; members: string | string[] }>("server", "group", "show", groups.find((g) => g.Name === name)!.ID);
    // The client prints lists as lists or as "a, b" depending on its version.
    const list = (v: string | string[] | undefined) => (Array.isArray(v) ? v : String(v ?? "").split(/,\s*/).filter(Boolean)).sort();
    const policy = (name: string) => { const g = show(name); return g.policy ?? list(g.policies).join(","); };
    const members = (name: string) => list(show(name).members);
    expect(groups.map((g) => g.Name).sort()).toEqual(["k8sp-vnf-masterNode_server_group", "k8sp-vnf-workerNode_server_group"]);
    expect([policy("k8sp-vnf-masterNode_server_group"), policy("k8sp-vnf-workerNode_server_group")]).toEqual(["soft-anti-affinity", "anti-affinity"]);
    expect(members("k8sp-vnf-workerNode_server_group")).toEqual(["workerNode-0", "workerNode-1"].map((w) => c.server(w).ID).sort());
    expect(members("k8sp-vnf-masterNode_server_group")).toEqual(["masterNode-0", "masterNode-1", "masterNode-2"].map((m) => c.server(m).ID).sort());

    const [w0, w1] = ["workerNode-0", "workerNode-1"].map(placement);
    expect(w0["OS-EXT-SRV-ATTR:host"]).not.toBe(w1["OS-EXT-SRV-ATTR:host"]);
    // The lab VIM's user has the admin role in its project (as a Tacker VIM's user has): Nova shows it the host's name.
    for (const [w, p] of [["workerNode-0", w0], ["workerNode-1", w1]] as const) {
      expect(labels(`k8sp-${w.toLowerCase()}`), w).toEqual({ "CIS-node": p["OS-EXT-SRV-ATTR:host"], "topology.kubernetes.io/zone": p["OS-EXT-AZ:availability_zone"] });
    }
    expect(labels("k8sp-masternode-1")).toEqual({});
    // The registry VNF's real endpoint (its server's port) reached every node: containerd, the kubelet's credentials, no_proxy.
    const outputs = (await c.stack.outputs()).vnfs.value as Record<string, { endpoint: string }>;
    const registry = outputs.k8spreg.endpoint;
    expect(registry).toMatch(/^10\.10\.0\.\d+:5000$/);
    for (const vnfc of ["masterNode-0", "workerNode-1"]) {
      const id = c.server(vnfc).ID;
      expect(hostFile(id, `etc/containerd/certs.d/${registry}/hosts.toml`), vnfc).toContain(`server = "http://${registry}"`);
      expect(Object.keys((JSON.parse(hostFile(id, "var/lib/kubelet/config.json")) as { auths: object }).auths), vnfc).toContain(registry);
      expect(/"NO_PROXY=([^"]+)"/.exec(hostFile(id, "etc/systemd/system/containerd.service.d/nfv-proxy.conf"))![1].split(","), vnfc).toContain(registry.split(":")[0]);
    }
    // Labelled on the anchor master, after the worker's join.
    const log = calls("k8sp-vnf-", t0);
    for (const w of ["workernode-0", "workernode-1"]) {
      const join = log.findIndex(is("kubeadm", new RegExp(`^join: k8sp-${w} `), "emul"));
      const label = log.findIndex(is("kubectl", new RegExp(`^label: node k8sp-${w} CIS-node=`), "emul"));
      expect(join, w).toBeGreaterThanOrEqual(0);
      expect(label, w).toBeGreaterThan(join);
      expect(log[label].host).toBe("k8sp-vnf-masterNode-0");
    }
  });

  it("nfv heal --vnfc workerNode-0: the new server is labelled again, with the host Nova put it on", async () => {
    const before = c.server("workerNode-0").ID;
    const from = since();
    await c.run("podaffinity heal workerNode-0", () => nfvOk(c.nfv("heal", "--stack", c.name, "--vnf", "k8sp", "--vnfc", "workerNode-0")));
    expect(c.server("workerNode-0").ID).not.toBe(before);
    const [w0, w1] = ["workerNode-0", "workerNode-1"].map(placement);
    expect(w0["OS-EXT-SRV-ATTR:host"]).not.toBe(w1["OS-EXT-SRV-ATTR:host"]);
    expect(labels("k8sp-workernode-0")["CIS-node"]).toBe(w0["OS-EXT-SRV-ATTR:host"]);
    const relabel = calls("k8sp-vnf-", from).filter(is("kubectl", /label node k8sp-workernode-\d /));
    expect(relabel.map((x) => /label node (\S+) /.exec(x.text)![1])).toEqual(["k8sp-workernode-0"]);
  });

  it("destroy leaves no server, port or server group of the cluster or the registry", async () => {
    await timed("podaffinity destroy", () => c.stack.destroy({ color: "never" }));
    expect(c.servers()).toEqual([]);
    expect(os<Server[]>("server", "list", "--all-projects").filter((s) => s.Name.startsWith("k8spreg-"))).toEqual([]);
    expect(os<{ Name: string }[]>("server", "group", "list", "--all-projects").filter((g) => g.Name.startsWith("k8sp-"))).toEqual([]);
  });
});
