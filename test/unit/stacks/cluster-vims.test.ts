/**
 * A CNF on a Kubernetes VIM that is not in `vims`: the VIM of a cluster of the same stack
 * (MagnumCluster, K8sCluster), or a VIM another stack exports, read by `stack_reference`. The
 * settings accept the names and refuse clashes, located; under Pulumi mocks the program puts the
 * CNF's objects on that VIM's provider and keeps the credentials secret.
 */
import { execFileSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import * as https from "node:https";
import type { AddressInfo } from "node:net";
import type { TLSSocket } from "node:tls";
import { tmpdir } from "node:os";
import * as path from "node:path";
import * as pulumi from "@pulumi/pulumi";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { buildKubeconfig } from "../../../clients/kubeconfig";
import { referencedKubeconfig } from "../../../stacks/referenced-vim";
import { loadStackSettings } from "../../../stacks/settings";
import { parseYaml } from "../../../translators/yaml/located-yaml";
import { installMagnumMocks, MAGNUM_CA, MAGNUM_CERT, MAGNUM_KEY } from "../helpers/magnum-mocks";
import { settle, valueOf, type Registered } from "../helpers/pulumi-mocks";
import { kubernetesPackage } from "../../fixtures/kubernetes-package";
import { OS_VIM } from "./vims";

const ROOT = path.join(__dirname, "../../..");
const CNF = { package: "../shared/vnf-packages/test_cnf", instantiate_request: "lab/requests/test-cnf-simple.json" };
const K8S_PACKAGE = kubernetesPackage();
/** Tacker's own parameter file: `vim_name: kubernetes_vim`. */
const K8S_REQUEST = "test/fixtures/k8s-cluster/private_registry_kubernetes_param_file.json";
const CLUSTER = {
  kubernetes_version: "1.30.14",
  kubernetes_package_version: "1.30.14-1.1",
  containerd_package_version: "1.7.24-1",
  sandbox_image: "192.168.246.10:5000/pause:3.9",
};

describe("Kubernetes VIMs that are not under vims", () => {
  it("a CNF may name the VIM of a Magnum cluster of the stack (default name or vim_name)", async () => {
    const s = await loadStackSettings(
      {
        vims: { core: OS_VIM },
        magnumClusters: { mk: { vim: "core", image: "fcos" }, mk2: { vim: "core", image: "fcos", vim_name: "edge" } },
        vnfs: { a: { vim: "kubernetes_vim_mk", ...CNF }, b: { vim: "edge", ...CNF } },
      },
      ROOT,
      "unit",
    );
    expect(s.bag.errors()).toEqual([]);
    expect(s.vnfs.map((p) => [p.entry.name, p.entry.vim, p.component])).toEqual([
      ["a", "kubernetes_vim_mk", "container-vnf"],
      ["b", "edge", "container-vnf"],
    ]);
  });

  it("a CNF may name the VIM of a K8sCluster of the stack (its request's vim_name); a VM VNF may not", async () => {
    const s = await loadStackSettings(
      {
        vims: { core: OS_VIM },
        vnfs: {
          k8s: { vim: "core", package: K8S_PACKAGE, instantiate_request: K8S_REQUEST, cluster: CLUSTER },
          cnf: { vim: "kubernetes_vim", ...CNF },
          vm: { vim: "kubernetes_vim", package: "../shared/vnf-packages/helloworld3", instantiate_request: "test/fixtures/vnf/helloworld3_level1.json" },
        },
      },
      ROOT,
      "unit",
    );
    expect(s.bag.errors().map((d) => [d.code, d.path])).toEqual([["CONFIG_WRONG_VIM", "pulumi-nfv:vnfs.vm.vim"]]);
  });

  it("a cluster's VIM may not take the name of another VIM: located", async () => {
    const yaml = ["config:", "  pulumi-nfv:vnfs:", "    k8s:", "      vim: core", ""].join("\n");
    const s = await loadStackSettings(
      {
        vims: { core: OS_VIM, kubernetes_vim: { type: "kubernetes", auth_url: "https://192.0.2.30:6443", bearer_token: "t", ssl_ca_cert: "None" } },
        vnfs: { k8s: { vim: "core", package: K8S_PACKAGE, instantiate_request: K8S_REQUEST, cluster: CLUSTER } },
      },
      ROOT,
      "unit",
      parseYaml(yaml, "stacks/Pulumi.unit.yaml").documents[0],
    );
    expect(s.bag.errors().map((d) => [d.code, d.path, d.line, d.message])).toContainEqual([
      "CONFIG_DUPLICATE_VIM",
      "pulumi-nfv:vnfs.k8s",
      3,
      "the cluster's Kubernetes VIM would be named 'kubernetes_vim', which is already vims.kubernetes_vim; set vim_name in its instantiate request",
    ]);
  });

  it("stack_reference takes a stack and the VIM's name there; anything else is a located error", async () => {
    const ok = await loadStackSettings(
      { vims: { edge: { stack_reference: "organization/pulumi-nfv/clusters", vim: "kubernetes_vim_mk" }, same: { stack_reference: "clusters" } } },
      ROOT,
      "unit",
    );
    expect(ok.bag.errors()).toEqual([]);
    expect(ok.vims).toEqual([
      { name: "edge", type: "kubernetes", stackReference: { stack: "organization/pulumi-nfv/clusters", vim: "kubernetes_vim_mk" } },
      { name: "same", type: "kubernetes", stackReference: { stack: "clusters", vim: "same" } },
    ]);
    const yaml = [
      "config:",
      "  pulumi-nfv:vims:",
      "    a:",
      "      stack_reference: a/b/c/d",
      "    b:",
      "      stack_reference: clusters",
      "      auth_url: https://x",
      "",
    ].join("\n");
    const bad = await loadStackSettings(
      { vims: { a: { stack_reference: "a/b/c/d" }, b: { stack_reference: "clusters", auth_url: "https://x" } } },
      ROOT,
      "unit",
      parseYaml(yaml, "stacks/Pulumi.unit.yaml").documents[0],
    );
    expect(bad.bag.errors().map((d) => [d.code, d.path, d.line])).toEqual([
      ["CONFIG_BAD_VALUE", "pulumi-nfv:vims.a.stack_reference", 4],
      ["CONFIG_MIXED_VIM", "pulumi-nfv:vims.b.auth_url", 7],
    ]);
  });
});

/**
 * A live CNF checks its VIM's API server for foreign objects before registering them (adoption),
 * so the VIMs here point at a small HTTPS server that has none: its certificate (made now, for
 * 127.0.0.1) is the CA both kubeconfigs carry, so TLS is verified as on a real cluster.
 */
describe("the program puts a CNF on a cluster's VIM or a referenced one", () => {
  let registered: Registered[];
  let program: typeof import("../../../stacks/program");
  let server: https.Server;
  let work: string;
  const seen: string[] = [];

  beforeAll(async () => {
    work = mkdtempSync(path.join(tmpdir(), "nfv-cluster-vims-"));
    const [cert, key] = [path.join(work, "api.crt"), path.join(work, "api.key")];
    execFileSync(
      "openssl",
      [
        "req",
        "-x509",
        "-newkey",
        "ec",
        "-pkeyopt",
        "ec_paramgen_curve:P-256",
        "-nodes",
        "-days",
        "1",
        "-subj",
        "/CN=127.0.0.1",
        "-addext",
        "subjectAltName=IP:127.0.0.1",
        "-keyout",
        key,
        "-out",
        cert,
      ],
      { stdio: "ignore" },
    );
    // Asks for a client certificate without judging it, so the test sees which one came.
    server = https.createServer({ cert: readFileSync(cert), key: readFileSync(key), requestCert: true, rejectUnauthorized: false }, (req, res) => {
      const peer = (req.socket as TLSSocket).getPeerCertificate();
      seen.push(`${req.method} ${req.url} ${req.headers.authorization ?? `client certificate CN=${peer?.subject?.CN ?? "none"}`}`);
      res.writeHead(404, { "Content-Type": "application/json" });
      res.end(JSON.stringify({ kind: "Status", code: 404 }));
    });
    await new Promise<void>((r) => server.listen(0, "127.0.0.1", () => r()));
    const url = `https://127.0.0.1:${(server.address() as AddressInfo).port}`;
    const ca = readFileSync(cert, "utf8");
    const referenced = buildKubeconfig({ name: "kubernetes_vim_mk", server: url, namespace: "cnf", caPem: ca, bearerToken: "tok-from-cluster-stack" });
    registered = installMagnumMocks({
      "openstack:containerinfra/cluster:Cluster": {
        kubeconfig: { host: url, cluster_ca_certificate: ca, client_certificate: MAGNUM_CERT, client_key: MAGNUM_KEY },
      },
      "pulumi:pulumi:StackReference": { outputs: { kubeconfigs: { kubernetes_vim_mk: referenced } }, secretOutputNames: ["kubeconfigs"] },
    });
    program = await import("../../../stacks/program");
  });
  afterAll(async () => {
    await new Promise<void>((r) => server.close(() => r()));
    rmSync(work, { recursive: true, force: true });
  });
  afterEach(async () => {
    await settle();
    registered.length = 0;
    seen.length = 0;
  });
  /** The CNF's Kubernetes objects, once its adoption check has let them be registered. */
  async function cnfObjects(): Promise<Registered[]> {
    const objects = () => registered.filter((r) => r.name.startsWith("cnf-") && r.type.startsWith("kubernetes:"));
    for (let i = 0; i < 50 && objects().length === 0; i++) await settle();
    return objects();
  }

  it("same stack: the CNF's objects go to the Magnum cluster's provider, after a check on its API server", async () => {
    pulumi.runtime.setAllConfig(
      {
        "pulumi-nfv:vims": JSON.stringify({ core: OS_VIM }),
        "pulumi-nfv:magnum_clusters": JSON.stringify({ mk: { vim: "core", image: "fcos" } }),
        "pulumi-nfv:vnfs": JSON.stringify({ cnf: { vim: "kubernetes_vim_mk", ...CNF } }),
      },
      ["pulumi-nfv:vims"],
    );
    const outputs = await program.deployStack();
    const objects = await cnfObjects();
    expect(objects.map((r) => r.type)).toContain("kubernetes:apps/v1:Deployment");
    for (const r of objects) expect(r.provider).toMatch(/::kubernetes_vim_mk-provider::/);
    expect(seen.length).toBeGreaterThan(0);
    expect(seen.every((l) => l.endsWith("client certificate CN=pulumi-nfv test client"))).toBe(true);
    expect(await valueOf(outputs.vnfs.cnf)).toMatchObject({ component: "container-vnf", vim: "kubernetes_vim_mk" });
  });

  it("StackReference: the VIM is made from the other stack's kubeconfig; credentials stay secret", async () => {
    pulumi.runtime.setAllConfig(
      {
        "pulumi-nfv:vims": JSON.stringify({ edge: { stack_reference: "organization/pulumi-nfv/clusters", vim: "kubernetes_vim_mk" } }),
        "pulumi-nfv:vnfs": JSON.stringify({ cnf: { vim: "edge", ...CNF } }),
      },
      ["pulumi-nfv:vims"],
    );
    const outputs = await program.deployStack();
    const objects = await cnfObjects();
    const ref = registered.find((r) => r.type === "pulumi:pulumi:StackReference")!;
    expect([ref.name, ref.inputs.name]).toEqual(["edge-stack", "organization/pulumi-nfv/clusters"]);
    expect(objects.map((r) => r.type)).toContain("kubernetes:apps/v1:Deployment");
    for (const r of objects) expect(r.provider).toMatch(/::edge-provider::/);
    // The adoption check ran with the referenced token, so the provider has the same credentials.
    expect(seen.length).toBeGreaterThan(0);
    expect(seen.every((l) => l.endsWith("Bearer tok-from-cluster-stack"))).toBe(true);
    expect(await pulumi.isSecret(outputs.kubeconfigs.edge)).toBe(true);
    const record = await valueOf(outputs.vims.edge);
    expect(record).toMatchObject({ name: "edge", type: "kubernetes", vim_project: { name: "cnf" } });
    expect(JSON.stringify(record)).not.toContain("tok-from-cluster-stack");
  });
});

describe("referencedKubeconfig", () => {
  const ref = { stack: "clusters", vim: "kubernetes_vim_mk" };
  const kc = buildKubeconfig({
    name: "kubernetes_vim_mk",
    server: "https://192.0.2.50:6443",
    namespace: "cnf",
    caPem: MAGNUM_CA,
    clientCertificate: MAGNUM_CERT,
    clientKey: MAGNUM_KEY,
  });

  it("takes the VIM's kubeconfig from the other stack's kubeconfigs output", () => {
    expect(referencedKubeconfig("edge", ref, { kubernetes_vim_mk: kc })).toEqual({
      name: "kubernetes_vim_mk",
      server: "https://192.0.2.50:6443",
      namespace: "cnf",
      caPem: MAGNUM_CA,
      bearerToken: undefined,
      username: undefined,
      password: undefined,
      clientCertificate: MAGNUM_CERT,
      clientKey: MAGNUM_KEY,
    });
  });

  it("a VIM that stack does not export, or an unusable kubeconfig: the error names the VIM, the stack and the field", () => {
    expect(() => referencedKubeconfig("edge", { ...ref, vim: "nope" }, { kubernetes_vim_mk: kc, other: kc })).toThrow(
      "VIM 'edge' (stack_reference clusters, vim nope): that stack exports no Kubernetes VIM 'nope'; its kubeconfigs output has: kubernetes_vim_mk, other",
    );
    expect(() => referencedKubeconfig("edge", ref, undefined)).toThrow("its kubeconfigs output has: none");
    const noCa = kc.replace(/certificate-authority-data: .*/, "server2: x");
    expect(() => referencedKubeconfig("edge", ref, { kubernetes_vim_mk: noCa })).toThrow(
      "VIM 'edge' (stack_reference clusters, vim kubernetes_vim_mk): kubeconfig: clusters.kubernetes_vim_mk: certificate-authority-data is not set (and TLS verification is not off)",
    );
    const noUser = kc.replace(/client-(certificate|key)-data: .*/g, "$1: y");
    expect(() => referencedKubeconfig("edge", ref, { kubernetes_vim_mk: noUser })).toThrow(
      "users.kubernetes_vim_mk: no token, username, client-certificate-data or OIDC exec plugin",
    );
    expect(() => referencedKubeconfig("edge", ref, { kubernetes_vim_mk: "apiVersion: v1\n" })).toThrow("kubeconfig: current-context is not set");
  });
});
