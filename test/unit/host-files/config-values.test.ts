/**
 * A fuzz of the values the cluster's config generators write into another language, each file read
 * back: kubeadm's YAML with the `yaml` package (every document, every value equal to its input,
 * whatever the text), HAProxy's and keepalived's line syntax and `/etc/hosts` token by token (every
 * value one token where it belongs, no line, directive, brace or comment added). HAProxy,
 * keepalived and /etc/hosts have no quoting to rely on, so their generators check their inputs
 * (RFC 1123 node names, IP addresses, ports) and refuse the rest: the fuzz mixes hostile text into
 * every field and requires a refusal whenever one field is not of its type.
 */
import { isIP } from "node:net";
import fc from "fast-check";
import { parseAllDocuments, type Document } from "yaml";
import { describe, expect, it } from "vitest";
import { haproxyConfig } from "../../../components/k8s-cluster/config/haproxy";
import { hostsBlock, validHostsLine } from "../../../components/k8s-cluster/config/hosts";
import { keepalivedConfig } from "../../../components/k8s-cluster/config/keepalived";
import { CRI_SOCKET, kubeadmInitConfig, kubeadmJoinConfig } from "../../../components/k8s-cluster/config/kubeadm";
import { withHanded } from "../../../components/k8s-cluster/registries";
import { parseNodeName } from "../../../components/host-files";

const RUNS = { numRuns: 3000 };

// Text weighted towards what means something to HAProxy, keepalived, /etc/hosts and YAML.
const hostile = fc.constantFrom(..."\n\r\t #{}\"'\\:;,-[]&*!|>%@`".split(""), "\n    server x 1.2.3.4:1", "\n}\n", "\n---\n", "# c", "\u2028", "\u0085", "é");
const text = fc
  .string({
    unit: fc.oneof(
      hostile,
      fc.integer({ min: 0x20, max: 0xffff }).map((c) => String.fromCharCode(c)),
    ),
    maxLength: 30,
  })
  .filter((s) => !/[\uD800-\uDFFF]/.test(s));

/** RFC 1123 names as a node gets them: a DNS label, 1-63 of a-z 0-9 `-`, no dash at an end. */
const nodeName = fc.stringMatching(/^[a-z0-9]([-a-z0-9]{0,61}[a-z0-9])?$/);
const ipv4 = fc.ipV4();
const ip = fc.oneof({ arbitrary: ipv4, weight: 3 }, { arbitrary: fc.ipV6(), weight: 1 });
const port = fc.integer({ min: 1, max: 65535 });

const validName = (s: string) => "value" in parseNodeName(s);
const validPort = (p: number) => Number.isInteger(p) && p >= 1 && p <= 65535;
/** What no token of these files may hold: a blank or line break, a comment, a brace, a quote. */
const ESCAPING = /[\s#{}"'\\]/;

/** Every document of a YAML stream, each parsed without an error. */
function yamlDocs(text: string): unknown[] {
  const docs = parseAllDocuments(text);
  expect(Array.isArray(docs)).toBe(true);
  return (docs as Document.Parsed[]).map((d) => {
    expect(d.errors).toEqual([]);
    return d.toJS() as unknown;
  });
}

describe("fuzz: kubeadm's YAML reads back as its inputs", () => {
  const version = fc.tuple(fc.constantFrom("", "v"), fc.integer({ min: 26, max: 35 }), fc.nat(40)).map(([v, minor, patch]) => `${v}1.${minor}.${patch}`);
  const cidr = fc.tuple(ipv4, fc.integer({ min: 0, max: 32 })).map(([a, p]) => `${a}/${p}`);

  it("InitConfiguration, ClusterConfiguration, KubeletConfiguration (and KubeProxyConfiguration): every document, every value, whatever the text", () => {
    const input = fc.record(
      {
        kubernetesVersion: version,
        clusterName: fc.oneof(
          nodeName,
          text.filter((s) => s !== ""),
        ),
        controlPlaneEndpoint: fc.oneof(
          fc.tuple(ip, port).map(([a, p]) => `${a}:${p}`),
          text,
        ),
        node: fc.record({ name: fc.oneof(nodeName, text), ip: fc.oneof(ip, text) }),
        podCidr: fc.oneof(cidr, text),
        serviceCidr: fc.oneof(cidr, text),
        certSans: fc.array(fc.oneof(ip, text), { maxLength: 5 }),
        imageRepository: fc.option(
          text.filter((s) => s !== ""),
          { nil: undefined },
        ),
        dnsDomain: fc.option(fc.oneof(fc.domain(), text), { nil: undefined }),
        kubeProxyConntrackMaxPerCore: fc.option(fc.nat(), { nil: undefined }),
      },
      { requiredKeys: ["kubernetesVersion", "clusterName", "controlPlaneEndpoint", "node", "podCidr", "serviceCidr", "certSans"] },
    );
    fc.assert(
      fc.property(input, (i) => {
        const js = yamlDocs(kubeadmInitConfig(i));
        const api = Number(/^v?1\.(\d+)\./.exec(i.kubernetesVersion)![1]) >= 31 ? "kubeadm.k8s.io/v1beta4" : "kubeadm.k8s.io/v1beta3";
        const extraArgs = api.endsWith("v1beta4") ? [{ name: "node-ip", value: i.node.ip }] : { "node-ip": i.node.ip };
        const cluster: Record<string, unknown> = {
          apiVersion: api,
          kind: "ClusterConfiguration",
          clusterName: i.clusterName,
          kubernetesVersion: `v${i.kubernetesVersion.replace(/^v/, "")}`,
          controlPlaneEndpoint: i.controlPlaneEndpoint,
          networking: { podSubnet: i.podCidr, serviceSubnet: i.serviceCidr, dnsDomain: i.dnsDomain ?? "cluster.local" },
          apiServer: { certSANs: [...new Set(i.certSans)] },
          ...(i.imageRepository ? { imageRepository: i.imageRepository } : {}),
        };
        expect(js).toEqual([
          {
            apiVersion: api,
            kind: "InitConfiguration",
            localAPIEndpoint: { advertiseAddress: i.node.ip, bindPort: 6443 },
            nodeRegistration: { name: i.node.name, criSocket: CRI_SOCKET, kubeletExtraArgs: extraArgs },
          },
          cluster,
          { apiVersion: "kubelet.config.k8s.io/v1beta1", kind: "KubeletConfiguration", cgroupDriver: "systemd" },
          ...(i.kubeProxyConntrackMaxPerCore !== undefined
            ? [{ apiVersion: "kubeproxy.config.k8s.io/v1alpha1", kind: "KubeProxyConfiguration", conntrack: { maxPerCore: i.kubeProxyConntrackMaxPerCore } }]
            : []),
        ]);
      }),
      { numRuns: 2000 },
    );
  });

  it("JoinConfiguration: one document with the inputs; a token, CA hash or certificate key not of its form is refused", () => {
    const token = fc.stringMatching(/^[a-z0-9]{6}\.[a-z0-9]{16}$/);
    const hash = fc.stringMatching(/^[0-9a-f]{64}$/).map((h) => `sha256:${h}`);
    const key = fc.stringMatching(/^[0-9a-f]{64}$/);
    // Well-formed credentials with hostile text around them or in their place.
    const mangle = (a: fc.Arbitrary<string>) =>
      fc.oneof({ arbitrary: a, weight: 4 }, { arbitrary: fc.tuple(a, text).map(([x, t]) => x + t), weight: 1 }, { arbitrary: text, weight: 1 });
    const input = fc.record(
      {
        kubernetesVersion: version,
        controlPlaneEndpoint: fc.oneof(
          fc.tuple(ip, port).map(([a, p]) => `${a}:${p}`),
          text,
        ),
        node: fc.record({ name: fc.oneof(nodeName, text), ip: fc.oneof(ip, text) }),
        token: mangle(token),
        caCertHash: mangle(hash),
        certificateKey: fc.option(mangle(key), { nil: undefined }),
      },
      { requiredKeys: ["kubernetesVersion", "controlPlaneEndpoint", "node", "token", "caCertHash"] },
    );
    fc.assert(
      fc.property(input, (j) => {
        const wellFormed =
          /^[a-z0-9]{6}\.[a-z0-9]{16}$/.test(j.token) &&
          /^sha256:[0-9a-f]{64}$/.test(j.caCertHash) &&
          (j.certificateKey === undefined || /^[0-9a-f]{64}$/.test(j.certificateKey));
        if (!wellFormed) {
          expect(() => kubeadmJoinConfig(j)).toThrow(/^kubeadmJoinConfig: /);
          return;
        }
        const docs = yamlDocs(kubeadmJoinConfig(j));
        expect(docs.length).toBe(1);
        const api = Number(/^v?1\.(\d+)\./.exec(j.kubernetesVersion)![1]) >= 31 ? "kubeadm.k8s.io/v1beta4" : "kubeadm.k8s.io/v1beta3";
        expect(docs[0]).toEqual({
          apiVersion: api,
          kind: "JoinConfiguration",
          discovery: { bootstrapToken: { apiServerEndpoint: j.controlPlaneEndpoint, token: j.token, caCertHashes: [j.caCertHash] } },
          nodeRegistration: {
            name: j.node.name,
            criSocket: CRI_SOCKET,
            kubeletExtraArgs: api.endsWith("v1beta4") ? [{ name: "node-ip", value: j.node.ip }] : { "node-ip": j.node.ip },
          },
          ...(j.certificateKey !== undefined
            ? { controlPlane: { localAPIEndpoint: { advertiseAddress: j.node.ip, bindPort: 6443 }, certificateKey: j.certificateKey } }
            : {}),
        });
      }),
      { numRuns: 2000 },
    );
  });
});

describe("fuzz: HAProxy, keepalived and /etc/hosts hold each value as one token, or refuse it", () => {
  it("haproxy.cfg: one `server <name> <ip>:<port> check …` line per master, the rest as for any master; a value not of its type is refused", () => {
    const backend = fc.record({
      name: fc.oneof({ arbitrary: nodeName, weight: 4 }, { arbitrary: text, weight: 1 }),
      ip: fc.oneof({ arbitrary: ip, weight: 4 }, { arbitrary: text, weight: 1 }),
    });
    const anyPort = fc.oneof({ arbitrary: port, weight: 8 }, { arbitrary: fc.constantFrom(0, -1, 65536, 1.5, Number.NaN, Infinity), weight: 1 });
    let accepted = 0;
    fc.assert(
      fc.property(fc.array(backend, { minLength: 1, maxLength: 5 }), anyPort, anyPort, (backends, fp, bp) => {
        const valid = validPort(fp) && validPort(bp) && backends.every((b) => validName(b.name) && isIP(b.ip) !== 0);
        if (backends.some((b) => ESCAPING.test(b.name + b.ip))) expect(valid).toBe(false);
        if (!valid) {
          expect(() => haproxyConfig(backends, fp, bp)).toThrow(/^haproxyConfig: the (frontend|backend) port|^haproxyConfig: the (name|IP) of backend \d+ /);
          return;
        }
        accepted++;
        const lines = haproxyConfig(backends, fp, bp).split("\n");
        const servers = lines.filter((l) => /^\s*server\b/.test(l));
        expect(servers.map((l) => l.split(" "))).toEqual(
          backends.map((b) => ["", "", "", "", "server", b.name, `${b.ip}:${bp}`, "check", "inter", "3s", "fall", "3", "rise", "2"]),
        );
        const reference = haproxyConfig([{ name: "m", ip: "10.0.0.1" }], fp, bp)
          .split("\n")
          .filter((l) => !/^\s*server\b/.test(l));
        expect(lines.filter((l) => !/^\s*server\b/.test(l))).toEqual(reference);
      }),
      RUNS,
    );
    expect(accepted).toBeGreaterThan(RUNS.numRuns / 5);
  });

  it("keepalived.conf: router_id, interface, unicast_src_ip, one peer per line and the VIP each one token, braces as written; a value not of its type is refused", () => {
    const maybe = <T>(a: fc.Arbitrary<T>) => fc.oneof({ arbitrary: a, weight: 6 }, { arbitrary: text, weight: 1 });
    const input = fc.record(
      {
        nodeName: maybe(nodeName),
        nodeIp: maybe(ipv4),
        peerIps: fc.array(maybe(ipv4), { maxLength: 4 }),
        vip: maybe(ipv4),
        index: fc.oneof({ arbitrary: fc.nat(19), weight: 8 }, { arbitrary: fc.constantFrom(-1, 0.5, Number.NaN), weight: 1 }),
        virtualRouterId: fc.oneof(
          { arbitrary: fc.integer({ min: 1, max: 255 }), weight: 8 },
          { arbitrary: fc.constantFrom(0, 256, 1.5, Number.NaN), weight: 1 },
        ),
        interfaceName: fc.option(maybe(fc.stringMatching(/^[a-z][a-z0-9]{0,14}$/)), { nil: undefined }),
      },
      { requiredKeys: ["nodeName", "nodeIp", "peerIps", "vip", "index", "virtualRouterId"] },
    );
    let accepted = 0;
    fc.assert(
      fc.property(input, (k) => {
        const strings = [k.nodeName, k.nodeIp, k.vip, ...k.peerIps, k.interfaceName ?? ""];
        const valid =
          validName(k.nodeName) &&
          [k.nodeIp, k.vip, ...k.peerIps].every((a) => isIP(a) !== 0) &&
          Number.isInteger(k.index) &&
          k.index >= 0 &&
          Number.isInteger(k.virtualRouterId) &&
          k.virtualRouterId >= 1 &&
          k.virtualRouterId <= 255 &&
          (k.interfaceName === undefined || /^[A-Za-z0-9_.-]{1,15}$/.test(k.interfaceName));
        if (strings.some((s) => ESCAPING.test(s))) expect(valid).toBe(false);
        if (!valid) {
          expect(() => keepalivedConfig(k)).toThrow(/^keepalivedConfig: /);
          return;
        }
        accepted++;
        const lines = keepalivedConfig(k).split("\n");
        const tokens = (head: string) => lines.map((l) => l.trim().split(" ")).filter((t) => t[0] === head);
        expect(tokens("router_id")).toEqual([["router_id", k.nodeName]]);
        expect(tokens("interface")).toEqual([["interface", k.interfaceName ?? "@NODE_NIC@"]]);
        expect(tokens("virtual_router_id")).toEqual([["virtual_router_id", String(k.virtualRouterId)]]);
        expect(tokens("priority")).toEqual([["priority", String(150 - k.index)]]);
        expect(tokens("unicast_src_ip")).toEqual(k.peerIps.length > 0 ? [["unicast_src_ip", k.nodeIp]] : []);
        const block = (open: string) => {
          const at = lines.findIndex((l) => l.trim() === `${open} {`);
          if (at < 0) return undefined;
          const end = lines.findIndex((l, n) => n > at && l.trim() === "}");
          return lines.slice(at + 1, end).map((l) => l.trim().split(" "));
        };
        expect(block("unicast_peer")).toEqual(k.peerIps.length > 0 ? k.peerIps.map((p) => [p]) : undefined);
        expect(block("virtual_ipaddress")).toEqual([[`${k.vip}/32`]]);
        // The structure is the one written for any master with as many peers: no line, brace, quote or comment added.
        const reference = keepalivedConfig({
          nodeName: "m",
          nodeIp: "10.0.0.1",
          peerIps: k.peerIps.map(() => "10.0.0.2"),
          vip: "10.0.0.9",
          index: 0,
          virtualRouterId: 1,
        }).split("\n");
        const shape = (ls: string[]) => ls.map((l) => l.replace(/[^\s{}"#]+/g, "w"));
        expect(shape(lines)).toEqual(shape(reference));
      }),
      RUNS,
    );
    expect(accepted).toBeGreaterThan(RUNS.numRuns / 5);
  });

  it("/etc/hosts: one `<ip> <name>` line per node and one line per registry's hosts_string, its fields as given; a value not of its type is refused", () => {
    const maybe = <T>(a: fc.Arbitrary<T>) => fc.oneof({ arbitrary: a, weight: 6 }, { arbitrary: text, weight: 1 });
    const node = fc.record({ name: maybe(nodeName), ip: maybe(ip) });
    const blanks = fc.stringMatching(/^[ \t]{1,3}$/);
    const hostsString = maybe(
      fc
        .tuple(
          fc.constantFrom("", " "),
          ipv4,
          fc.array(fc.tuple(blanks, fc.oneof(fc.domain(), fc.stringMatching(/^[A-Za-z0-9.-]{1,20}$/))), { minLength: 1, maxLength: 3 }),
          fc.constantFrom("", "\t"),
        )
        .map(([lead, a, names, trail]) => `${lead}${a}${names.map(([b, n]) => b + n).join("")}${trail}`),
    );
    let accepted = 0;
    fc.assert(
      fc.property(fc.array(node, { maxLength: 6 }), fc.array(hostsString, { maxLength: 3 }), (nodes, regs) => {
        const valid = nodes.every((n) => validName(n.name) && isIP(n.ip) !== 0) && regs.every(validHostsLine);
        if (nodes.some((n) => ESCAPING.test(n.name + n.ip)) || regs.some((r) => /[#{}"'\\\r\n\u0085\u2028]/.test(r))) expect(valid).toBe(false);
        if (!valid) {
          expect(() => hostsBlock(nodes, regs)).toThrow(/^hostsBlock: (the (name|IP) of node|registry hosts_string) \d+ /);
          return;
        }
        accepted++;
        const out = hostsBlock(nodes, regs);
        expect(out.endsWith("\n")).toBe(true);
        const expected = [...new Set([...nodes.map((n) => [n.ip, n.name]), ...regs.map((r) => r.trim().split(/\s+/))].map((f) => f.join(" ")))];
        const lines = out === "\n" ? [] : out.slice(0, -1).split("\n");
        expect(lines).toEqual(expected);
        for (const line of lines) {
          const [first, ...names] = line.split(" ");
          expect(isIP(first), line).not.toBe(0);
          expect(names.length).toBeGreaterThan(0);
          for (const n of names) expect(n).toMatch(/^[A-Za-z0-9.-]+$/);
        }
      }),
      RUNS,
    );
    expect(accepted).toBeGreaterThan(RUNS.numRuns / 5);
  });
});

describe("the defects the fuzz found: a value that added a line or a directive, or did not read back", () => {
  it('kubeadm: a value of blanks and a line break (`" \\n"`) was written as a `|+` block scalar and read back as `"\\n"`; now double-quoted', () => {
    const i = {
      kubernetesVersion: "1.30.14",
      clusterName: " \n",
      controlPlaneEndpoint: "10.0.0.9:16443",
      node: { name: "m0", ip: "10.0.0.1" },
      podCidr: "10.244.0.0/16",
      serviceCidr: "10.96.0.0/12",
      certSans: ["a \n", "\t\n"],
      dnsDomain: "  \n",
    };
    const [, cluster] = yamlDocs(kubeadmInitConfig(i)) as Record<string, Record<string, unknown>>[];
    expect([cluster.clusterName, cluster.apiServer.certSANs, cluster.networking.dnsDomain]).toEqual([" \n", ["a \n", "\t\n"], "  \n"]);
    expect(kubeadmInitConfig(i)).not.toContain("|");
  });

  it("kubeadm: a line of one space inside a multi-line value was folded into a `\\ ` escape and read back as a backslash; now one JSON-quoted line", () => {
    const endpoint = "\n\n\n---\n \n    server x 1.2.3.4:1\n";
    const i = {
      kubernetesVersion: "1.26.0",
      clusterName: " ",
      controlPlaneEndpoint: endpoint,
      node: { name: "", ip: "" },
      podCidr: "0.0.0.0/0",
      serviceCidr: "0.0.0.0/0",
      certSans: [],
    };
    const [, cluster] = yamlDocs(kubeadmInitConfig(i)) as Record<string, unknown>[];
    expect(cluster.controlPlaneEndpoint).toBe(endpoint);
  });

  it("HAProxy: a backend name or IP with a line break added a server (or any directive); now refused naming the backend", () => {
    expect(() => haproxyConfig([{ name: "m0 10.0.0.1:6443\n    server evil", ip: "6.6.6.6" }])).toThrow(
      "haproxyConfig: the name of backend 0 is not an RFC 1123 DNS subdomain",
    );
    expect(() => haproxyConfig([{ name: "m0", ip: "10.0.0.1:1 backup\n    server evil 6.6.6.6" }])).toThrow(
      "haproxyConfig: the IP of backend 0 is not an IP address",
    );
    expect(() => haproxyConfig([{ name: "m0", ip: "10.0.0.1" }], 1.5)).toThrow("haproxyConfig: the frontend port is not a TCP port (1-65535)");
  });

  it("keepalived: a node name, peer or VIP with a line break or a brace added a directive or closed a block; now refused naming the field", () => {
    const k = { nodeName: "m0", nodeIp: "10.0.0.1", peerIps: ["10.0.0.2"], vip: "10.0.0.9", index: 0, virtualRouterId: 51 };
    expect(() => keepalivedConfig({ ...k, nodeName: 'm0\n}\nvrrp_script x {\n script "/bin/id"' })).toThrow(
      "keepalivedConfig: the node name is not an RFC 1123",
    );
    expect(() => keepalivedConfig({ ...k, peerIps: ["10.0.0.2", "10.0.0.3\n    }\n    notify_master /tmp/x"] })).toThrow(
      "keepalivedConfig: peer IP 1 is not an IP address",
    );
    expect(() => keepalivedConfig({ ...k, vip: "10.0.0.9/32 dev eth0\n" })).toThrow("keepalivedConfig: the VIP is not an IP address");
    expect(() => keepalivedConfig({ ...k, interfaceName: "eth0\n    notify /x" })).toThrow(
      "keepalivedConfig: the interface name is not a network interface name",
    );
    expect(() => keepalivedConfig({ ...k, index: 0.5 })).toThrow("keepalivedConfig: the master's index is not a whole number >= 0");
  });

  it("/etc/hosts: a handed-over registry's hosts_string was not checked (a comment, the block's end marker); now refused by withHanded and hostsBlock", () => {
    const reg = { connection_type: "0" as const, server: "reg:5000" };
    for (const hosts of ["# nfv-k8s end", "10.0.0.5 reg # c", "reg 10.0.0.5", "10.0.0.5"]) {
      expect(() => withHanded([], [{ ...reg, hosts_string: hosts }])).toThrow("K8sCluster registries[0]: hosts_string is not an /etc/hosts line (IP FQDN)");
      expect(() => hostsBlock([], [hosts])).toThrow("hostsBlock: registry hosts_string 0 is not an /etc/hosts line (IP FQDN)");
    }
    expect(withHanded([], [{ ...reg, hosts_string: " 10.0.0.5  reg.example " }])[0].hostsString).toBe(" 10.0.0.5  reg.example ");
    expect(() => hostsBlock([{ name: "m0\n6.6.6.6 reg.example", ip: "10.0.0.1" }], [])).toThrow("hostsBlock: the name of node 0 is not an RFC 1123");
    expect(() => hostsBlock([{ name: "m0", ip: "10.0.0.1 evil" }], [])).toThrow("hostsBlock: the IP of node 0 is not an IP address");
  });
});
