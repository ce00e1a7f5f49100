/**
 * `magnum_clusters` in a stack config: the MagnumClusterArgs each entry becomes (values as
 * `pulumi config set --path` stores them too), the located errors for a bad entry, and what the
 * program registers for one (Pulumi mocks): the template and cluster on the VIM's provider, the
 * cluster's Kubernetes VIM among the stack's VIMs, its kubeconfig only as a secret.
 */
import * as path from "node:path";
import * as pulumi from "@pulumi/pulumi";
import { afterEach, beforeAll, describe, expect, it } from "vitest";
import { loadStackSettings } from "../../../stacks/settings";
import { parseYaml } from "../../../translators/yaml/located-yaml";
import { installMagnumMocks, MAGNUM_CA, MAGNUM_ENDPOINT } from "../helpers/magnum-mocks";
import { isSecretValue, plain, settle, valueOf, type Registered } from "../helpers/pulumi-mocks";
import { OS_VIM } from "./vims";

const ROOT = path.join(__dirname, "../../..");
const K8S_VIM = { type: "kubernetes", auth_url: "https://192.0.2.30:6443", bearer_token: "t", ssl_ca_cert: "None", project_name: "default" };

async function settings(magnumClusters: unknown, stackYaml?: string) {
  const file = stackYaml === undefined ? undefined : parseYaml(stackYaml, "stacks/Pulumi.unit.yaml").documents[0];
  return loadStackSettings({ vims: { core: OS_VIM, edge: K8S_VIM }, magnumClusters }, ROOT, "unit", file);
}

describe("magnum_clusters in the stack config", () => {
  it("each entry becomes MagnumClusterArgs on its VIM; digit strings and true/false strings count", async () => {
    const s = await settings({
      mk: {
        vim: "core",
        image: "fedora-coreos-38",
        master_count: "3",
        node_count: 2,
        flavor: "m1.small",
        master_lb_enabled: "true",
        floating_ip_enabled: false,
        network_driver: "calico",
        labels: { kube_tag: "v1.27.8", auto_healing_enabled: "true" },
        vim_name: "magnum_edge",
      },
    });
    expect(s.bag.hasErrors()).toBe(false);
    expect(s.magnumClusters).toEqual([
      {
        name: "mk",
        vim: "core",
        args: {
          image: "fedora-coreos-38",
          masterCount: 3,
          nodeCount: 2,
          flavor: "m1.small",
          masterLbEnabled: true,
          floatingIpEnabled: false,
          networkDriver: "calico",
          labels: { kube_tag: "v1.27.8", auto_healing_enabled: "true" },
          vimName: "magnum_edge",
        },
      },
    ]);
  });

  it("every problem is reported at once, at its line in Pulumi.<stack>.yaml", async () => {
    const yaml = [
      "config:",
      "  pulumi-nfv:magnum_clusters:",
      "    a:",
      "      vim: edge",
      "      image: fcos",
      "      node_count: two",
      "      floating_ip_enabled: yes please",
      "      network_driver: weave",
      "      flavour: m1.small",
      "    b:",
      "      vim: nowhere",
      "    c:",
      "      vim: core",
      "      image: fcos",
      "      vim_name: core",
      "",
    ].join("\n");
    const raw = {
      a: { vim: "edge", image: "fcos", node_count: "two", floating_ip_enabled: "yes please", network_driver: "weave", flavour: "m1.small" },
      b: { vim: "nowhere" },
      c: { vim: "core", image: "fcos", vim_name: "core" },
    };
    const s = await settings(raw, yaml);
    expect(s.bag.errors().map((d) => [d.code, d.path, d.line, d.message])).toEqual([
      ["CONFIG_WRONG_VIM", "pulumi-nfv:magnum_clusters.a.vim", 4, "vim 'edge' is of type kubernetes; Magnum runs on an OpenStack VIM"],
      ["CONFIG_BAD_TYPE", "pulumi-nfv:magnum_clusters.a.node_count", 6, "node_count must be a whole number"],
      ["CONFIG_BAD_TYPE", "pulumi-nfv:magnum_clusters.a.floating_ip_enabled", 7, "floating_ip_enabled must be true or false"],
      ["CONFIG_BAD_TYPE", "pulumi-nfv:magnum_clusters.a.network_driver", 8, "network_driver must be flannel or calico"],
      ["CONFIG_UNKNOWN_KEY", "pulumi-nfv:magnum_clusters.a.flavour", 9, expect.stringContaining("unknown key 'flavour' (expected vim, image, master_count")],
      ["CONFIG_UNKNOWN_VIM", "pulumi-nfv:magnum_clusters.b.vim", 11, "vim 'nowhere' is not one of the stack's vims (core, edge)"],
      ["CONFIG_MISSING_FIELD", "pulumi-nfv:magnum_clusters.b", 11, expect.stringContaining("image is required")],
      [
        "CONFIG_BAD_VALUE",
        "pulumi-nfv:magnum_clusters.c.vim_name",
        15,
        "the cluster's Kubernetes VIM would be named 'core', which is already a VIM of this stack; set vim_name",
      ],
    ]);
  });

  it("a cluster on a VIM with an error gets only the VIM's own error, not 'not one of the stack's vims'; its other problems still count", async () => {
    const vims = { core: { ...OS_VIM, auth_url: "not a url" }, edge: K8S_VIM };
    const s = await loadStackSettings({ vims, magnumClusters: { mk: { vim: "core", image: "fcos" } } }, ROOT, "unit");
    expect(s.bag.errors().map((d) => [d.code, d.path])).toEqual([["VIM_BAD_URL", "pulumi-nfv:vims.core.auth_url"]]);
    const more = await loadStackSettings(
      { vims, magnumClusters: { mk: { vim: "core", node_count: "two" }, other: { vim: "nowhere", image: "fcos" } } },
      ROOT,
      "unit",
    );
    expect(more.bag.errors().map((d) => [d.code, d.path, d.message])).toEqual([
      ["VIM_BAD_URL", "pulumi-nfv:vims.core.auth_url", expect.any(String)],
      ["CONFIG_BAD_TYPE", "pulumi-nfv:magnum_clusters.mk.node_count", "node_count must be a whole number"],
      ["CONFIG_MISSING_FIELD", "pulumi-nfv:magnum_clusters.mk", expect.stringContaining("image is required")],
      ["CONFIG_UNKNOWN_VIM", "pulumi-nfv:magnum_clusters.other.vim", "vim 'nowhere' is not one of the stack's vims (edge)"],
    ]);
  });
});

describe("magnum_clusters proxy settings", () => {
  it("typed: a proxy that is no http(s) URL or a bad no_proxy is refused at its key, the value never echoed", async () => {
    const s = await settings({
      m: {
        vim: "core",
        image: "fcos",
        http_proxy: 'http://p:3128"; APT::Update::Pre-Invoke {"id";}; X "',
        https_proxy: "http://u:S3cret@p:port",
        no_proxy: '10.0.0.1" "LD_PRELOAD=/x.so',
      },
    });
    expect(s.bag.errors().map((d) => [d.code, d.path])).toEqual([
      ["CONFIG_BAD_TYPE", "pulumi-nfv:magnum_clusters.m.http_proxy"],
      ["CONFIG_BAD_TYPE", "pulumi-nfv:magnum_clusters.m.https_proxy"],
      ["CONFIG_BAD_TYPE", "pulumi-nfv:magnum_clusters.m.no_proxy"],
    ]);
    expect(JSON.stringify(s.bag.items)).not.toMatch(/Pre-Invoke|S3cret|LD_PRELOAD/);
    const ok = await settings({ m: { vim: "core", image: "fcos", http_proxy: "http://u:S3cret@p:3128", no_proxy: "10.0.0.0/8,.svc" } });
    expect(ok.bag.hasErrors()).toBe(false);
    expect(ok.magnumClusters[0].args).toMatchObject({ httpProxy: "http://u:S3cret@p:3128", noProxy: "10.0.0.0/8,.svc" });
  });
});

describe("the program registers a Magnum cluster", () => {
  let registered: Registered[];
  let program: typeof import("../../../stacks/program");

  beforeAll(async () => {
    registered = installMagnumMocks();
    program = await import("../../../stacks/program");
  });
  afterEach(async () => {
    await settle();
    registered.length = 0;
  });

  it("on the VIM's provider; its Kubernetes VIM joins the stack's VIMs; the kubeconfig is only a secret output", async () => {
    pulumi.runtime.setAllConfig(
      {
        "pulumi-nfv:vims": JSON.stringify({ core: OS_VIM }),
        "pulumi-nfv:magnum_clusters": JSON.stringify({ mk: { vim: "core", image: "fcos", node_count: "2" } }),
      },
      ["pulumi-nfv:vims"],
    );
    const outputs = await program.deployStack();
    await settle();
    const cluster = registered.find((r) => r.type === "openstack:containerinfra/cluster:Cluster")!;
    expect([cluster.name, cluster.inputs.nodeCount, cluster.inputs.clusterTemplateId]).toEqual(["mk", 2, "mk-template-id"]);
    expect(cluster.provider).toContain("pulumi:providers:openstack::core");
    expect(Object.keys(outputs.vims).sort()).toEqual(["core", "kubernetes_vim_mk"]);
    const out = await new Promise<Record<string, unknown>>((resolve) => outputs.magnumClusters.mk.apply((v) => resolve(v as Record<string, unknown>)));
    expect(out).toMatchObject({
      vim: "core",
      vimName: "kubernetes_vim_mk",
      endpoint: MAGNUM_ENDPOINT,
      caCertificate: MAGNUM_CA,
      clusterId: "mk-id",
      nodeCount: 2,
    });
    expect(JSON.stringify(out)).not.toContain("PRIVATE KEY");
    expect(await pulumi.isSecret(outputs.kubeconfigs.kubernetes_vim_mk)).toBe(true);
  });

  it("proxies set as secrets in the stack config reach the ClusterTemplate as secrets, and no output carries them", async () => {
    // `pulumi config set --secret --path magnum_clusters.mk.http_proxy …` makes the whole key secret.
    const proxies = { http_proxy: "http://u:S3cretHttp@proxy:3128", https_proxy: "http://u:S3cretHttps@proxy:3128", no_proxy: "10.0.0.0/8,.svc.s3cret" };
    pulumi.runtime.setAllConfig(
      {
        "pulumi-nfv:vims": JSON.stringify({ core: OS_VIM }),
        "pulumi-nfv:magnum_clusters": JSON.stringify({ mk: { vim: "core", image: "fcos", ...proxies } }),
      },
      ["pulumi-nfv:vims", "pulumi-nfv:magnum_clusters"],
    );
    const outputs = await program.deployStack();
    await settle();
    const template = registered.find((r) => r.type === "openstack:containerinfra/clusterTemplate:ClusterTemplate")!;
    expect(template.name).toBe("mk-template");
    for (const [k, v] of [
      ["httpProxy", proxies.http_proxy],
      ["httpsProxy", proxies.https_proxy],
      ["noProxy", proxies.no_proxy],
    ]) {
      expect(isSecretValue(template.inputs[k]), k).toBe(true);
      expect(plain(template.inputs[k]), k).toBe(v);
    }
    const cluster = registered.find((r) => r.type === "openstack:containerinfra/cluster:Cluster")!;
    expect(JSON.stringify(cluster.inputs)).not.toMatch(/S3cret/i);
    const out = await valueOf(outputs.magnumClusters.mk);
    expect(JSON.stringify(out)).not.toMatch(/S3cret/i);
  });
});
