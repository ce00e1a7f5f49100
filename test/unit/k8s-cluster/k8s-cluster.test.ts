/**
 * nfv:k8s:Cluster against Pulumi mocks, on the real kubernetes_vnf_package: flavour `simple` with
 * the seed's param file as it is, and `complex` (3 masters behind a VIP). Proves the exact VMs,
 * ports, VIP address pairs, commands and their dependency order, where secrets flow and the
 * outputs; not that kubeadm, SSH or OpenStack accept them (the bats tests cover the scripts).
 */
import { createHash } from "node:crypto";
import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import * as path from "node:path";
import type * as openstack from "@pulumi/openstack";
import * as pulumi from "@pulumi/pulumi";
import { afterEach, beforeAll, describe, expect, it } from "vitest";
import { isSecretValue, plain, settle, valueOf, type Registered } from "../helpers/pulumi-mocks";
import type { VnfModel } from "../../../translators/tosca/model";
import { DiagnosticError } from "../../../translators/diagnostics";
import { K8S_FIXTURES } from "./k8s-fixtures";
import { ADMIN_TOKEN, CA_HASH, CA_PEM, CERT_KEY, TOKEN, k8sRequest, k8sTestBed, recordDependsOn, resetAddresses } from "./k8s-mocks";

let registered: Registered[];
let mod: typeof import("../../../components/k8s-cluster");
let pkg: VnfModel;
let provider: openstack.Provider;

beforeAll(async () => {
  ({ registered, mod, pkg, provider } = await k8sTestBed());
  registered.length = 0;
});
afterEach(async () => {
  await settle();
  registered.length = 0;
});

const VERSIONS = { kubernetes: "1.30.14", kubernetesPackage: "1.30.14-1.1", containerdPackage: "1.7.24-0ubuntu1", etcdClientPackage: "3.4.30-1" };

function build(file: string, extra: Record<string, unknown> = {}) {
  const deps = new Map<string, string[]>();
  resetAddresses();
  const c = new mod.K8sCluster(
    "k8s",
    {
      flavours: pkg.flavours,
      request: k8sRequest(file),
      provider,
      packageDir: K8S_FIXTURES,
      versions: VERSIONS,
      sandboxImage: "192.168.246.10:5000/pause:3.9",
      ...extra,
    },
    { transformations: [recordDependsOn(deps)] },
  );
  return { c, deps };
}
const one = (name: string) => {
  const r = registered.filter((x) => x.name === name);
  expect(r, name).toHaveLength(1);
  return r[0];
};
const names = (type: string) =>
  registered
    .filter((r) => r.type === type)
    .map((r) => r.name)
    .sort();
const stdinOf = (name: string) => {
  const s = one(name).inputs.stdin;
  expect(isSecretValue(s), `${name} stdin is secret`).toBe(true);
  return String(plain(s));
};
/** The SSH host a command dials (the connection is secret as a whole: it holds the password). */
const hostOf = (name: string) => (plain(one(name).inputs.connection) as { host: string }).host;
const field = (stdin: string, key: string) =>
  stdin
    .split("\n")
    .find((l) => l.startsWith(`${key}=`))
    ?.slice(key.length + 1);
const decoded = (stdin: string, key: string) => Buffer.from(field(stdin, key) ?? "", "base64").toString("utf8");
const SEED = "private_registry_kubernetes_param_file.json";

describe("flavour simple with the seed's param file (1 master, 2 workers, VIP port vip_CP)", () => {
  it("exact VMs and ports; the VIP port on the masters' external network; its address in the master port's allowed address pairs", async () => {
    const { c } = build(SEED);
    await valueOf(c.endpoint);
    await settle();
    expect(names("openstack:compute/instance:Instance")).toEqual(["k8s-vnf-masterNode-0", "k8s-vnf-workerNode-0", "k8s-vnf-workerNode-1"]);
    expect(names("openstack:networking/port:Port")).toEqual([
      "k8s-vip_CP",
      "k8s-vnf-masterNode-0-masterNode_CP1",
      "k8s-vnf-workerNode-0-workerNode_CP2",
      "k8s-vnf-workerNode-1-workerNode_CP2",
    ]);
    expect(one("k8s-vip_CP").inputs).toEqual({
      name: "k8s-vip_CP",
      networkId: "71a3fbd1-f31e-4c2c-b0e2-26267d64a9ee",
      adminStateUp: true,
      tags: ["nfv-k8s-cluster=k8s", "nfv-cp-id=vip_CP"],
    });
    expect(one("k8s-vip_CP").provider).toMatch(/::vim-provider::/);
    // The VIP port registers first, so the mock gives it 10.10.0.100.
    expect(one("k8s-vnf-masterNode-0-masterNode_CP1").inputs.allowedAddressPairs).toEqual([{ ipAddress: "10.10.0.100" }]);
    expect(one("k8s-vnf-workerNode-0-workerNode_CP2").inputs.allowedAddressPairs).toBeUndefined();
  });

  it("commands in dependency order: copy → prepare → registries per node; LB then init on the master; workers join after init; drains after joins", async () => {
    const { deps } = build(SEED);
    await settle();
    expect(names("command:remote:Command")).toEqual([
      "k8s-init",
      "k8s-masterNode-0-lb",
      "k8s-masterNode-0-lb-bootstrap",
      "k8s-masterNode-0-prepare",
      "k8s-masterNode-0-registries",
      ...["workerNode-0", "workerNode-1"].flatMap((w) => [
        `k8s-${w}-drain`,
        `k8s-${w}-join`,
        `k8s-${w}-join-credentials`,
        `k8s-${w}-prepare`,
        `k8s-${w}-registries`,
      ]),
    ]);
    expect(names("command:remote:CopyToRemote")).toEqual(["k8s-masterNode-0-copy-scripts", "k8s-workerNode-0-copy-scripts", "k8s-workerNode-1-copy-scripts"]);
    expect(deps.get("k8s-masterNode-0-copy-scripts")).toEqual(["k8s-vnf-masterNode-0"]);
    // The directory's files land in /var/tmp/nfv/k8s, where the commands run them: upstream's provider
    // copies a directory into remotePath as remotePath/<its name> (the lab's own provider unpacked it).
    expect(one("k8s-masterNode-0-copy-scripts").inputs.remotePath).toBe("/var/tmp/nfv");
    expect(deps.get("k8s-masterNode-0-prepare")).toEqual(["k8s-masterNode-0-copy-scripts"]);
    expect(deps.get("k8s-masterNode-0-registries")).toEqual(["k8s-masterNode-0-prepare"]);
    expect(deps.get("k8s-masterNode-0-lb-bootstrap")).toEqual(["k8s-masterNode-0-registries"]);
    expect(deps.get("k8s-init")).toEqual(["k8s-masterNode-0-registries", "k8s-masterNode-0-lb-bootstrap"]);
    expect(deps.get("k8s-workerNode-1-join-credentials")).toEqual(["k8s-init", "k8s-workerNode-1-registries"]);
    expect(deps.get("k8s-workerNode-1-join")).toEqual(["k8s-workerNode-1-join-credentials"]);
    expect(deps.get("k8s-workerNode-1-drain")).toEqual(["k8s-workerNode-1-join"]);
    expect(deps.get("k8s-masterNode-0-lb")).toEqual(["k8s-init"]);
    // Command lines hold the script path only; every stdin is secret.
    // Credential steps keep their stdout on the node unless they succeed (stdoutOnSuccess).
    const credentialSteps = ["k8s-init", "k8s-workerNode-0-join-credentials", "k8s-workerNode-1-join-credentials"];
    for (const r of registered.filter((x) => x.type === "command:remote:Command")) {
      const line = String(r.inputs.create ?? r.inputs.delete);
      expect(line, r.name).toMatch(
        credentialSteps.includes(r.name)
          ? /^out="\$\(sudo -n \/bin\/bash \/var\/tmp\/nfv\/k8s\/(init-master|join-credentials)\.sh\)" && printf '%s\\n' "\$out"$/
          : /^sudo -n \/bin\/bash \/var\/tmp\/nfv\/k8s\/[a-z-]+\.sh$/,
      );
      expect(isSecretValue(r.inputs.stdin), r.name).toBe(true);
    }
    expect(one("k8s-workerNode-0-drain").inputs.create).toBeUndefined();
    expect(one("k8s-workerNode-0-drain").inputs.delete).toBe("sudo -n /bin/bash /var/tmp/nfv/k8s/remove-node.sh");
    expect(field(stdinOf("k8s-workerNode-0-drain"), "ON_DRAIN_FAILURE")).toBe("fail");
  });

  it("node parameters: unique names, /etc/hosts, pinned versions, proxy with a generated no_proxy (node CIDR kept), the seed's HTTP registry with tacker/tacker", async () => {
    build(SEED);
    await settle();
    const prep = stdinOf("k8s-workerNode-1-prepare");
    expect(field(prep, "NODE_NAME")).toBe("k8s-workernode-1");
    expect(field(prep, "KUBERNETES_PACKAGE_VERSION")).toBe("1.30.14-1.1");
    expect(field(prep, "INSTANCE_ID")).toMatch(/-id$/);
    expect(field(prep, "EXTRA_PACKAGES")).toBeUndefined();
    expect(field(stdinOf("k8s-masterNode-0-prepare"), "EXTRA_PACKAGES")).toBe("etcd-client=3.4.30-1");
    expect(decoded(prep, "HOSTS_B64")).toBe("10.10.0.103 k8s-masternode-0\n10.10.0.101 k8s-workernode-0\n10.10.0.102 k8s-workernode-1\n");
    // The proxy files are written (and escaped) here; the script only decodes and writes them.
    expect(field(prep, "HTTP_PROXY")).toBeUndefined();
    expect(decoded(prep, "APT_PROXY_CONF_B64")).toBe(
      'Acquire::http::Proxy "http://user1:password1@host1:3128";\nAcquire::https::Proxy "https://user2:password2@host2:3129";\n',
    );
    const noProxy =
      "192.168.246.0/24,10.0.0.1,localhost,127.0.0.1,10.10.0.0/24,10.10.0.103,10.10.0.101,10.10.0.102,k8s-masternode-0,k8s-workernode-0,k8s-workernode-1,10.10.0.100,192.168.0.0/16,10.199.187.0/24,192.168.246.10,.svc,.svc.cluster.local,.cluster.local";
    expect(decoded(prep, "PROXY_DROPIN_B64").split("\n")).toEqual([
      "[Service]",
      'Environment="HTTP_PROXY=http://user1:password1@host1:3128" "http_proxy=http://user1:password1@host1:3128"',
      'Environment="HTTPS_PROXY=https://user2:password2@host2:3129" "https_proxy=https://user2:password2@host2:3129"',
      `Environment="NO_PROXY=${noProxy}" "no_proxy=${noProxy}"`,
      "",
    ]);
    const regs = stdinOf("k8s-workerNode-0-registries");
    expect(field(regs, "REGISTRY")?.split("|")[0]).toBe("192.168.246.10:5000");
    expect(JSON.parse(decoded(regs, "REGISTRY_AUTH_B64"))).toEqual({
      auths: { "192.168.246.10:5000": { auth: Buffer.from("tacker:tacker").toString("base64") } },
    });
    expect(decoded(regs, "CONTAINERD_CONFIG_B64")).toContain('sandbox_image = "192.168.246.10:5000/pause:3.9"');
  });

  it("registries handed over as outputs (a PrivateRegistry's connectionInfo): containerd, credentials, /etc/hosts and no_proxy on every node, after the listed ones", async () => {
    const handed = pulumi.secret({
      connection_type: "1" as const,
      server: "10.10.0.50:5443",
      username: "nfv",
      password: "reg-s3cret",
      ca_certificate: CA_PEM,
      hosts_string: "10.10.0.50 registry.lab",
    });
    build(SEED, { registries: [handed] });
    await settle();
    const regs = stdinOf("k8s-masterNode-0-registries");
    const lines = regs
      .split("\n")
      .filter((l) => l.startsWith("REGISTRY="))
      .map((l) => l.slice("REGISTRY=".length).split("|"));
    expect(lines.map((l) => l[0])).toEqual(["192.168.246.10:5000", "10.10.0.50:5443"]);
    expect(Buffer.from(lines[1][1], "base64").toString()).toContain('ca = "/etc/containerd/certs.d/10.10.0.50:5443/ca.crt"');
    expect(Buffer.from(lines[1][2], "base64").toString()).toBe(CA_PEM);
    expect(JSON.parse(decoded(regs, "REGISTRY_AUTH_B64")).auths["10.10.0.50:5443"]).toEqual({ auth: Buffer.from("nfv:reg-s3cret").toString("base64") });
    const prep = stdinOf("k8s-workerNode-1-prepare");
    expect(decoded(prep, "HOSTS_B64")).toContain("10.10.0.50 registry.lab\n");
    expect(/"NO_PROXY=([^"]+)"/.exec(decoded(prep, "PROXY_DROPIN_B64"))![1].split(",")).toContain("10.10.0.50");
  });

  it("a handed-over registry that is not host:port, not HTTP(S) or already listed fails with its position; without credentials it gets Tacker's defaults", async () => {
    const { withHanded } = await import("../../../components/k8s-cluster/registries");
    const listed = [{ connectionType: "0" as const, server: "192.168.246.10:5000", username: "tacker", password: "tacker" }];
    const fail = (info: Record<string, unknown>) => {
      try {
        withHanded(listed, [{ connection_type: "0", server: "10.0.0.9:5000" }, info as never]);
        return "no error";
      } catch (e) {
        return (e as Error).message;
      }
    };
    expect(withHanded(listed, [{ connection_type: "0", server: "10.0.0.9:5000" }]).map((r) => [r.server, r.username])).toEqual([
      ["192.168.246.10:5000", "tacker"],
      ["10.0.0.9:5000", "tacker"],
    ]);
    expect(fail({ connection_type: "0", server: "registry" })).toBe("K8sCluster registries[1]: server `registry` is not host:port");
    expect(fail({ connection_type: "2", server: "10.0.0.8:5000" })).toBe(
      'K8sCluster registries[1]: connection_type must be "0" (HTTP) or "1" (HTTPS), got "2"',
    );
    expect(fail({ connection_type: "0", server: "192.168.246.10:5000" })).toBe(
      "K8sCluster registries[1]: server `192.168.246.10:5000` is already a registry of the cluster",
    );
  });

  it("init: kubeadm config with the VIP endpoint :16443, the seed's CIDRs and the VIP/master/floating IP as SANs; SSH with the parameters' password, as a secret", async () => {
    build(SEED, { floatingIp: "203.0.113.7" });
    await settle();
    const config = decoded(stdinOf("k8s-init"), "KUBEADM_CONFIG_B64");
    expect(config).toContain("controlPlaneEndpoint: 10.10.0.100:16443");
    expect(config).toContain("podSubnet: 192.168.0.0/16");
    expect(config).toContain("serviceSubnet: 10.199.187.0/24");
    expect(config).toMatch(/certSANs:\n\s+- 10.10.0.100\n\s+- 10.10.0.103\n\s+- 203.0.113.7\n/);
    const conn = one("k8s-init").inputs.connection;
    expect(isSecretValue(conn)).toBe(true);
    expect(plain(conn)).toMatchObject({ host: "10.10.0.103", user: "ubuntu", password: "ubuntu" });
  });

  it("secret data flow: the worker's JoinConfiguration carries the token and CA hash from its credentials command, as a secret stdin; no certificate key", async () => {
    build(SEED);
    await settle();
    const creds = stdinOf("k8s-workerNode-0-join-credentials");
    expect(field(creds, "ROLE")).toBe("worker");
    expect(hostOf("k8s-workerNode-0-join-credentials")).toBe("10.10.0.103");
    expect(one("k8s-workerNode-0-join-credentials").inputs.logging).toBe("stderr");
    const join = decoded(stdinOf("k8s-workerNode-0-join"), "JOIN_CONFIG_B64");
    expect(join).toContain(`token: ${TOKEN}`);
    expect(join).toContain(`- ${CA_HASH}`);
    expect(join).toContain("apiServerEndpoint: 10.10.0.100:16443");
    expect(join).not.toContain("certificateKey");
    for (const r of registered) expect(JSON.stringify(r.inputs.create ?? ""), r.name).not.toContain(TOKEN);
  });

  it("outputs: endpoint, CA, admin token (secret), kubeconfig (secret), a KubernetesVim named vim_name with its provider", async () => {
    const { c } = build(SEED);
    expect(await valueOf(c.endpoint)).toBe("https://10.10.0.100:16443");
    expect(await valueOf(c.caCertificate)).toBe(CA_PEM);
    expect(await valueOf(c.adminToken)).toBe(ADMIN_TOKEN);
    expect(await pulumi.isSecret(c.adminToken)).toBe(true);
    expect(await pulumi.isSecret(c.kubeconfig)).toBe(true);
    expect(await pulumi.isSecret(c.caCertificate)).toBe(false);
    const kubeconfig = await valueOf(c.kubeconfig);
    expect(kubeconfig).toContain("server: https://10.10.0.100:16443");
    expect(kubeconfig).toContain(`certificate-authority-data: ${Buffer.from(CA_PEM).toString("base64")}`);
    expect(kubeconfig).not.toContain("insecure-skip-tls-verify");
    await settle();
    expect(one("kubernetes_vim").type).toBe("nfv:vim:KubernetesVim");
    expect(one("kubernetes_vim-provider").type).toBe("pulumi:providers:kubernetes");
    expect(isSecretValue(one("kubernetes_vim-provider").inputs.kubeconfig)).toBe(true);
  });

  it("without vim_name the VIM is kubernetes_vim_<name>", async () => {
    const req = k8sRequest(SEED);
    delete (req.additionalParams!.k8s_cluster_installation_param as Record<string, unknown>).vim_name;
    new mod.K8sCluster("edge", { flavours: pkg.flavours, request: req, provider, packageDir: K8S_FIXTURES, versions: VERSIONS, sandboxImage: "r/pause:3.9" });
    await settle();
    expect(one("kubernetes_vim_edge").type).toBe("nfv:vim:KubernetesVim");
  });

  it("scale-out of the worker aspect: a third worker is prepared and joins with fresh credentials, and gets its drain", async () => {
    build(SEED, { scaleLevels: { worker_instance: 1 } });
    await settle();
    expect(names("openstack:compute/instance:Instance")).toContain("k8s-vnf-workerNode-2");
    for (const s of ["prepare", "registries", "join-credentials", "join", "drain"]) one(`k8s-workerNode-2-${s}`);
  });

  it("heal of a worker: removed on the master (drain failure tolerated) before its server is replaced, then rejoined", async () => {
    const { deps } = build(SEED, { healGenerations: { "workerNode-1": 1 } });
    await settle();
    expect(deps.get("k8s-vnf-workerNode-1")).toEqual(["k8s-workerNode-1-heal-remove"]);
    expect(deps.get("k8s-vnf-workerNode-0")).toEqual([]);
    const remove = stdinOf("k8s-workerNode-1-heal-remove");
    expect([field(remove, "NODE_NAME"), field(remove, "ROLE"), field(remove, "ON_DRAIN_FAILURE")]).toEqual(["k8s-workernode-1", "worker", "continue"]);
    expect(one("k8s-workerNode-1-heal-remove").inputs.triggers).toEqual([1]);
    expect(hostOf("k8s-workerNode-1-heal-remove")).toBe("10.10.0.103");
    expect(one("k8s-workerNode-1-join").inputs.triggers).toEqual(["k8s-vnf-workerNode-1-id", 1]);
  });

  it("a single-master heal is refused before anything is registered", () => {
    expect(() => build(SEED, { healGenerations: { "masterNode-0": 1 } })).toThrow(DiagnosticError);
    try {
      build(SEED, { healGenerations: { "masterNode-0": 1 } });
    } catch (e) {
      expect((e as DiagnosticError).diagnostics.map((d) => d.code)).toEqual(["K8S_SINGLE_MASTER_HEAL"]);
    }
    expect(registered).toEqual([]);
  });

  it("bad input is refused before anything is registered: unpinned versions, a bad CIDR, an unknown CP", () => {
    expect(() => build(SEED, { versions: { kubernetes: "1.30.14" }, sandboxImage: "pause:latest" })).toThrow(
      /versions.kubernetesPackage is required[\s\S]*sandboxImage must be a pinned image/,
    );
    // One apt argument each: Debian's grammar, so never an option.
    expect(() => build(SEED, { versions: { ...VERSIONS, containerdPackageName: "-oDPkg::Pre-Invoke::=id", haproxyPackage: "1 -oX=1" } })).toThrow(
      /versions.containerdPackageName is not a Debian package name[\s\S]*versions.haproxyPackage is not a Debian package version/,
    );
    const req = k8sRequest(SEED);
    Object.assign((req.additionalParams!.k8s_cluster_installation_param as Record<string, Record<string, unknown>>).master_node, {
      pod_cidr: "10.199.0.0/16",
      nic_cp_name: "nope_CP",
    });
    expect(() => new mod.K8sCluster("k8s", { flavours: pkg.flavours, request: req, provider, versions: VERSIONS, sandboxImage: "r/pause:3.9" })).toThrow(
      /K8S_CP_NAME: nic_cp_name `nope_CP` is not a CP of flavour `simple`[\s\S]*K8S_CIDR_OVERLAP: cluster_cidr 10.199.187.0\/24 overlaps pod_cidr 10.199.0.0\/16/,
    );
    expect(registered).toEqual([]);
  });
});

describe("flavour complex (3 masters behind the VIP, 2 workers, an HTTPS registry with a CA)", () => {
  const COMPLEX = "complex_request.json";
  const M = ["masterNode-0", "masterNode-1", "masterNode-2"];

  it("every master port carries the VIP; masters join one after the other with a certificate key, workers after the last master", async () => {
    const { deps } = build(COMPLEX);
    await settle();
    expect(names("openstack:compute/instance:Instance")).toEqual([...M, "workerNode-0", "workerNode-1"].map((v) => `k8s-vnf-${v}`));
    for (const m of M) expect(one(`k8s-vnf-${m}-masterNode_CP1`).inputs.allowedAddressPairs).toEqual([{ ipAddress: "10.10.0.100" }]);
    expect(deps.get("k8s-masterNode-1-join-credentials")).toEqual(["k8s-init", "k8s-masterNode-1-registries"]);
    expect(deps.get("k8s-masterNode-2-join-credentials")).toEqual(["k8s-init", "k8s-masterNode-1-join", "k8s-masterNode-2-registries"]);
    expect(deps.get("k8s-workerNode-0-join-credentials")).toEqual(["k8s-init", "k8s-masterNode-2-join", "k8s-workerNode-0-registries"]);
    for (const m of M) expect(deps.get(`k8s-${m}-lb`)).toEqual(["k8s-init", "k8s-masterNode-1-join", "k8s-masterNode-2-join"]);
    expect(registered.some((r) => r.name === "k8s-masterNode-0-join")).toBe(false);
    const creds = stdinOf("k8s-masterNode-2-join-credentials");
    expect([field(creds, "ROLE"), field(creds, "KUBERNETES_VERSION"), field(creds, "KUBEADM_API_VERSION")]).toEqual([
      "master",
      "1.30.14",
      "kubeadm.k8s.io/v1beta3",
    ]);
    const join = decoded(stdinOf("k8s-masterNode-2-join"), "JOIN_CONFIG_B64");
    expect(join).toContain(`certificateKey: ${CERT_KEY}`);
    expect(join).toMatch(/advertiseAddress: 10\.10\.0\.\d+/);
  });

  it("HAProxy lists every master; keepalived's VIP and priorities by position; the HTTPS registry's CA goes to containerd", async () => {
    build(COMPLEX);
    await settle();
    const lb1 = stdinOf("k8s-masterNode-1-lb");
    const haproxy = decoded(lb1, "HAPROXY_CFG_B64");
    expect(
      haproxy
        .split("\n")
        .map((l) => l.trim())
        .filter((l) => l.startsWith("server "))
        .map((l) => l.split(" ")[1]),
    ).toEqual(["k8s-masternode-0", "k8s-masternode-1", "k8s-masternode-2"]);
    const keepalived = decoded(lb1, "KEEPALIVED_CONF_B64");
    expect(keepalived).toContain("10.10.0.100/32");
    expect(keepalived).toContain("priority 149");
    const reg = field(stdinOf("k8s-workerNode-0-registries"), "REGISTRY");
    expect(reg).toBeDefined();
    const lines = stdinOf("k8s-workerNode-0-registries")
      .split("\n")
      .filter((l) => l.startsWith("REGISTRY="));
    const https = lines[1].slice("REGISTRY=".length).split("|");
    expect(https[0]).toBe("registry.example:5443");
    expect(Buffer.from(https[2], "base64").toString()).toContain("BEGIN CERTIFICATE");
    expect(decoded(stdinOf("k8s-workerNode-0-prepare"), "HOSTS_B64")).toContain("192.168.246.11 registry.example\n");
  });

  it("heal of a master: out of the other masters' HAProxy, removed (etcd) on its anchor, before its server is replaced; rejoined as control plane", async () => {
    const { deps } = build(COMPLEX, { healGenerations: { "masterNode-1": 1 } });
    await settle();
    expect(deps.get("k8s-vnf-masterNode-1")).toEqual(["k8s-masterNode-1-heal-remove"]);
    expect(deps.get("k8s-masterNode-1-heal-remove")).toEqual(["k8s-masterNode-0-heal-lb-masterNode-1", "k8s-masterNode-2-heal-lb-masterNode-1"]);
    const without = decoded(stdinOf("k8s-masterNode-2-heal-lb-masterNode-1"), "HAPROXY_CFG_B64");
    expect(without).not.toContain("k8s-masternode-1");
    expect(without).toContain("k8s-masternode-2");
    expect(field(stdinOf("k8s-masterNode-1-heal-remove"), "ROLE")).toBe("master");
    expect(one("k8s-masterNode-1-join").inputs.triggers).toEqual(["k8s-vnf-masterNode-1-id", 1]);
    // Every master's LB step runs again after the joins (heal generations and server ids in its triggers): the backend comes back.
    expect(one("k8s-masterNode-0-lb").inputs.triggers).toEqual([0, 1, 0, ...M.map((m) => `k8s-vnf-${m}-id`)]);
  });

  it("heal of the first master: it joins through the second master; init is not run again", async () => {
    build(COMPLEX, { healGenerations: { "masterNode-0": 1 } });
    await settle();
    expect(hostOf("k8s-masterNode-0-heal-remove")).toBe(hostOf("k8s-masterNode-1-join"));
    one("k8s-masterNode-0-join");
    expect(one("k8s-init").inputs.triggers).toBeUndefined();
    expect(field(stdinOf("k8s-masterNode-0-join-credentials"), "ROLE")).toBe("master");
  });

  it("helm_installation_script_path: the package's script copied to every master once it is in the cluster, run by install-helm.sh with the proxy on stdin", async () => {
    const { deps } = build(COMPLEX);
    await settle();
    const script = readFileSync(path.join(K8S_FIXTURES, "Scripts/install_helm.sh"));
    expect(deps.get("k8s-masterNode-0-copy-helm-script")).toEqual(["k8s-init"]);
    expect(deps.get("k8s-masterNode-2-copy-helm-script")).toEqual(["k8s-masterNode-2-join"]);
    for (const m of M) {
      const copy = one(`k8s-${m}-copy-helm-script`).inputs;
      expect(copy.remotePath).toBe("/var/tmp/nfv/k8s/package-install_helm.sh");
      expect(deps.get(`k8s-${m}-helm`)).toEqual([`k8s-${m}-copy-helm-script`]);
      const run = one(`k8s-${m}-helm`).inputs;
      expect(run.create).toBe("sudo -n /bin/bash /var/tmp/nfv/k8s/install-helm.sh");
      expect(run.triggers).toEqual([`k8s-vnf-${m}-id`, createHash("sha256").update(script).digest("hex")]);
      const stdin = stdinOf(`k8s-${m}-helm`);
      expect(field(stdin, "SCRIPT")).toBe("/var/tmp/nfv/k8s/package-install_helm.sh");
      expect(field(stdin, "HTTP_PROXY")).toBe("http://user1:password1@host1:3128");
      expect(field(stdin, "NO_PROXY")?.split(",")).toEqual(expect.arrayContaining(["10.10.0.100", "10.10.0.0/24", "localhost"]));
    }
    expect(registered.some((r) => r.name.startsWith("k8s-workerNode-") && r.name.includes("helm"))).toBe(false);
  });

  it("whole heal (cluster heal generation): init runs again on the first master, nobody joins it as a healed node, no heal steps", async () => {
    const cni = path.join(mkdtempSync(path.join(tmpdir(), "nfv-cni-")), "cni.yaml");
    writeFileSync(cni, "kind: List\n");
    const { deps } = build(COMPLEX, { healGeneration: 2, cniManifest: cni });
    await settle();
    // Every step that runs when a node is made (not init: the cluster's own, by heal generation; not
    // the delete-only drains) runs again on a new server: the CNI manifest's copy once did not, and a
    // whole heal's init found no manifest (lab, issue 20).
    const onNodes = registered.filter(
      (r) => r.type.startsWith("command:remote:") && /^k8s-(master|worker)Node-\d+-/.test(r.name) && !(r.inputs.delete && !r.inputs.create),
    );
    expect(onNodes.map((r) => r.name)).toContain("k8s-masterNode-0-copy-cni");
    for (const r of onNodes) {
      const vnfc = /^k8s-((?:master|worker)Node-\d+)-/.exec(r.name)![1];
      expect(r.inputs.triggers, r.name).toContain(`k8s-vnf-${vnfc}-id`);
    }
    expect(one("k8s-init").inputs.triggers).toEqual([2]);
    expect(registered.some((r) => r.name === "k8s-masterNode-0-join" || r.name.includes("-heal-"))).toBe(false);
    expect(deps.get("k8s-masterNode-1-join-credentials")).toEqual(["k8s-init", "k8s-masterNode-1-registries"]);
    // Every other step is tied to its server: new servers run them all again.
    expect(one("k8s-workerNode-1-join").inputs.triggers).toEqual(["k8s-vnf-workerNode-1-id", 0]);
    expect(one("k8s-masterNode-2-prepare").inputs.triggers).toEqual(["k8s-vnf-masterNode-2-id"]);
  });
});

describe("flavour podaffinity (Tacker's BaseHOT: masters and workers in anti-affinity server groups; workers labelled with their host)", () => {
  const POD = "podaffinity_request.json";
  const HOSTS: Record<string, string> = { "k8s-vnf-workerNode-0-id": "compute1", "k8s-vnf-workerNode-1-id": "compute2" };
  const asked: string[] = [];
  const placement = {
    placementOf: (id: pulumi.Input<string>) =>
      pulumi.output(id).apply((i) => {
        asked.push(i);
        return { host: HOSTS[i], hostIsHash: false, zone: "nova" };
      }),
  };

  it("a server group per role, each server in its own role's group", async () => {
    build(POD, { placement });
    await settle();
    expect(names("openstack:compute/serverGroup:ServerGroup")).toEqual(["k8s-vnf-masterNode_server_group", "k8s-vnf-workerNode_server_group"]);
    expect(one("k8s-vnf-workerNode_server_group").inputs).toEqual({ name: "k8s-vnf-workerNode_server_group", policies: ["anti-affinity"] });
    expect(one("k8s-vnf-masterNode_server_group").inputs.policies).toEqual(["anti-affinity"]);
    for (const m of ["masterNode-0", "masterNode-1", "masterNode-2"])
      expect(one(`k8s-vnf-${m}`).inputs.schedulerHints).toEqual([{ group: "k8s-vnf-masterNode_server_group-id" }]);
    for (const w of ["workerNode-0", "workerNode-1"])
      expect(one(`k8s-vnf-${w}`).inputs.schedulerHints).toEqual([{ group: "k8s-vnf-workerNode_server_group-id" }]);
  });

  it("each worker is labelled on its anchor after its join, from Nova's placement of its own server; masters are not", async () => {
    asked.length = 0;
    const { deps } = build(POD, { placement });
    await settle();
    expect(names("command:remote:Command").filter((n) => n.endsWith("-labels"))).toEqual(["k8s-workerNode-0-labels", "k8s-workerNode-1-labels"]);
    for (const [w, host] of [
      ["workerNode-0", "compute1"],
      ["workerNode-1", "compute2"],
    ]) {
      const stdin = stdinOf(`k8s-${w}-labels`);
      expect(field(stdin, "LABELS")).toBe(`CIS-node=${host} topology.kubernetes.io/zone=nova`);
      expect(field(stdin, "NODE_NAME")).toMatch(/^k8s-workernode-\d$/);
      expect(one(`k8s-${w}-labels`).inputs.create).toBe("sudo -n /bin/bash /var/tmp/nfv/k8s/label-node.sh");
      expect(one(`k8s-${w}-labels`).inputs.triggers).toEqual([`k8s-vnf-${w}-id`]);
      expect(deps.get(`k8s-${w}-labels`)).toEqual([`k8s-${w}-join`]);
      expect(hostOf(`k8s-${w}-labels`)).toBe(hostOf(`k8s-${w}-join-credentials`));
      expect(hostOf(`k8s-${w}-labels`)).toBe(hostOf("k8s-masterNode-0-prepare"));
    }
    expect(asked.sort()).toEqual(["k8s-vnf-workerNode-0-id", "k8s-vnf-workerNode-1-id"]);
  });

  it("serverGroups overrides per role: soft-anti-affinity masters; no worker group means no labels and no placement needed", async () => {
    build(POD, { serverGroups: { master: "soft-anti-affinity", worker: "none" } });
    await settle();
    expect(names("openstack:compute/serverGroup:ServerGroup")).toEqual(["k8s-vnf-masterNode_server_group"]);
    expect(one("k8s-vnf-masterNode_server_group").inputs.policies).toEqual(["soft-anti-affinity"]);
    expect(one("k8s-vnf-workerNode-0").inputs.schedulerHints).toBeUndefined();
    expect(registered.some((r) => r.name.endsWith("-labels"))).toBe(false);
  });

  it("other flavours get groups only when asked; anti-affinity workers without a placement source are refused before anything is registered", async () => {
    build("complex_request.json");
    await settle();
    expect(names("openstack:compute/serverGroup:ServerGroup")).toEqual([]);
    registered.length = 0;
    let err: unknown;
    try {
      build("complex_request.json", { serverGroups: { worker: "soft-anti-affinity" } });
    } catch (e) {
      err = e;
    }
    expect(err).toBeInstanceOf(DiagnosticError);
    expect((err as DiagnosticError).diagnostics.map((d) => [d.path, d.message])).toEqual([
      ["placement", expect.stringContaining("labelled with its compute host (CIS-node): pass the OpenStackVim as placement")],
    ]);
    await settle();
    expect(registered).toEqual([]);
  });
});
