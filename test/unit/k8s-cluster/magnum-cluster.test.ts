/**
 * MagnumCluster against Pulumi mocks: the template and cluster Magnum gets, and the output
 * contract shared with K8sCluster (secret kubeconfig, CA, endpoint, a KubernetesVim with client
 * certificate auth). That Magnum builds the cluster is shown on the lab's real Magnum by
 * test/integration/magnum-on-openstack-lab.test.ts.
 */
import * as openstack from "@pulumi/openstack";
import * as pulumi from "@pulumi/pulumi";
import { parse } from "yaml";
import { afterEach, beforeAll, describe, expect, it } from "vitest";
import { DiagnosticError } from "../../../translators/diagnostics";
import { installMagnumMocks, MAGNUM_CA, MAGNUM_ENDPOINT, MAGNUM_KEY } from "../helpers/magnum-mocks";
import { isSecretValue, plain, settle, valueOf, type Registered } from "../helpers/pulumi-mocks";

let registered: Registered[];
let mod: typeof import("../../../components/k8s-cluster");
let provider: openstack.Provider;

beforeAll(async () => {
  registered = installMagnumMocks();
  mod = await import("../../../components/k8s-cluster");
  provider = new openstack.Provider("vim-provider", { authUrl: "http://192.0.2.10/identity" });
  await settle();
});
afterEach(async () => {
  await settle();
  registered.length = 0;
});

const one = (type: string) => {
  const r = registered.filter((x) => x.type === type);
  expect(r, type).toHaveLength(1);
  return r[0];
};

describe("MagnumCluster", () => {
  it("a ClusterTemplate (TLS on, load balancer with 3 masters) and a Cluster on it, both on the VIM's provider", async () => {
    const c = new mod.MagnumCluster("edge", {
      provider,
      image: "fedora-coreos-38",
      masterCount: 3,
      nodeCount: 2,
      masterFlavor: "m1.medium",
      flavor: "m1.small",
      keypair: "ops",
      externalNetworkId: "public",
      labels: { kube_tag: "v1.27.8" },
    });
    await valueOf(c.endpoint);
    await settle();
    expect(registered.map((r) => `${r.type} ${r.name}`)).toEqual(
      expect.arrayContaining([
        "nfv:k8s:MagnumCluster edge",
        "openstack:containerinfra/clusterTemplate:ClusterTemplate edge-template",
        "openstack:containerinfra/cluster:Cluster edge",
        "nfv:vim:KubernetesVim kubernetes_vim_edge",
      ]),
    );
    const template = one("openstack:containerinfra/clusterTemplate:ClusterTemplate");
    expect(template.inputs).toMatchObject({
      coe: "kubernetes",
      image: "fedora-coreos-38",
      tlsDisabled: false,
      masterLbEnabled: true,
      floatingIpEnabled: false,
      networkDriver: "flannel",
      masterFlavor: "m1.medium",
      flavor: "m1.small",
      externalNetworkId: "public",
      labels: { kube_tag: "v1.27.8" },
    });
    const cluster = one("openstack:containerinfra/cluster:Cluster");
    expect(cluster.inputs).toMatchObject({ clusterTemplateId: "edge-template-id", masterCount: 3, nodeCount: 2, keypair: "ops", createTimeout: 60 });
    expect(template.provider).toContain("vim-provider");
    expect(cluster.provider).toContain("vim-provider");
  });

  it("outputs: endpoint and CA from Magnum; the kubeconfig is secret and verifies TLS with the CA, client certificate auth", async () => {
    const c = new mod.MagnumCluster("core", { provider, image: "fcos", vimName: "magnum_vim", projectName: "nfv" });
    expect(await valueOf(c.endpoint)).toBe(MAGNUM_ENDPOINT);
    expect(await valueOf(c.caCertificate)).toBe(MAGNUM_CA);
    expect(await pulumi.isSecret(c.kubeconfig)).toBe(true);
    const kc = parse(await valueOf(c.kubeconfig)) as {
      clusters: { cluster: Record<string, unknown> }[];
      users: { user: Record<string, string> }[];
      contexts: { context: { namespace: string } }[];
    };
    expect(kc.clusters[0].cluster).toMatchObject({ server: MAGNUM_ENDPOINT, "certificate-authority-data": Buffer.from(MAGNUM_CA).toString("base64") });
    expect(kc.clusters[0].cluster["insecure-skip-tls-verify"]).toBeUndefined();
    expect(Buffer.from(kc.users[0].user["client-key-data"], "base64").toString()).toBe(MAGNUM_KEY);
    expect(kc.contexts[0].context.namespace).toBe("nfv");
    await settle();
    const k8sProvider = registered.find((r) => r.type === "pulumi:providers:kubernetes")!;
    expect(k8sProvider.name).toBe("magnum_vim-provider");
    expect(isSecretValue(k8sProvider.inputs.kubeconfig)).toBe(true);
  });

  it("one master: no load balancer unless asked; an even master count is warned, not refused", async () => {
    new mod.MagnumCluster("single", { provider, image: "fcos" });
    await settle();
    expect(one("openstack:containerinfra/clusterTemplate:ClusterTemplate").inputs.masterLbEnabled).toBe(false);
    expect(() => new mod.MagnumCluster("even", { provider, image: "fcos", masterCount: 2 })).not.toThrow();
  });

  it("proxy settings reach the ClusterTemplate as secrets, plain inputs included (a proxy URL may hold a password)", async () => {
    new mod.MagnumCluster("px", {
      provider,
      image: "fcos",
      httpProxy: "http://u:S3cret@proxy:3128",
      httpsProxy: pulumi.secret("http://u:S3cret@proxy:3128"),
      noProxy: "10.0.0.0/8,.svc",
    });
    await settle();
    const t = one("openstack:containerinfra/clusterTemplate:ClusterTemplate").inputs;
    for (const k of ["httpProxy", "httpsProxy", "noProxy"]) expect(isSecretValue(t[k]), k).toBe(true);
    expect(plain(t.httpProxy)).toBe("http://u:S3cret@proxy:3128");
  });

  it("a proxy that is not an http(s) URL, or a bad no_proxy, is refused naming the field, never the value", async () => {
    let error: DiagnosticError | undefined;
    try {
      new mod.MagnumCluster("badpx", {
        provider,
        image: "fcos",
        httpProxy: 'http://p:3128"; APT::Update::Pre-Invoke {"id";}; X "',
        httpsProxy: "ftp://u:S3cret@p",
        noProxy: '10.0.0.1" "LD_PRELOAD=/x.so',
      });
    } catch (e) {
      error = e as DiagnosticError;
    }
    expect(error?.diagnostics.map((d) => d.path)).toEqual(["httpProxy", "httpsProxy", "noProxy"]);
    expect(JSON.stringify(error?.diagnostics)).not.toMatch(/S3cret|Pre-Invoke|LD_PRELOAD/);
    await settle();
    expect(registered.filter((r) => r.name.startsWith("badpx"))).toEqual([]);
  });

  it("bad arguments: every problem in one error, nothing registered", async () => {
    let error: DiagnosticError | undefined;
    try {
      new mod.MagnumCluster("bad", {
        provider,
        image: " ",
        masterCount: 0,
        nodeCount: -1,
        networkDriver: "weave" as "calico",
        labels: { kube_tag: 1 as unknown as string },
      });
    } catch (e) {
      error = e as DiagnosticError;
    }
    expect(error?.diagnostics.map((d) => d.path)).toEqual(["masterCount", "nodeCount", "image", "networkDriver", "labels.kube_tag"]);
    expect(() => new mod.MagnumCluster("ha", { provider, image: "fcos", masterCount: 3, masterLbEnabled: false })).toThrow(
      "invalid nfv:k8s:MagnumCluster arguments",
    );
    await settle();
    expect(registered.filter((r) => r.name === "bad" || r.name === "ha")).toEqual([]);
  });
});
