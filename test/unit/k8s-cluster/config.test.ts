/**
 * The generated configuration, checked by the real tools where Debian has them: `haproxy -c -f`
 * and `keepalived --config-test -f` (Debian packages `haproxy`, `keepalived`), containerd's TOML
 * parsed by smol-toml, kubeadm's YAML parsed and read field by field. Proves the files are valid
 * and say what we mean; not that a cluster comes up with them.
 */
import { execFileSync, spawnSync } from "node:child_process";
import { mkdtempSync, readdirSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import * as path from "node:path";
import { parse as parseToml } from "smol-toml";
import { describe, expect, it } from "vitest";
import { parseAllDocuments, parse as parseYaml } from "yaml";
import * as cfg from "../../../components/k8s-cluster/config";

const dir = mkdtempSync(path.join(tmpdir(), "k8s-config-"));
const file = (name: string, text: string) => {
  const p = path.join(dir, name);
  writeFileSync(p, text);
  return p;
};
/** The binary's path, or undefined; tests that need it are skipped with its name. */
const which = (bin: string) => {
  for (const d of ["/usr/sbin", "/usr/bin", "/sbin", "/bin"]) {
    if (spawnSync("test", ["-x", path.join(d, bin)]).status === 0) return path.join(d, bin);
  }
  return undefined;
};
const HAPROXY = which("haproxy");
/** keepalived refuses the loopback interface for VRRP: check against a real one of this machine. */
const NIC = readdirSync("/sys/class/net").find((n) => n !== "lo");
const KEEPALIVED = which("keepalived");

const MASTERS = [
  { name: "k8s-masternode-0", ip: "10.10.0.11" },
  { name: "k8s-masternode-1", ip: "10.10.0.12" },
  { name: "k8s-masternode-2", ip: "10.10.0.13" },
];

describe("HAProxy", () => {
  const text = cfg.haproxyConfig(MASTERS);

  it("listens on :16443 and balances over every master's :6443 with health checks", () => {
    expect(text).toContain("    bind *:16443\n");
    expect(text.split("\n").filter((l) => l.trim().startsWith("server "))).toEqual([
      "    server k8s-masternode-0 10.10.0.11:6443 check inter 3s fall 3 rise 2",
      "    server k8s-masternode-1 10.10.0.12:6443 check inter 3s fall 3 rise 2",
      "    server k8s-masternode-2 10.10.0.13:6443 check inter 3s fall 3 rise 2",
    ]);
    expect(text).not.toMatch(/stats|auth/);
  });

  it.skipIf(!HAPROXY)("haproxy -c accepts it (needs the Debian package haproxy)", () => {
    const out = execFileSync(HAPROXY!, ["-c", "-f", file("haproxy.cfg", text)], { encoding: "utf8", stdio: ["ignore", "pipe", "pipe"] });
    expect(out).toMatch(/Configuration file is valid/);
  });

  it.skipIf(!HAPROXY)("haproxy -c rejects a broken one, so the check above means something", () => {
    const r = spawnSync(HAPROXY!, ["-c", "-f", file("bad.cfg", text.replace("balance roundrobin", "balance sideways"))], { encoding: "utf8" });
    expect(r.status).not.toBe(0);
  });

  it("refuses an empty master list", () => {
    expect(() => cfg.haproxyConfig([])).toThrow(/at least one master/);
  });
});

describe("keepalived", () => {
  const input = {
    nodeName: "k8s-masternode-1",
    nodeIp: "10.10.0.12",
    peerIps: ["10.10.0.11", "10.10.0.13"],
    vip: "10.10.0.100",
    index: 1,
    virtualRouterId: cfg.virtualRouterIdFor("k8s"),
  };
  const text = cfg.keepalivedConfig(input);

  it("VIP /32, unicast to the other masters, priority by position, the interface left to the script", () => {
    expect(text).toContain("        10.10.0.100/32\n");
    expect(text).toContain("    unicast_src_ip 10.10.0.12\n    unicast_peer {\n        10.10.0.11\n        10.10.0.13\n    }");
    expect(text).toContain("    priority 149\n");
    expect(cfg.keepalivedConfig({ ...input, index: 0 })).toContain("    priority 150\n");
    expect(text).toContain(`    interface ${cfg.NIC_PLACEHOLDER}\n`);
    expect(text).toContain("    state BACKUP\n");
  });

  it("the router id comes from the cluster name: stable, in 1..255, different for different clusters", () => {
    const ids = ["k8s", "edge", "core", "lab"].map(cfg.virtualRouterIdFor);
    expect(cfg.virtualRouterIdFor("k8s")).toBe(ids[0]);
    for (const id of ids) {
      expect(id).toBeGreaterThanOrEqual(1);
      expect(id).toBeLessThanOrEqual(255);
    }
    expect(new Set(ids).size).toBe(4);
    expect(() => cfg.keepalivedConfig({ ...input, virtualRouterId: 0 })).toThrow(/outside 1-255/);
  });

  it.skipIf(!KEEPALIVED || !NIC)(
    "keepalived --config-test accepts it, with the interface filled in (needs the Debian package keepalived and a network interface)",
    () => {
      const r = spawnSync(KEEPALIVED!, ["--config-test", "-f", file("keepalived.conf", text.replace(cfg.NIC_PLACEHOLDER, NIC!))], { encoding: "utf8" });
      expect(r.stderr + r.stdout).not.toMatch(/unknown keyword|error/i);
      expect(r.status).toBe(0);
    },
  );

  it.skipIf(!KEEPALIVED || !NIC)("a single master (no peer): no unicast section, and keepalived --config-test accepts it", () => {
    const single = cfg.keepalivedConfig({ ...input, index: 0, peerIps: [] });
    expect(single).not.toContain("unicast");
    const r = spawnSync(KEEPALIVED!, ["--config-test", "-f", file("single.conf", single.replace(cfg.NIC_PLACEHOLDER, NIC!))], { encoding: "utf8" });
    expect(r.stderr + r.stdout).not.toMatch(/unicast|error/i);
    expect(r.status).toBe(0);
  });

  it.skipIf(!KEEPALIVED || !NIC)("keepalived --config-test rejects a broken one", () => {
    const r = spawnSync(
      KEEPALIVED!,
      ["--config-test", "-f", file("bad.conf", text.replace(cfg.NIC_PLACEHOLDER, NIC!).replace("advert_int 1", "advert_intervall 1"))],
      { encoding: "utf8" },
    );
    expect(r.status).not.toBe(0);
    expect(r.stderr + r.stdout).toMatch(/Unknown keyword 'advert_intervall'/);
  });
});

describe("containerd", () => {
  it("hosts.toml for an HTTP registry: plain http, pull and resolve", () => {
    const h = cfg.hostsToml({ connectionType: "0", server: "192.168.246.10:5000" });
    expect(h.dir).toBe("192.168.246.10:5000");
    expect(h.caFile).toBeUndefined();
    expect(parseToml(h.content)).toEqual({
      server: "http://192.168.246.10:5000",
      host: { "http://192.168.246.10:5000": { capabilities: ["pull", "resolve"] } },
    });
  });

  it("hosts.toml for an HTTPS registry with a CA: verified with that CA, never skip_verify", () => {
    const h = cfg.hostsToml({ connectionType: "1", server: "registry.example:5443", certificatePath: "Files/registry-ca.crt" });
    expect(h.caFile).toBe("/etc/containerd/certs.d/registry.example:5443/ca.crt");
    expect(parseToml(h.content)).toEqual({
      server: "https://registry.example:5443",
      host: { "https://registry.example:5443": { capabilities: ["pull", "resolve"], ca: "/etc/containerd/certs.d/registry.example:5443/ca.crt" } },
    });
    expect(h.content).not.toContain("skip_verify");
    // HTTPS with a publicly trusted certificate: no CA file.
    expect(parseToml(cfg.hostsToml({ connectionType: "1", server: "r.example:443" }).content)).toEqual({
      server: "https://r.example:443",
      host: { "https://r.example:443": { capabilities: ["pull", "resolve"] } },
    });
  });

  it("config.toml: pinned pause image, systemd cgroups, certs.d as the registry config path", () => {
    const t = parseToml(cfg.containerdConfig({ sandboxImage: "192.168.246.10:5000/pause:3.9" })) as Record<string, Record<string, Record<string, unknown>>>;
    const cri = t.plugins["io.containerd.grpc.v1.cri"] as Record<string, unknown> & {
      containerd: { runtimes: { runc: { runtime_type: string; options: { SystemdCgroup: boolean } } } };
      registry: { config_path: string };
    };
    expect(t.version).toBe(2);
    expect(cri.sandbox_image).toBe("192.168.246.10:5000/pause:3.9");
    expect(cri.containerd.runtimes.runc).toEqual({ runtime_type: "io.containerd.runc.v2", options: { SystemdCgroup: true } });
    expect(cri.registry).toEqual({ config_path: "/etc/containerd/certs.d" });
  });

  it("registry credentials as the kubelet's Docker config", () => {
    expect(JSON.parse(cfg.registryCredentials([{ server: "192.168.246.10:5000", username: "tacker", password: "tacker" }]))).toEqual({
      auths: { "192.168.246.10:5000": { auth: Buffer.from("tacker:tacker").toString("base64") } },
    });
  });
});

describe("kubeadm", () => {
  const init = {
    kubernetesVersion: "1.30.14",
    clusterName: "k8s",
    controlPlaneEndpoint: "10.10.0.100:16443",
    node: { name: "k8s-masternode-0", ip: "10.10.0.11" },
    podCidr: "192.168.0.0/16",
    serviceCidr: "10.199.187.0/24",
    certSans: ["10.10.0.100", "10.10.0.11", "10.10.0.12", "10.10.0.13", "203.0.113.7", "10.10.0.100"],
    imageRepository: "192.168.246.10:5000/k8s",
  };

  it("init: InitConfiguration, ClusterConfiguration and KubeletConfiguration, field by field (v1beta3 before 1.31)", () => {
    const docs = parseAllDocuments(cfg.kubeadmInitConfig(init)).map((d) => d.toJS());
    expect(docs.map((d) => [d.apiVersion, d.kind])).toEqual([
      ["kubeadm.k8s.io/v1beta3", "InitConfiguration"],
      ["kubeadm.k8s.io/v1beta3", "ClusterConfiguration"],
      ["kubelet.config.k8s.io/v1beta1", "KubeletConfiguration"],
    ]);
    const [i, c, k] = docs;
    expect(i.localAPIEndpoint).toEqual({ advertiseAddress: "10.10.0.11", bindPort: 6443 });
    expect(i.nodeRegistration).toEqual({
      name: "k8s-masternode-0",
      criSocket: "unix:///run/containerd/containerd.sock",
      kubeletExtraArgs: { "node-ip": "10.10.0.11" },
    });
    expect(i.bootstrapTokens).toBeUndefined();
    expect(i.certificateKey).toBeUndefined();
    expect(c.kubernetesVersion).toBe("v1.30.14");
    expect(c.clusterName).toBe("k8s");
    expect(c.controlPlaneEndpoint).toBe("10.10.0.100:16443");
    expect(c.networking).toEqual({ podSubnet: "192.168.0.0/16", serviceSubnet: "10.199.187.0/24", dnsDomain: "cluster.local" });
    // The floating IP is a SAN, so clients on it verify TLS; duplicates dropped.
    expect(c.apiServer).toEqual({ certSANs: ["10.10.0.100", "10.10.0.11", "10.10.0.12", "10.10.0.13", "203.0.113.7"] });
    expect(c.imageRepository).toBe("192.168.246.10:5000/k8s");
    expect(k.cgroupDriver).toBe("systemd");
  });

  it("v1beta4 from 1.31: kubeletExtraArgs as a list", () => {
    const [i, c] = parseAllDocuments(cfg.kubeadmInitConfig({ ...init, kubernetesVersion: "1.31.4" })).map((d) => d.toJS());
    expect(i.apiVersion).toBe("kubeadm.k8s.io/v1beta4");
    expect(c.apiVersion).toBe("kubeadm.k8s.io/v1beta4");
    expect(i.nodeRegistration.kubeletExtraArgs).toEqual([{ name: "node-ip", value: "10.10.0.11" }]);
    expect(() => cfg.kubeadmApiVersion("1.25.0")).toThrow(/1.26 or later/);
    expect(() => cfg.kubeadmApiVersion("latest")).toThrow(/not x.y.z/);
  });

  const TOKEN = "abcdef.0123456789abcdef";
  const HASH = `sha256:${"a".repeat(64)}`;
  const KEY = "b".repeat(64);

  it("join as a worker: token and CA hash discovery through the endpoint; no control plane", () => {
    const j = parseYaml(
      cfg.kubeadmJoinConfig({
        kubernetesVersion: "1.30.14",
        controlPlaneEndpoint: "10.10.0.100:16443",
        node: { name: "k8s-workernode-0", ip: "10.10.0.21" },
        token: TOKEN,
        caCertHash: HASH,
      }),
    );
    expect(j).toEqual({
      apiVersion: "kubeadm.k8s.io/v1beta3",
      kind: "JoinConfiguration",
      discovery: { bootstrapToken: { apiServerEndpoint: "10.10.0.100:16443", token: TOKEN, caCertHashes: [HASH] } },
      nodeRegistration: { name: "k8s-workernode-0", criSocket: "unix:///run/containerd/containerd.sock", kubeletExtraArgs: { "node-ip": "10.10.0.21" } },
    });
  });

  it("join as a master: with the certificate key and its own API endpoint", () => {
    const j = parseYaml(
      cfg.kubeadmJoinConfig({
        kubernetesVersion: "1.30.14",
        controlPlaneEndpoint: "10.10.0.100:16443",
        node: { name: "k8s-masternode-1", ip: "10.10.0.12" },
        token: TOKEN,
        caCertHash: HASH,
        certificateKey: KEY,
      }),
    );
    expect(j.controlPlane).toEqual({ localAPIEndpoint: { advertiseAddress: "10.10.0.12", bindPort: 6443 }, certificateKey: KEY });
  });

  it("malformed secrets are refused without echoing them", () => {
    const base = { kubernetesVersion: "1.30.14", controlPlaneEndpoint: "e:1", node: { name: "n", ip: "1.2.3.4" }, token: TOKEN, caCertHash: HASH };
    expect(() => cfg.kubeadmJoinConfig({ ...base, token: "s3cret" })).toThrow(/^kubeadmJoinConfig: the bootstrap token is malformed$/);
    expect(() => cfg.kubeadmJoinConfig({ ...base, caCertHash: "md5:x" })).toThrow(/CA certificate hash/);
    expect(() => cfg.kubeadmJoinConfig({ ...base, certificateKey: "short" })).toThrow(/certificate key/);
  });
});

describe("no_proxy", () => {
  it("the user's list first, then localhost, node CIDR kept as a CIDR, nodes, VIP, pod and service CIDRs, registry hosts, cluster domains; no duplicates", () => {
    expect(
      cfg
        .noProxy({
          user: ["192.168.246.0/24", "10.0.0.1"],
          nodeIps: ["10.10.0.11", "10.10.0.21"],
          nodeNames: ["k8s-masternode-0", "k8s-workernode-0"],
          vip: "10.10.0.100",
          podCidr: "192.168.0.0/16",
          serviceCidr: "10.199.187.0/24",
          k8sNodeCidr: "10.10.0.0/24",
          registryServers: ["192.168.246.10:5000", "10.0.0.1:5000"],
        })
        .split(","),
    ).toEqual([
      "192.168.246.0/24",
      "10.0.0.1",
      "localhost",
      "127.0.0.1",
      "10.10.0.0/24",
      "10.10.0.11",
      "10.10.0.21",
      "k8s-masternode-0",
      "k8s-workernode-0",
      "10.10.0.100",
      "192.168.0.0/16",
      "10.199.187.0/24",
      "192.168.246.10",
      ".svc",
      ".svc.cluster.local",
      ".cluster.local",
    ]);
  });
});

describe("node names", () => {
  it("cluster name plus VNFC id, as DNS labels; unique where Tacker's last-octet names collide", () => {
    expect(cfg.nodeNames("k8s", ["masterNode-0", "workerNode-0", "workerNode-1"])).toEqual({
      "masterNode-0": "k8s-masternode-0",
      "workerNode-0": "k8s-workernode-0",
      "workerNode-1": "k8s-workernode-1",
    });
    expect(cfg.nodeName("My_Cluster", "VDU_1-0")).toBe("my-cluster-vdu-1-0");
  });

  it("long names are cut to 63 characters with a hash; collisions after cleaning are refused", () => {
    const long = cfg.nodeName("c".repeat(70), "workerNode-3");
    expect(long.length).toBeLessThanOrEqual(63);
    expect(long).toMatch(/^c+-[0-9a-f]{8}$/);
    expect(cfg.nodeName("c".repeat(70), "workerNode-4")).not.toBe(long);
    expect(() => cfg.nodeNames("k8s", ["a_b-0", "a-b-0"])).toThrow("node name k8s-a-b-0 would be used by VNFCs a_b-0 and a-b-0");
  });

  it("the /etc/hosts block: nodes, then the registries' hosts_string", () => {
    expect(cfg.hostsBlock([{ name: "k8s-masternode-0", ip: "10.10.0.11" }], ["192.168.246.10   registry.example"])).toBe(
      "10.10.0.11 k8s-masternode-0\n192.168.246.10 registry.example\n",
    );
  });
});
