/**
 * k8s_cluster_installation_param read as Tacker reads it, on the real kubernetes_vnf_package and the
 * seed's param file as it is. Pure checks: proves parsing, defaults and located errors.
 */
import { mkdtempSync, mkdirSync, readFileSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import * as path from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { formatDiagnostic } from "../../../translators/diagnostics";
import type { Flavour, VnfModel } from "../../../translators/tosca/model";
import { readK8sClusterInstallation, readK8sClusterParamFile } from "../../../components/k8s-cluster/params";
import { DirectorySource } from "../../../translators/tosca/phase1-read/package-source";
import { K8S_FIXTURES, k8sModel, seedRequestText, SEED_FILE } from "./k8s-fixtures";

const SRC = new DirectorySource(K8S_FIXTURES, K8S_FIXTURES);

let pkg: VnfModel;
let simple: Flavour;
let complex: Flavour;
beforeAll(async () => {
  pkg = await k8sModel();
  simple = pkg.flavours.find((f) => f.id === "simple")!;
  complex = pkg.flavours.find((f) => f.id === "complex")!;
});

/** A valid parameter set for the package; tests break one thing at a time. */
function params(over: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    script_path: "Scripts/install_k8s_cluster.sh",
    master_node: {
      aspect_id: "master_instance",
      ssh_cp_name: "masterNode_CP1",
      nic_cp_name: "masterNode_CP1",
      username: "ubuntu",
      password: "ubuntu",
      cluster_cp_name: "vip_CP",
    },
    worker_node: { aspect_id: "worker_instance", ssh_cp_name: "workerNode_CP2", nic_cp_name: "workerNode_CP2", username: "ubuntu", password: "ubuntu" },
    ...over,
  };
}
const read = (p: Record<string, unknown>, opts: Partial<Parameters<typeof readK8sClusterInstallation>[1]> = {}) =>
  readK8sClusterInstallation({ additionalParams: { k8s_cluster_installation_param: p } }, { flavour: complex, masterCount: 3, ...opts });
const codes = (r: ReturnType<typeof read>) => r.bag.items.map((d) => [d.severity, d.code, d.path]);

describe("the seed's private_registry_kubernetes_param_file.json", () => {
  it("is accepted as it is: Tacker's defaults, the registry with tacker/tacker, proxy and node CIDR", () => {
    const r = readK8sClusterParamFile(seedRequestText(), SEED_FILE, { flavours: pkg.flavours, packageSource: SRC, masterCount: 1 });
    expect(r.bag.errors()).toEqual([]);
    // `#` comments (warned by the request reader) and the script Tacker would need but we do not.
    expect(r.bag.warnings().map((d) => [d.code, d.line])).toEqual([
      ["REQUEST_JSON_COMMENT", 5],
      ["REQUEST_JSON_COMMENT", 38],
      ["REQUEST_JSON_COMMENT", 47],
      ["REQUEST_JSON_COMMENT", 58],
      ["K8S_SCRIPT_PATH_UNUSED", 10],
    ]);
    expect(r.value).toEqual({
      scriptPath: "Scripts/install_k8s_cluster.sh",
      vimName: "kubernetes_vim",
      master: {
        aspectId: "master_instance",
        sshCpName: "masterNode_CP1",
        nicCpName: "masterNode_CP1",
        vduId: "masterNode",
        username: "ubuntu",
        password: "ubuntu",
        podCidr: "192.168.0.0/16",
        serviceCidr: "10.199.187.0/24",
        clusterCpName: "vip_CP",
        vip: true,
      },
      worker: {
        aspectId: "worker_instance",
        sshCpName: "workerNode_CP2",
        nicCpName: "workerNode_CP2",
        vduId: "workerNode",
        username: "ubuntu",
        password: "ubuntu",
      },
      proxy: {
        httpProxy: "http://user1:password1@host1:3128",
        httpsProxy: "https://user2:password2@host2:3129",
        noProxy: ["192.168.246.0/24", "10.0.0.1"],
        k8sNodeCidr: "10.10.0.0/24",
      },
      registries: [{ connectionType: "0", server: "192.168.246.10:5000", username: "tacker", password: "tacker" }],
    });
  });
});

describe("proxy values are typed, checked before anything is registered", () => {
  // The payloads: one ran `id` as root at the next apt-get update, one added an
  // environment line to the kubelet drop-in; Tacker's `host1:port1` placeholder is no URL either.
  const PAYLOADS = {
    http_proxy: 'http://p:3128"; APT::Update::Pre-Invoke {"id > F";}; Dummy "',
    https_proxy: "https://user2:S3cret@host2:port2",
    no_proxy: '10.0.0.1" "LD_PRELOAD=/x.so',
  };

  it("refused at file:line:column of each value, naming the field, never the value", () => {
    const seed = JSON.parse(seedRequestText().replace(/\s#[^\n]*/g, ""));
    seed.additionalParams.k8s_cluster_installation_param.proxy = { ...PAYLOADS, k8s_node_cidr: "10.10.0.0/24" };
    const text = JSON.stringify(seed, null, 2);
    const r = readK8sClusterParamFile(text, "req.json", { flavours: pkg.flavours, packageSource: SRC, masterCount: 1 });
    expect(r.value).toBeUndefined();
    const line = (needle: string) => text.split("\n").findIndex((l) => l.includes(needle)) + 1;
    expect(r.bag.errors().map((d) => [d.code, d.line, d.column])).toEqual([
      ["K8S_PROXY_URL", line('"http_proxy"'), expect.any(Number)],
      ["K8S_PROXY_URL", line('"https_proxy"'), expect.any(Number)],
      ["K8S_NO_PROXY", line('"no_proxy"'), expect.any(Number)],
    ]);
    expect(r.bag.errors().map((d) => d.message)).toEqual([
      "http_proxy is not a URL: character 14 (a quote) is not allowed in a proxy URL",
      "https_proxy is not a URL (expected http://[user:password@]host[:port])",
      "no_proxy entry 1 is not a host, domain, IP address or CIDR",
    ]);
    expect(JSON.stringify(r.bag.items)).not.toMatch(/Pre-Invoke|S3cret|LD_PRELOAD/);
  });

  it("a URL with a path, a query, a bad %-escape or another scheme is refused; a valid one is kept as written", () => {
    const msg = (http_proxy: string) =>
      read(params({ proxy: { http_proxy, https_proxy: "http://p:3128" } }))
        .bag.errors()
        .map((d) => d.message);
    expect(msg("http://p:3128/x")).toEqual(["http_proxy must not have a path (expected http://[user:password@]host[:port])"]);
    expect(msg("http://p:3128?a=b")).toEqual(["http_proxy must not have a query or fragment"]);
    expect(msg("http://u:p%zz@p:3128")).toEqual(["http_proxy is not a URL: a `%` not followed by two hex digits"]);
    expect(msg("file:///etc/passwd")).toEqual(["http_proxy must be an http or https URL, not file"]);
    expect(msg("http://p:3128 ")).toEqual(["http_proxy is not a URL: character 14 (a space) is not allowed in a proxy URL"]);
    const ok = read(
      params({
        proxy: {
          http_proxy: "http://u:p%40ss@proxy.example:3128",
          https_proxy: "https://[2001:db8::1]:3128/",
          no_proxy: " .example.com, 10.0.0.0/8 ,*.svc,[::1]:80,host:8080,,",
        },
      }),
    );
    expect(ok.bag.errors()).toEqual([]);
    expect(ok.value?.proxy).toEqual({
      httpProxy: "http://u:p%40ss@proxy.example:3128",
      httpsProxy: "https://[2001:db8::1]:3128/",
      noProxy: [".example.com", "10.0.0.0/8", "*.svc", "[::1]:80", "host:8080"],
    });
  });
});

describe("readK8sClusterInstallation", () => {
  it("Tacker's defaults: pod 192.168.0.0/16, services 10.96.0.0/12; no proxy, no registry", () => {
    const r = read(params());
    expect(r.bag.items).toEqual([]);
    expect(r.value?.master).toMatchObject({ podCidr: "192.168.0.0/16", serviceCidr: "10.96.0.0/12", vip: true });
    expect(r.value?.registries).toEqual([]);
    expect(r.value?.proxy).toBeUndefined();
  });

  it("a single master may use its own CP as the endpoint (no VIP)", () => {
    const p = params();
    (p.master_node as Record<string, unknown>).cluster_cp_name = "masterNode_CP1";
    const r = read(p, { flavour: simple, masterCount: 1 });
    expect(r.bag.items).toEqual([]);
    expect(r.value?.master.vip).toBe(false);
  });

  it("HTTPS registry with a CA from the package and an /etc/hosts line", () => {
    const r = read(
      params({
        private_registry_connection_info: [
          {
            connection_type: "1",
            server: "registry.example:5443",
            username: "u",
            password: "p",
            certificate_path: "Files/registry-ca.crt",
            hosts_string: "192.0.2.50 registry.example",
          },
        ],
      }),
      { packageSource: SRC },
    );
    expect(r.bag.items.map((d) => d.code)).toEqual(["K8S_SCRIPT_PATH_UNUSED"]);
    expect(r.value?.registries).toEqual([
      {
        connectionType: "1",
        server: "registry.example:5443",
        username: "u",
        password: "p",
        certificatePath: "Files/registry-ca.crt",
        caPem: readFileSync(path.join(K8S_FIXTURES, "Files/registry-ca.crt"), "utf8"),
        hostsString: "192.0.2.50 registry.example",
      },
    ]);
  });

  it("proxy applies only with both http_proxy and https_proxy (Tacker); otherwise warned and ignored", () => {
    const r = read(params({ proxy: { http_proxy: "http://proxy:3128" } }));
    expect(codes(r)).toEqual([["warning", "K8S_PROXY_IGNORED", "additionalParams.k8s_cluster_installation_param.proxy"]]);
    expect(r.value?.proxy).toBeUndefined();
  });

  it("invalid and overlapping CIDRs, each at its field", () => {
    const p = params({ proxy: { http_proxy: "http://p:1", https_proxy: "http://p:1", k8s_node_cidr: "10.96.0.0/24" } });
    Object.assign(p.master_node as object, { pod_cidr: "192.168.1.0/16", cluster_cidr: "10.96.0.0/12" });
    const r = read(p);
    expect(r.value).toBeUndefined();
    expect(r.bag.errors().map(formatDiagnostic)).toEqual([
      "additionalParams.k8s_cluster_installation_param.master_node.pod_cidr: error K8S_CIDR: `192.168.1.0/16` has host bits set (did you mean 192.168.0.0/16?)",
      "additionalParams.k8s_cluster_installation_param.proxy.k8s_node_cidr: error K8S_CIDR_OVERLAP: k8s_node_cidr 10.96.0.0/24 overlaps cluster_cidr 10.96.0.0/12",
    ]);
    const bad = params();
    Object.assign(bad.master_node as object, { pod_cidr: "10.0.0.0/8", cluster_cidr: "10.300.0.0/16" });
    expect(
      read(bad)
        .bag.errors()
        .map((d) => d.message),
    ).toEqual(["`10.300.0.0/16`: `10.300.0.0` is not an IPv4 address"]);
    const overlap = params();
    Object.assign(overlap.master_node as object, { pod_cidr: "10.0.0.0/8" });
    expect(
      read(overlap)
        .bag.errors()
        .map((d) => [d.code, d.message]),
    ).toEqual([["K8S_CIDR_OVERLAP", "cluster_cidr 10.96.0.0/12 overlaps pod_cidr 10.0.0.0/8"]]);
  });

  it('connection_type must be the string "0" or "1"; server host:port; hosts_string IP FQDN; duplicates', () => {
    const r = read(
      params({
        private_registry_connection_info: [
          { connection_type: 0, server: "192.0.2.1:5000" },
          { connection_type: "2", server: "192.0.2.2" },
          { connection_type: "0", server: "192.0.2.3:5000", hosts_string: "registry.example 192.0.2.3" },
          { connection_type: "0", server: "192.0.2.3:5000" },
          { server: "192.0.2.4:5000" },
        ],
      }),
    );
    expect(r.bag.errors().map((d) => [d.code, d.path])).toEqual([
      ["K8S_CONNECTION_TYPE", "additionalParams.k8s_cluster_installation_param.private_registry_connection_info[0].connection_type"],
      ["K8S_CONNECTION_TYPE", "additionalParams.k8s_cluster_installation_param.private_registry_connection_info[1].connection_type"],
      ["K8S_REGISTRY_SERVER", "additionalParams.k8s_cluster_installation_param.private_registry_connection_info[1].server"],
      ["K8S_HOSTS_STRING", "additionalParams.k8s_cluster_installation_param.private_registry_connection_info[2].hosts_string"],
      ["K8S_REGISTRY_SERVER", "additionalParams.k8s_cluster_installation_param.private_registry_connection_info[3].server"],
      ["K8S_PARAM_MISSING", "additionalParams.k8s_cluster_installation_param.private_registry_connection_info[4].connection_type"],
    ]);
    expect(r.bag.errors()[0].message).toBe('connection_type must be the string "0" (HTTP) or "1" (HTTPS), got 0');
  });

  it("CP names not in the VNFD, CPs of the wrong VDU, an unknown aspect", () => {
    const p = params();
    Object.assign(p.master_node as object, { ssh_cp_name: "master_CP9", aspect_id: "worker_instance" });
    Object.assign(p.worker_node as object, { nic_cp_name: "masterNode_CP1" });
    const r = read(p);
    expect(r.bag.errors().map((d) => [d.code, d.message])).toEqual([
      ["K8S_CP_NAME", "ssh_cp_name `master_CP9` is not a CP of flavour `complex` (CPs: masterNode_CP1, workerNode_CP2)"],
      ["K8S_ASPECT_ID", "aspect_id `worker_instance` scales workerNode, not the master VDU `masterNode`"],
      ["K8S_CP_NAME", "ssh_cp_name `workerNode_CP2` (VDU workerNode) and nic_cp_name `masterNode_CP1` (VDU masterNode) must belong to the same worker VDU"],
    ]);
  });

  it("HA on a master's own CP is refused; an even number of masters is warned", () => {
    const own = params();
    (own.master_node as Record<string, unknown>).cluster_cp_name = "masterNode_CP1";
    expect(
      read(own)
        .bag.errors()
        .map((d) => d.code),
    ).toEqual(["K8S_CP_NAME"]);
    const r = read(params(), { masterCount: 4 });
    expect(r.bag.errors()).toEqual([]);
    expect(r.bag.warnings().map((d) => [d.code, d.message])).toEqual([
      ["K8S_EVEN_MASTERS", "4 masters: etcd tolerates no more failures with 4 than with 3; use an odd number"],
    ]);
  });

  it("a missing certificate_path file, or one outside the package", () => {
    const r = read(
      params({
        private_registry_connection_info: [
          { connection_type: "1", server: "192.0.2.1:5443", certificate_path: "Files/missing.crt" },
          { connection_type: "1", server: "192.0.2.2:5443", certificate_path: "../../etc/ssl/ca.crt" },
        ],
      }),
      { packageSource: SRC },
    );
    expect(r.bag.errors().map((d) => [d.code, d.message])).toEqual([
      ["K8S_CERTIFICATE_PATH", `certificate_path Files/missing.crt is not a file of the package ${K8S_FIXTURES}`],
      ["K8S_CERTIFICATE_PATH", "certificate_path ../../etc/ssl/ca.crt must be a path inside the package"],
    ]);
  });

  it("helm_installation_script_path: kept when the package has it; missing or outside the package is an error at the field", () => {
    const ok = read(params({ helm_installation_script_path: "Scripts/install_helm.sh" }), { packageSource: SRC });
    expect(ok.value?.helmInstallationScriptPath).toBe("Scripts/install_helm.sh");
    expect(ok.value?.helmInstallationScript).toEqual(readFileSync(path.join(K8S_FIXTURES, "Scripts/install_helm.sh")));
    expect(ok.bag.errors()).toEqual([]);
    for (const [file, message] of [
      ["Scripts/nope.sh", `helm_installation_script_path Scripts/nope.sh is not a file of the package ${K8S_FIXTURES}`],
      ["/usr/bin/helm", "helm_installation_script_path /usr/bin/helm must be a path inside the package"],
    ]) {
      const r = read(params({ helm_installation_script_path: file }), { packageSource: SRC });
      expect(r.bag.errors().map((d) => [d.code, d.message, d.path])).toEqual([
        ["K8S_HELM_SCRIPT_PATH", message, "additionalParams.k8s_cluster_installation_param.helm_installation_script_path"],
      ]);
    }
  });

  it("package files are read through the package source: a symbolic link (to a file outside or inside) or a directory is refused at the field", () => {
    const dir = mkdtempSync(path.join(tmpdir(), "k8s-pkg-"));
    mkdirSync(path.join(dir, "Files"));
    writeFileSync(path.join(dir, "Files/real.crt"), "CA");
    writeFileSync(path.join(dir, "outside.sh"), "echo operator's file");
    symlinkSync(path.join(dir, "outside.sh"), path.join(dir, "Files/linked.sh"));
    symlinkSync("real.crt", path.join(dir, "Files/linked.crt"));
    mkdirSync(path.join(dir, "Files/dir.crt"));
    const source = new DirectorySource(dir, dir);
    const r = read(
      params({
        helm_installation_script_path: "Files/linked.sh",
        private_registry_connection_info: [
          { connection_type: "1", server: "192.0.2.1:5443", certificate_path: "Files/linked.crt" },
          { connection_type: "1", server: "192.0.2.2:5443", certificate_path: "Files/dir.crt" },
          { connection_type: "1", server: "192.0.2.3:5443", certificate_path: "Files/./real.crt" },
        ],
      }),
      { packageSource: source },
    );
    expect(r.bag.errors().map((d) => [d.code, d.path?.replace("additionalParams.k8s_cluster_installation_param", "$"), d.message])).toEqual([
      [
        "K8S_HELM_SCRIPT_PATH",
        "$.helm_installation_script_path",
        "helm_installation_script_path Files/linked.sh is a symbolic link or not a regular file; a package file must be a regular file inside the package",
      ],
      [
        "K8S_CERTIFICATE_PATH",
        "$.private_registry_connection_info[0].certificate_path",
        "certificate_path Files/linked.crt is a symbolic link or not a regular file; a package file must be a regular file inside the package",
      ],
      ["K8S_CERTIFICATE_PATH", "$.private_registry_connection_info[1].certificate_path", `certificate_path Files/dir.crt is not a file of the package ${dir}`],
    ]);
  });

  it("missing required keys, wrong types, unknown keys; unsupported features warned", () => {
    const r = read({ master_node: { username: 7 }, worker_node: "w", colour: "blue", storage_server: {} });
    expect(r.value).toBeUndefined();
    expect(codes(r).map(([s, c, p]) => `${s} ${c} ${p?.replace("additionalParams.k8s_cluster_installation_param", "$")}`)).toEqual([
      "warning K8S_PARAM_UNKNOWN $.colour",
      "error K8S_PARAM_MISSING $.script_path",
      "warning K8S_UNSUPPORTED $.storage_server",
      "error K8S_PARAM_TYPE $.master_node.username",
      "error K8S_PARAM_MISSING $.master_node.password",
      "error K8S_PARAM_MISSING $.master_node.ssh_cp_name",
      "error K8S_PARAM_MISSING $.master_node.nic_cp_name",
      "error K8S_PARAM_MISSING $.master_node.cluster_cp_name",
      "error K8S_PARAM_TYPE $.worker_node",
    ]);
  });

  it("errors from a file are located at file:line:column", () => {
    const dir = mkdtempSync(path.join(tmpdir(), "k8s-params-"));
    const text = readFileSync(path.join(K8S_FIXTURES, "private_registry_kubernetes_param_file.json"), "utf8").replace(
      '"connection_type": "0"',
      '"connection_type": "http"',
    );
    const file = path.join(dir, "req.json");
    writeFileSync(file, text);
    mkdirSync(path.join(dir, "pkg"));
    const r = readK8sClusterParamFile(text, file, { flavours: pkg.flavours, packageSource: new DirectorySource(path.join(dir, "pkg"), path.join(dir, "pkg")) });
    expect(r.bag.errors().map(formatDiagnostic)).toEqual([
      `${file}:37:20 (additionalParams.k8s_cluster_installation_param.private_registry_connection_info[0].connection_type): error K8S_CONNECTION_TYPE: connection_type must be the string "0" (HTTP) or "1" (HTTPS), got "http"`,
    ]);
  });
});
