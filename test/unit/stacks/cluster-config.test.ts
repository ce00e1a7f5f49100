/**
 * A kubernetes-cluster VNF in a stack config: the `cluster` mapping (pinned versions, sandbox
 * image), located errors for it, the K8sCluster the program registers (VmVnf with a Nova key pair
 * from `ssh.public_key_file`, outputs, kubeconfig only as a secret), and what `nfv scale` and
 * `nfv heal` plan for a cluster. Pulumi mocks (k8s-mocks: init/join-credentials stdout).
 */
import { parseAllDocuments } from "yaml";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import * as path from "node:path";
import * as pulumi from "@pulumi/pulumi";
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { planHealOperation, planScaleOperation } from "../../../ops/operations";
import { loadStackSettings } from "../../../stacks/settings";
import { DiagnosticError } from "../../../translators/diagnostics";
import { isSecretValue, plain, settle, type Registered } from "../helpers/pulumi-mocks";
import { startFakeNova } from "../helpers/fake-nova";
import { installK8sMocks } from "../k8s-cluster/k8s-mocks";
import { kubernetesPackage } from "../../fixtures/kubernetes-package";
import { OS_VIM } from "./vims";

const ROOT = path.join(__dirname, "../../..");
const PACKAGE = kubernetesPackage();
const REQUEST = "test/fixtures/k8s-cluster/private_registry_kubernetes_param_file.json";
const COMPLEX = "test/fixtures/k8s-cluster/complex_request.json";
const KEY = path.join(ROOT, "test/fixtures/pki/client.key");
const CLUSTER = {
  kubernetes_version: "1.30.14",
  kubernetes_package_version: "1.30.14-1.1",
  containerd_package_version: "1.7.24-1",
  sandbox_image: "192.168.246.10:5000/pause:3.9",
};
const PUBLIC_KEY = "ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIFakeKeyForTheUnitTestsOnly0000000000000000 k8s";

let registered: Registered[];
let program: typeof import("../../../stacks/program");
let work: string;
let pubFile: string;

beforeAll(async () => {
  registered = installK8sMocks();
  program = await import("../../../stacks/program");
  work = mkdtempSync(path.join(tmpdir(), "nfv-cluster-config-"));
  pubFile = path.join(work, "id.pub");
  writeFileSync(pubFile, `${PUBLIC_KEY}\n`);
});
afterAll(() => rmSync(work, { recursive: true, force: true }));
afterEach(async () => {
  await settle();
  registered.length = 0;
});

const entry = (extra: Record<string, unknown> = {}) => ({
  vim: "core",
  package: PACKAGE,
  instantiate_request: REQUEST,
  ssh: { user: "ubuntu", private_key_file: KEY, public_key_file: pubFile },
  cluster: CLUSTER,
  ...extra,
});

function setConfig(vnfs: unknown): void {
  pulumi.runtime.setAllConfig({ "pulumi-nfv:vims": JSON.stringify({ core: OS_VIM }), "pulumi-nfv:vnfs": JSON.stringify(vnfs) }, ["pulumi-nfv:vims"]);
}

async function failure(): Promise<DiagnosticError> {
  try {
    await program.deployStack();
  } catch (err) {
    return err as DiagnosticError;
  }
  throw new Error("expected the stack config to be refused");
}

describe("a kubernetes-cluster VNF in the stack config", () => {
  it("becomes a K8sCluster on the OpenStack VIM: VMs with a Nova key pair from public_key_file, the VIP port, the commands", async () => {
    setConfig({ k8ss: entry() });
    const outputs = await program.deployStack();
    await settle();
    const of = (type: string) =>
      registered
        .filter((r) => r.type === type)
        .map((r) => r.name)
        .sort();
    expect(of("nfv:k8s:Cluster")).toEqual(["k8ss"]);
    expect(of("openstack:compute/instance:Instance")).toEqual(["k8ss-vnf-masterNode-0", "k8ss-vnf-workerNode-0", "k8ss-vnf-workerNode-1"]);
    const keypair = registered.find((r) => r.type === "openstack:compute/keypair:Keypair")!;
    expect(keypair.name).toBe("k8ss-vnf-keypair");
    expect(plain(keypair.inputs.publicKey)).toBe(PUBLIC_KEY);
    expect(registered.find((r) => r.name === "k8ss-vnf-masterNode-0")!.inputs.keyPair).toBe("k8ss-vnf-keypair");
    expect(of("openstack:networking/port:Port")).toContain("k8ss-vip_CP");
    expect(of("command:remote:Command")).toEqual(expect.arrayContaining(["k8ss-init", "k8ss-workerNode-0-join", "k8ss-workerNode-1-drain"]));
    // Outputs: the cluster's endpoint and VNFCs; its kubeconfig only under kubeconfigs, as a secret.
    expect(Object.keys(outputs.vnfs)).toEqual(["k8ss"]);
    const out = await new Promise<Record<string, unknown>>((resolve) => outputs.vnfs.k8ss.apply((v) => resolve(v as Record<string, unknown>)));
    expect(out).toMatchObject({ component: "kubernetes-cluster", vim: "core", vimName: "kubernetes_vim" });
    expect(String(out.endpoint)).toMatch(/^https:\/\/10\.10\.0\.\d+:16443$/);
    expect(Object.keys(out.vnfcs as object).sort()).toEqual(["masterNode-0", "workerNode-0", "workerNode-1"]);
    expect(JSON.stringify(out)).not.toContain("kubeconfig");
    expect(Object.keys(outputs.kubeconfigs)).toEqual(["kubernetes_vim"]);
    expect(await pulumi.isSecret(outputs.kubeconfigs.kubernetes_vim)).toBe(true);
  });

  it("the cluster's SSH key is a secret on every command's connection", async () => {
    setConfig({ k8ss: entry() });
    await program.deployStack();
    await settle();
    const init = registered.find((r) => r.name === "k8ss-init")!;
    expect(isSecretValue(init.inputs.connection) || isSecretValue((init.inputs.connection as Record<string, unknown>).privateKey)).toBe(true);
  });

  it("refuses a cluster without its cluster mapping, and bad cluster keys, located, registering nothing", async () => {
    setConfig({
      k8sa: entry({ cluster: undefined }),
      k8sb: entry({ cluster: { ...CLUSTER, kubernetes_version: "latest", sandbox_image: "pause:latest", colour: "blue" } }),
      k8sc: entry({ cluster: { kubernetes_version: "1.30.14", kubernetes_package_version: 1.3 } }),
    });
    const err = await failure();
    expect(err.diagnostics.map((d) => [d.code, d.path])).toEqual([
      ["CONFIG_UNKNOWN_KEY", "pulumi-nfv:vnfs.k8sb.cluster.colour"],
      ["CONFIG_BAD_VALUE", "pulumi-nfv:vnfs.k8sb.cluster.kubernetes_version"],
      ["CONFIG_BAD_VALUE", "pulumi-nfv:vnfs.k8sb.cluster.sandbox_image"],
      ["CONFIG_BAD_TYPE", "pulumi-nfv:vnfs.k8sc.cluster.kubernetes_package_version"],
      ["CONFIG_MISSING_FIELD", "pulumi-nfv:vnfs.k8sc.cluster"],
      ["CONFIG_MISSING_FIELD", "pulumi-nfv:vnfs.k8sc.cluster"],
    ]);
    await settle();
    expect(registered).toEqual([]);
  });

  it("podaffinity: server groups from master_server_group/worker_server_group; workers labelled with the host Nova reports to the VIM's user", async () => {
    const nova = await startFakeNova({ name: "u", password: "pw", project: "nfv", admin: true });
    try {
      nova.servers["k8sp-vnf-workerNode-0-id"] = { host: "compute1", hostId: "a1", zone: "nova" };
      nova.servers["k8sp-vnf-workerNode-1-id"] = { host: "compute2", hostId: "b2", zone: "nova" };
      pulumi.runtime.setAllConfig(
        {
          "pulumi-nfv:vims": JSON.stringify({ core: { ...OS_VIM, auth_url: nova.authUrl } }),
          "pulumi-nfv:vnfs": JSON.stringify({
            k8sp: entry({
              instantiate_request: "test/fixtures/k8s-cluster/podaffinity_request.json",
              cluster: { ...CLUSTER, master_server_group: "soft-anti-affinity" },
            }),
          }),
        },
        ["pulumi-nfv:vims"],
      );
      await program.deployStack();
      // The labels wait on the fake Nova's answers (real HTTP): longer than settle() on a loaded
      // machine (a TypeError here in a full unit run beside .ci/run).
      await vi.waitFor(() => expect(registered.filter((r) => /^k8sp-workerNode-\d-labels$/.test(r.name))).toHaveLength(2), { timeout: 10_000 });
      const one = (name: string) => registered.find((r) => r.name === name)!;
      expect(plain(one("k8sp-vnf-masterNode_server_group").inputs.policies)).toEqual(["soft-anti-affinity"]);
      expect(plain(one("k8sp-vnf-workerNode_server_group").inputs.policies)).toEqual(["anti-affinity"]);
      const labels = (w: string) =>
        String(plain(one(`k8sp-${w}-labels`).inputs.stdin))
          .split("\n")
          .find((l) => l.startsWith("LABELS="));
      expect([labels("workerNode-0"), labels("workerNode-1")]).toEqual([
        "LABELS=CIS-node=compute1 topology.kubernetes.io/zone=nova",
        "LABELS=CIS-node=compute2 topology.kubernetes.io/zone=nova",
      ]);
      expect(nova.requests.filter((r) => r.startsWith("GET")).sort()).toEqual([
        "GET /compute/v2.1/servers/k8sp-vnf-workerNode-0-id",
        "GET /compute/v2.1/servers/k8sp-vnf-workerNode-1-id",
      ]);
    } finally {
      await nova.close();
    }
  });

  it("private_registries: a registry VNF of the stack reaches every node's containerd after the parameters' registries", async () => {
    setConfig({
      reg: { host: { address: "10.254.0.10", user: "root", private_key_file: KEY }, mode: "native", installation_param: { port_no: 5000 } },
      k8ss: entry({ cluster: { ...CLUSTER, private_registries: ["reg"] } }),
    });
    await program.deployStack();
    await settle();
    const stdin = String(plain(registered.find((r) => r.name === "k8ss-workerNode-0-registries")!.inputs.stdin));
    expect(
      stdin
        .split("\n")
        .filter((l) => l.startsWith("REGISTRY="))
        .map((l) => l.split("|")[0]),
    ).toEqual(["REGISTRY=192.168.246.10:5000", "REGISTRY=10.254.0.10:5000"]);
  });

  it("private_registries naming no registry, or not a list, is refused, located", async () => {
    setConfig({
      hw: { vim: "core", package: path.join(ROOT, "../shared/vnf-packages/helloworld3"), instantiate_request: "test/fixtures/vnf/helloworld3_level1.json" },
      k8sa: entry({ cluster: { ...CLUSTER, private_registries: ["hw", "nope"] } }),
      k8sb: entry({ cluster: { ...CLUSTER, private_registries: "hw" } }),
    });
    const err = await failure();
    expect(err.diagnostics.map((d) => [d.code, d.path, d.message])).toEqual([
      [
        "CONFIG_BAD_TYPE",
        "pulumi-nfv:vnfs.k8sb.cluster.private_registries",
        "cluster.private_registries must be a list of names of private-registry VNFs of this stack",
      ],
    ]);
    setConfig({
      hw: { vim: "core", package: path.join(ROOT, "../shared/vnf-packages/helloworld3"), instantiate_request: "test/fixtures/vnf/helloworld3_level1.json" },
      k8sa: entry({ cluster: { ...CLUSTER, private_registries: ["hw", "nope"] } }),
    });
    const err2 = await failure();
    expect(err2.diagnostics.map((d) => [d.code, d.path, d.message])).toEqual([
      ["CONFIG_BAD_VALUE", "pulumi-nfv:vnfs.k8sa.cluster.private_registries[0]", "cluster.private_registries: 'hw' is a vm-vnf, not a private registry"],
      [
        "CONFIG_BAD_VALUE",
        "pulumi-nfv:vnfs.k8sa.cluster.private_registries[1]",
        "cluster.private_registries: 'nope' is no VNF of this stack, not a private registry",
      ],
    ]);
  });

  it("containerd_package and the package versions follow Debian's grammar: a value apt would read as an option is refused, located, registering nothing", async () => {
    setConfig({
      k8sb: entry({
        cluster: { ...CLUSTER, containerd_package: "-oDPkg::Pre-Invoke::=id", containerd_package_version: "1.7 -oAPT::X=1", haproxy_package_version: "-1" },
      }),
    });
    const err = await failure();
    expect(err.diagnostics.map((d) => [d.code, d.path, d.message])).toEqual([
      ["CONFIG_BAD_VALUE", "pulumi-nfv:vnfs.k8sb.cluster.containerd_package_version", expect.stringContaining("is not a Debian package version")],
      ["CONFIG_BAD_VALUE", "pulumi-nfv:vnfs.k8sb.cluster.containerd_package", expect.stringContaining("is not a Debian package name")],
      ["CONFIG_BAD_VALUE", "pulumi-nfv:vnfs.k8sb.cluster.haproxy_package_version", expect.stringContaining("is not a Debian package version")],
    ]);
    expect(err.message).not.toContain("Pre-Invoke");
    await settle();
    expect(registered).toEqual([]);
  });

  it("kube_proxy_conntrack_max_per_core becomes kube-proxy's conntrack.maxPerCore in kubeadm's init configuration; absent, no KubeProxyConfiguration", async () => {
    const kubeadmDocs = () => {
      const stdin = String(plain(registered.find((r) => r.name === "k8ss-init")!.inputs.stdin));
      const b64 = stdin
        .split("\n")
        .find((l) => l.startsWith("KUBEADM_CONFIG_B64="))!
        .slice("KUBEADM_CONFIG_B64=".length);
      return parseAllDocuments(Buffer.from(b64, "base64").toString()).map((d) => d.toJS() as { kind: string; conntrack?: unknown });
    };
    setConfig({ k8ss: entry({ cluster: { ...CLUSTER, kube_proxy_conntrack_max_per_core: "0" } }) });
    await program.deployStack();
    await settle();
    expect(kubeadmDocs().find((d) => d.kind === "KubeProxyConfiguration")).toEqual({
      apiVersion: "kubeproxy.config.k8s.io/v1alpha1",
      kind: "KubeProxyConfiguration",
      conntrack: { maxPerCore: 0 },
    });
    registered.length = 0;
    setConfig({ k8ss: entry() });
    await program.deployStack();
    await settle();
    expect(kubeadmDocs().map((d) => d.kind)).toEqual(["InitConfiguration", "ClusterConfiguration", "KubeletConfiguration"]);
  });

  it("kube_proxy_conntrack_max_per_core that is not a whole number is refused, located, registering nothing", async () => {
    setConfig({
      k8sa: entry({ cluster: { ...CLUSTER, kube_proxy_conntrack_max_per_core: "-1" } }),
      k8sb: entry({ cluster: { ...CLUSTER, kube_proxy_conntrack_max_per_core: 1.5 } }),
    });
    const err = await failure();
    expect(err.diagnostics.map((d) => [d.code, d.path])).toEqual([
      ["CONFIG_BAD_VALUE", "pulumi-nfv:vnfs.k8sa.cluster.kube_proxy_conntrack_max_per_core"],
      ["CONFIG_BAD_VALUE", "pulumi-nfv:vnfs.k8sb.cluster.kube_proxy_conntrack_max_per_core"],
    ]);
    await settle();
    expect(registered).toEqual([]);
  });

  it("a server group policy that Nova does not know is refused, located", async () => {
    setConfig({ k8sb: entry({ cluster: { ...CLUSTER, worker_server_group: "spread" } }) });
    const err = await failure();
    expect(err.diagnostics.map((d) => [d.code, d.path, d.message])).toEqual([
      [
        "CONFIG_BAD_VALUE",
        "pulumi-nfv:vnfs.k8sb.cluster.worker_server_group",
        "cluster.worker_server_group spread is not one of affinity, anti-affinity, soft-affinity, soft-anti-affinity, none",
      ],
    ]);
  });

  it("a cluster entry without cluster settings, and cluster settings on a VM VNF, are refused after the package is read", async () => {
    setConfig({
      k8sa: entry({ cluster: undefined }),
      hw: {
        vim: "core",
        package: path.join(ROOT, "../shared/vnf-packages/helloworld3"),
        instantiate_request: "test/fixtures/vnf/helloworld3_level1.json",
        cluster: CLUSTER,
      },
    });
    const err = await failure();
    expect(err.diagnostics.map((d) => [d.code, d.path])).toEqual([
      ["CONFIG_MISSING_FIELD", "pulumi-nfv:vnfs.k8sa"],
      ["CONFIG_BAD_VALUE", "pulumi-nfv:vnfs.hw.cluster"],
    ]);
  });
});

describe("nfv scale and nfv heal of a cluster", () => {
  async function prepared(request = COMPLEX, extra: Record<string, unknown> = {}) {
    const s = await loadStackSettings({ vims: { core: OS_VIM }, vnfs: { k8sc: entry({ instantiate_request: request, ...extra }) } }, ROOT, "unit");
    s.bag.throwIfErrors("bad settings");
    return s.vnfs;
  }

  it("scale out of the worker aspect writes its level; scale in removes the highest worker", async () => {
    const p = await prepared();
    const out = planScaleOperation(p, { aspectId: "worker_instance", steps: 1, type: "out" });
    expect(out.configChanges).toEqual([{ key: "pulumi-nfv:vnfs.k8sc.scale_levels.worker_instance", value: "1" }]);
    expect(out.summary).toContain("+ VNFC workerNode-2");
    const back = planScaleOperation(await prepared(COMPLEX, { scale_levels: { worker_instance: 1 } }), { aspectId: "worker_instance", steps: 1, type: "in" });
    expect(back.summary).toContain("- VNFC workerNode-2");
  });

  it("heal of a master raises its heal generation and replaces only its server", async () => {
    const p = await prepared();
    const urn = (id: string) => `urn:pulumi:it::pulumi-nfv::nfv:k8s:Cluster$nfv:vnf:VmVnf$openstack:compute/instance:Instance::k8sc-vnf-${id}`;
    const vnfcs = Object.fromEntries(
      ["masterNode-0", "masterNode-1", "masterNode-2", "workerNode-0"].map((id) => [
        id,
        { vdu: id.split("-")[0], index: 0, serverUrn: urn(id), ports: {}, volumeUrns: [] },
      ]),
    );
    const op = planHealOperation(p, { k8sc: { vnfcs } }, { vnfcIds: ["masterNode-1"] });
    expect(op.configChanges).toEqual([{ key: "pulumi-nfv:vnfs.k8sc.heal_generations.masterNode-1", value: "1" }]);
    expect(op.replace).toEqual([urn("masterNode-1")]);
  });

  it("heal of the whole cluster replaces every server, forgets the per-VNFC heal generations (the first master inits again) and raises the cluster's", async () => {
    const p = await prepared(COMPLEX, { heal_generations: { "masterNode-0": 2, "workerNode-0": 1 }, heal_generation: 1 });
    const urn = (id: string) => `urn:pulumi:it::pulumi-nfv::nfv:k8s:Cluster$nfv:vnf:VmVnf$openstack:compute/instance:Instance::k8sc-vnf-${id}`;
    const ids = ["masterNode-0", "masterNode-1", "masterNode-2", "workerNode-0", "workerNode-1"];
    const vnfcs = Object.fromEntries(
      ids.map((id) => [
        id,
        { vdu: id.split("-")[0], index: Number(id.at(-1)), serverUrn: urn(id), ports: { CP: { portUrn: `${urn(id)}-port` } }, volumeUrns: [] },
      ]),
    );
    const op = planHealOperation(p, { k8sc: { vnfcs } }, { vnfcIds: [] });
    expect(op.replace).toEqual(ids.map(urn));
    expect(op.configChanges).toEqual([
      { key: "pulumi-nfv:vnfs.k8sc.heal_generation", value: "2" },
      { key: "pulumi-nfv:vnfs.k8sc.heal_generations.masterNode-0", remove: true },
      { key: "pulumi-nfv:vnfs.k8sc.heal_generations.workerNode-0", remove: true },
    ]);
    expect(op.summary[1]).toMatch(/kubeadm init on the first master/);
  });
});
