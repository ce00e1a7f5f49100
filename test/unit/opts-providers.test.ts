/**
 * Providers as pulumi-eks and awsx take them: a component's explicit VIM provider registers every
 * child and lookup whatever `opts.providers` holds; without one, the children use the provider of
 * `opts.providers`. Under Pulumi mocks, for each component that takes a VIM: the provider each
 * OpenStack or Kubernetes child (and each OpenStack lookup) was registered with.
 */
import * as path from "node:path";
import * as k8s from "@pulumi/kubernetes";
import * as openstack from "@pulumi/openstack";
import * as pulumi from "@pulumi/pulumi";
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from "vitest";
import { testCnfModel } from "../fixtures/cnf/models";
import { MAGNUM_CA, MAGNUM_CERT, MAGNUM_ENDPOINT, MAGNUM_KEY } from "./helpers/magnum-mocks";
import { settle, valueOf, type Registered } from "./helpers/pulumi-mocks";
import { defFiles, testCnfFiles } from "./cnf/helpers";
import { K8S_FIXTURES, k8sModel } from "./k8s-cluster/k8s-fixtures";
import { ADMIN_TOKEN, CA_HASH, CA_PEM, CERT_KEY, k8sRequest, TOKEN } from "./k8s-cluster/k8s-mocks";
import { model, PACKAGES, request } from "./vnf/vnf-mocks";
import type { VnfModel } from "../../translators/tosca/model";

interface Invoked {
  token: string;
  provider?: string;
}

const registered: Registered[] = [];
const invoked: Invoked[] = [];
let ip = 100;

function installMocks(): void {
  pulumi.runtime.setMocks(
    {
      newResource(args) {
        registered.push({ type: args.type, name: args.name, inputs: args.inputs, provider: args.provider });
        const state: Record<string, unknown> = { ...args.inputs };
        // What the clouds would answer, as far as the components read it back.
        if (args.type === "openstack:networking/port:Port") state.allFixedIps = [`10.10.0.${ip++}`];
        if (args.type === "command:remote:Command" && args.name.endsWith("-init"))
          state.stdout = `ca_crt_b64=${Buffer.from(CA_PEM).toString("base64")}\nadmin_token=${ADMIN_TOKEN}\n`;
        if (args.type === "command:remote:Command" && args.name.endsWith("-join-credentials"))
          state.stdout = `token=${TOKEN}\nca_cert_hash=${CA_HASH}\ncertificate_key=${CERT_KEY}\n`;
        if (args.type === "openstack:containerinfra/cluster:Cluster")
          state.kubeconfig = { host: MAGNUM_ENDPOINT, cluster_ca_certificate: MAGNUM_CA, client_certificate: MAGNUM_CERT, client_key: MAGNUM_KEY };
        return { id: `${args.name}-id`, state };
      },
      call(args) {
        invoked.push({ token: args.token, provider: args.provider });
        return { ...args.inputs, id: `looked-up-${args.token}` };
      },
    },
    "pulumi-nfv",
    "test",
    false,
  );
}

let lib: typeof import("../../index");
let hw3: VnfModel;
let registryPkg: VnfModel;
let k8sPkg: VnfModel;
let explicit: openstack.Provider;
let fromOpts: openstack.Provider;

beforeAll(async () => {
  installMocks();
  lib = await import("../../index");
  [hw3, registryPkg, k8sPkg] = await Promise.all([model("helloworld3"), model("private_registry_vnf_package"), k8sModel()]);
  explicit = new openstack.Provider("explicit-vim", { authUrl: "http://192.0.2.10/identity" });
  fromOpts = new openstack.Provider("from-opts", { authUrl: "http://192.0.2.11/identity" });
  await settle();
});
beforeEach(() => {
  vi.spyOn(pulumi.log, "warn").mockImplementation(() => Promise.resolve());
});
afterEach(async () => {
  await settle();
  registered.length = 0;
  invoked.length = 0;
  vi.restoreAllMocks();
});

/** The providers (by name) of every child of `pkg` (`openstack`, `kubernetes`) and of every lookup. */
async function providersUsed(pkg: string, done: pulumi.Output<unknown>): Promise<{ children: Set<string>; lookups: Set<string>; count: number }> {
  await valueOf(done);
  await settle();
  const name = (ref?: string) => ref?.split("::")[3] ?? "(default)";
  const children = registered.filter((r) => r.type.startsWith(`${pkg}:`));
  return {
    children: new Set(children.map((r) => name(r.provider))),
    lookups: new Set(invoked.filter((i) => i.token.startsWith(`${pkg}:`)).map((i) => name(i.provider))),
    count: children.length,
  };
}

const VERSIONS = { kubernetes: "1.30.14", kubernetesPackage: "1.30.14-1.1", containerdPackage: "1.7.24-0ubuntu1" };
const openStackComponents: [string, (provider: openstack.Provider | undefined, opts: pulumi.ComponentResourceOptions) => { done: pulumi.Output<unknown> }][] = [
  [
    "VmVnf",
    (provider, opts) => {
      const v = new lib.VmVnf("hw", { flavours: hw3.flavours, request: request("helloworld3_level1.json"), provider }, opts);
      return { done: v.vnfcs };
    },
  ],
  [
    "PrivateRegistry (vnf)",
    (provider, opts) => {
      const r = new lib.PrivateRegistry(
        "reg",
        {
          vnf: {
            flavours: registryPkg.flavours,
            request: request("private_registry_param_file.json"),
            provider,
            packageDir: path.join(PACKAGES, "private_registry_vnf_package"),
          },
        },
        opts,
      );
      return { done: r.endpoint };
    },
  ],
  [
    "K8sCluster",
    (provider, opts) => {
      ip = 100;
      const c = new lib.K8sCluster(
        "k8s",
        {
          flavours: k8sPkg.flavours,
          request: k8sRequest("private_registry_kubernetes_param_file.json"),
          provider,
          packageDir: K8S_FIXTURES,
          versions: VERSIONS,
          sandboxImage: "192.168.246.10:5000/pause:3.9",
        },
        opts,
      );
      return { done: c.endpoint };
    },
  ],
  [
    "MagnumCluster",
    (provider, opts) => {
      const c = new lib.MagnumCluster("mk", { provider, image: "fedora-coreos-38" }, opts);
      return { done: c.endpoint };
    },
  ],
];

describe.each(openStackComponents)("%s and opts.providers", (_name, build) => {
  it("without a provider: every OpenStack child and lookup uses the one in opts.providers", async () => {
    const { done } = build(undefined, { providers: [fromOpts] });
    const used = await providersUsed("openstack", done);
    expect(used.count).toBeGreaterThan(0);
    expect([...used.children]).toEqual(["from-opts"]);
    for (const p of used.lookups) expect(p).toBe("from-opts");
  });

  it("without a provider: opts.provider (one provider) is taken as opts.providers", async () => {
    const { done } = build(undefined, { provider: fromOpts });
    expect([...(await providersUsed("openstack", done)).children]).toEqual(["from-opts"]);
  });

  it("the explicit VIM provider wins over opts.providers, for children and lookups", async () => {
    const { done } = build(explicit, { providers: { openstack: fromOpts } });
    const used = await providersUsed("openstack", done);
    expect([...used.children]).toEqual(["explicit-vim"]);
    for (const p of used.lookups) expect(p).toBe("explicit-vim");
  });
});

describe("ContainerizedVnf and opts.providers", () => {
  const cnfArgs = (vim: import("../../index").ContainerizedVnfArgs["vim"]) => ({
    vim,
    model: testCnfModel(),
    flavourId: "simple",
    vnfInstanceId: "6a1b1a52-7f5c-4c1f-a1d3-0f0e6c5d4b3a",
    refuseAdoption: false,
    additionalParams: defFiles("deployment.yaml", "pod.yaml", "config-map.yaml"),
    manifests: testCnfFiles(),
  });

  it("a VIM without a provider: every object is registered with the kubernetes provider of opts.providers", async () => {
    const mine = new k8s.Provider("cluster-of-mine", { kubeconfig: "{}", namespace: "cnf" });
    const c = new lib.ContainerizedVnf("hello", cnfArgs({ namespace: "cnf" }), { providers: { kubernetes: mine } });
    const used = await providersUsed("kubernetes", c.objects);
    expect(used.count).toBe(3);
    expect([...used.children]).toEqual(["cluster-of-mine"]);
  });

  it("a KubernetesVim's provider wins over opts.providers", async () => {
    const vim = new lib.KubernetesVim("edge", { authUrl: "https://192.0.2.10:6443", bearerToken: "tok", sslCaCert: "None", projectName: "nfv" });
    const other = new k8s.Provider("other", { kubeconfig: "{}" });
    const c = new lib.ContainerizedVnf("hello", cnfArgs(vim), { providers: [other] });
    const used = await providersUsed("kubernetes", c.objects);
    expect([...used.children]).toEqual(["edge-provider"]);
  });
});
