/**
 * nfv:openstack:ControlPlane under Pulumi mocks: a namespace, one `helm.v4.Chart` per service named
 * from the component, each depending on the charts of what it needs, on the VIM's provider; the
 * new cloud as an OpenStackVim once Keystone is up; Tacker's vim-config.yaml as a secret output;
 * nothing registered on bad arguments. Proves what the program asks for; the provider's render of
 * the charts is test/integration/osh-control-plane-render.test.ts.
 */
import * as path from "node:path";
import * as k8s from "@pulumi/kubernetes";
import * as pulumi from "@pulumi/pulumi";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { parse } from "yaml";
import { keepSecretsOut } from "../../../components/openstack-control-plane/secret-rewrites";
import { GATE_REVISION, gateDependencies, skipAwait } from "../../../components/openstack-control-plane/readiness";
import { unpackOpenstackHelm } from "../../fixtures/openstack-helm";
import { installMocks, plain, settle, valueOf, type Registered } from "../helpers/pulumi-mocks";
import { chartResources, charts } from "../helpers/recording-chart";

let registered: Registered[];
let cp: typeof import("../../../components/openstack-control-plane/control-plane");
let osh: ReturnType<typeof unpackOpenstackHelm>;
let chartsDir = "";

beforeAll(async () => {
  registered = installMocks();
  cp = await import("../../../components/openstack-control-plane/control-plane");
  osh = unpackOpenstackHelm();
  chartsDir = osh.charts;
});
afterEach(async () => {
  await settle();
  registered.length = 0;
  charts.length = 0;
});
afterAll(() => osh.dispose());

const args = () => ({
  vim: { provider: new k8s.Provider("edge", { kubeconfig: "{}" }) },
  charts: chartsDir,
  images: { registry: "10.0.0.5:5000" },
  adminPassword: "admin-password-1",
  passwordSeed: "seed-of-twenty-chars",
  publicHost: "192.0.2.21",
});

describe("ControlPlane", () => {
  it("registers a namespace and one Chart per service, in dependency order, each depending on the gates of what it needs, on the VIM's provider", async () => {
    const a = args();
    const c = new cp.ControlPlane("osh", a);
    await settle();
    expect(charts.map((ch) => ch.name)).toEqual([
      "osh-mariadb",
      "osh-rabbitmq",
      "osh-memcached",
      "osh-keystone",
      "osh-glance",
      "osh-placement",
      "osh-neutron",
      "osh-nova",
    ]);
    const byName = Object.fromEntries(charts.map((ch) => [ch.name, ch]));
    // A dependency is a service's gate, or else the namespace.
    const nameOf = (r: pulumi.Resource) => Object.entries(c.ready).find(([, g]) => g === r)?.[0] ?? "namespace";
    const needs = (n: string) => (byName[n].opts.dependsOn as pulumi.Resource[]).map(nameOf);
    expect(needs("osh-mariadb")).toEqual(["namespace"]);
    expect(needs("osh-keystone")).toEqual(["namespace", "mariadb", "memcached"]);
    expect(needs("osh-nova")).toEqual(["namespace", "placement", "glance", "rabbitmq"]);
    expect(needs("osh-neutron")).toEqual(["namespace", "keystone", "rabbitmq"]);
    for (const ch of charts) {
      expect(ch.opts.provider).toBe(a.vim.provider);
      expect(ch.opts.parent).toBe(c);
      expect(ch.args).toMatchObject({ chart: path.join(chartsDir, ch.name.slice(4)), name: ch.name.slice(4), dependencyUpdate: true });
      // Pulumi waits on none of the chart's objects: its gate does (readiness.ts); no script puts a password on a command line (secret-rewrites.ts).
      expect(ch.opts.transforms, ch.name).toEqual([skipAwait, keepSecretsOut]);
      expect(await valueOf(pulumi.output(ch.args.namespace as pulumi.Input<string>))).toBe("openstack");
    }
    const ns = registered.find((r) => r.type === "kubernetes:core/v1:Namespace");
    expect(ns).toMatchObject({ name: "osh-namespace", inputs: { metadata: { name: "openstack" } } });
    expect(ns?.provider).toContain("edge");
  });

  it("a gate per chart: a Job of osh-entrypoint waiting for the chart's Jobs and a Ready pod of each workload, after the chart, under its own account", async () => {
    chartResources.set("osh-glance", [
      { kind: "ConfigMap", name: "glance-bin" },
      { kind: "Job", name: "glance-db-sync" },
      { kind: "Deployment", name: "glance-api", spec: { selector: { matchLabels: { application: "glance", component: "api" } } } },
    ]);
    try {
      const c = new cp.ControlPlane("osh", { ...args(), services: ["mariadb", "memcached", "keystone", "glance"], nodeSelector: { key: "nfv", value: "cp" } });
      await settle();
      expect(Object.keys(c.ready)).toEqual(["mariadb", "memcached", "keystone", "glance"]);
      const gate = registered.find((r) => r.name === "osh-glance-ready")!;
      expect(gate.type).toBe("kubernetes:batch/v1:Job");
      expect(gate.provider).toContain("edge");
      const template = (gate.inputs as { spec: { template: { metadata: { annotations: Record<string, string> }; spec: Record<string, unknown> } } }).spec
        .template;
      // The chart's revision in the pod template: a changed Job or workload replaces the gate.
      expect(template.metadata.annotations[GATE_REVISION]).toBe(gateDependencies(chartResources.get("osh-glance")!).revision);
      const spec = template.spec;
      expect(spec).toMatchObject({ serviceAccountName: "nfv-chart-gate", restartPolicy: "Never", nodeSelector: { nfv: "cp" } });
      const [container] = spec.containers as { image: string; command: string[]; env: { name: string; value?: string }[] }[];
      expect(container.image).toBe("10.0.0.5:5000/nfv-lab/osh-entrypoint:zed-bookworm");
      expect(container.command).toEqual(["kubernetes-entrypoint"]);
      const env = Object.fromEntries(container.env.map((e) => [e.name, e.value]));
      expect(env.DEPENDENCY_JOBS).toBe("openstack:glance-db-sync");
      expect(JSON.parse(env.DEPENDENCY_POD_JSON!)).toEqual([
        { namespace: "openstack", labels: { application: "glance", component: "api" }, requireSameNode: false },
      ]);
      const role = registered.find((r) => r.type === "kubernetes:rbac.authorization.k8s.io/v1:Role" && r.name === "osh-gate");
      expect(role?.inputs.rules).toEqual([
        { apiGroups: ["batch"], resources: ["jobs"], verbs: ["get", "list"] },
        { apiGroups: [""], resources: ["pods"], verbs: ["get", "list"] },
      ]);
      expect(registered.filter((r) => r.name.endsWith("-ready")).map((r) => r.name)).toEqual([
        "osh-mariadb-ready",
        "osh-memcached-ready",
        "osh-keystone-ready",
        "osh-glance-ready",
      ]);
    } finally {
      chartResources.clear();
    }
  });

  it("the new cloud as an OpenStack VIM on Keystone's node port, and Tacker's vim-config.yaml for it, secret", async () => {
    const c = new cp.ControlPlane("osh", args());
    await settle();
    expect(await valueOf(c.authUrl)).toBe("http://192.0.2.21:30500/v3");
    const provider = registered.find((r) => r.type === "pulumi:providers:openstack" && r.name === "osh-vim-provider");
    expect(provider?.inputs).toMatchObject({ authUrl: "http://192.0.2.21:30500/v3", userName: "admin", tenantName: "admin", region: "RegionOne" });
    expect(plain(provider?.inputs.password)).toBe("admin-password-1");
    expect(pulumi.Output.isInstance(c.vimConfig)).toBe(true);
    expect(await pulumi.isSecret(c.vimConfig)).toBe(true);
    expect(parse(await valueOf(c.vimConfig))).toEqual({
      auth_url: "http://192.0.2.21:30500/v3",
      username: "admin",
      password: "admin-password-1",
      project_name: "admin",
      domain_name: "Default",
      project_domain_name: "Default",
      user_domain_name: "Default",
      cert_verify: "False",
    });
    expect(await valueOf(c.vim.vimRecord.apply((r) => r.name))).toBe("openstack_vim_osh");
  });

  it("images and networks in the new cloud, each through a setup provider configured after its service's gate: public images by name, shared networks with their subnet", async () => {
    const c = new cp.ControlPlane("osh", {
      ...args(),
      glanceImages: [
        { name: "Software of VDU1", file: "/images/vdu1.qcow2" },
        { name: "VirtualStorage", file: "/images/disk.raw", diskFormat: "raw" },
      ],
      networks: [{ name: "vnf-ext", cidr: "10.10.0.0/24" }],
    });
    await settle();
    const onCloud = registered.filter((r) => r.type.startsWith("openstack:")).sort((a, b) => a.name.localeCompare(b.name));
    expect(onCloud.map((r) => [r.type, r.name])).toEqual([
      ["openstack:images/image:Image", "osh-image-software-of-vdu1"],
      ["openstack:images/image:Image", "osh-image-virtualstorage"],
      ["openstack:networking/network:Network", "osh-network-vnf-ext"],
      ["openstack:networking/subnet:Subnet", "osh-subnet-vnf-ext"],
    ]);
    // The provider reads the catalog at its first authentication: each after the gate of the service it calls.
    for (const r of onCloud) expect(r.provider, r.name).toMatch(r.type.startsWith("openstack:images") ? /::osh-setup-glance::/ : /::osh-setup-neutron::/);
    expect(onCloud[0].inputs).toMatchObject({
      name: "Software of VDU1",
      localFilePath: "/images/vdu1.qcow2",
      diskFormat: "qcow2",
      containerFormat: "bare",
      visibility: "public",
    });
    expect(onCloud[1].inputs).toMatchObject({ name: "VirtualStorage", diskFormat: "raw" });
    expect(onCloud[2].inputs).toMatchObject({ name: "vnf-ext", shared: true, adminStateUp: true });
    expect(onCloud[3].inputs).toMatchObject({ name: "vnf-ext", networkId: "osh-network-vnf-ext-id", cidr: "10.10.0.0/24", ipVersion: 4 });
    expect(await valueOf(c.networkIds["vnf-ext"])).toBe("osh-network-vnf-ext-id");
    expect(await valueOf(c.imageIds["VirtualStorage"])).toBe("osh-image-virtualstorage-id");
    const dependencies = async (o: pulumi.Output<unknown>) =>
      [...(await (o as unknown as { allResources(): Promise<Set<pulumi.Resource>> }).allResources())]
        .map((r) => (r as unknown as { __name: string }).__name)
        .sort();
    for (const service of ["glance", "neutron"]) {
      const setup = registered.find((r) => r.type === "pulumi:providers:openstack" && r.name === `osh-setup-${service}`);
      expect(setup?.inputs).toMatchObject({ authUrl: "http://192.0.2.21:30500/v3", userName: "admin", tenantName: "admin", region: "RegionOne" });
    }
    // The VIM's provider once every gate passed and every image and network exists.
    expect(await dependencies(c.vim.endpoint)).toEqual(
      [
        ...Object.keys(c.ready).map((s) => `osh-${s}-ready`),
        "osh-image-software-of-vdu1",
        "osh-image-virtualstorage",
        "osh-network-vnf-ext",
        "osh-subnet-vnf-ext",
      ].sort(),
    );
  });

  it("each setup provider reaches the engine only once its own service's gate exists: its first authentication finds that service in the catalog", async () => {
    // Neutron's gate held back: the images' provider goes ahead, the networks' waits for it.
    let release = () => {};
    const held = new Promise<void>((r) => (release = r));
    const seen: string[] = [];
    pulumi.runtime.setMocks(
      {
        async newResource(a) {
          if (a.name === "osh-neutron-ready") await held;
          seen.push(a.name);
          return { id: `${a.name}-id`, state: a.inputs };
        },
        call: (a) => a.inputs,
      },
      "pulumi-nfv",
      "test",
      false,
    );
    try {
      new cp.ControlPlane("osh", { ...args(), glanceImages: [{ name: "img", file: "/img.qcow2" }], networks: [{ name: "net", cidr: "10.10.0.0/24" }] });
      await settle();
      expect(seen).toContain("osh-setup-glance");
      expect(seen).toContain("osh-image-img");
      expect(seen).not.toContain("osh-setup-neutron");
      release();
      await settle();
      expect(seen.indexOf("osh-setup-neutron")).toBeGreaterThan(seen.indexOf("osh-neutron-ready"));
      expect(seen).toContain("osh-network-net");
    } finally {
      release();
      await settle();
      registered = installMocks();
    }
  });

  it("images without Glance, networks without Neutron, a name twice: refused, nothing registered", async () => {
    const cut = { services: ["mariadb" as const, "memcached" as const, "keystone" as const] };
    expect(() => new cp.ControlPlane("bad", { ...args(), ...cut, glanceImages: [{ name: "a", file: "/a" }] })).toThrow(
      "glanceImages: the cloud holds them in glance, which is not among its services",
    );
    expect(() => new cp.ControlPlane("bad", { ...args(), ...cut, networks: [{ name: "n", cidr: "10.0.0.0/24" }] })).toThrow(
      "networks: the cloud holds them in neutron, which is not among its services",
    );
    const twice = [
      { name: "VNF ext", cidr: "10.0.0.0/24" },
      { name: "vnf-ext", cidr: "10.0.1.0/24" },
    ];
    expect(() => new cp.ControlPlane("bad", { ...args(), networks: twice })).toThrow("networks: 'vnf-ext' is given twice");
    expect(() => new cp.ControlPlane("bad", { ...args(), glanceImages: [{ name: "--", file: "/a" }] })).toThrow("glanceImages: a name needs a letter or digit");
    await settle();
    expect(registered.filter((r) => r.name.startsWith("bad"))).toEqual([]);
  });

  it("a subset of services: only their charts; the VIM still on Keystone", async () => {
    const c = new cp.ControlPlane("cut", { ...args(), services: ["mariadb", "memcached", "keystone", "glance", "placement"] });
    await settle();
    expect(charts.map((ch) => ch.name)).toEqual(["cut-mariadb", "cut-memcached", "cut-keystone", "cut-glance", "cut-placement"]);
    expect(c.services).toEqual(["mariadb", "memcached", "keystone", "glance", "placement"]);
  });

  it("bad arguments register nothing: a service without what it needs, a node selector the charts would break, a directory without the charts", async () => {
    expect(() => new cp.ControlPlane("bad", { ...args(), services: ["keystone"] })).toThrow("services: 'keystone' needs 'mariadb', 'memcached'");
    expect(() => new cp.ControlPlane("bad", { ...args(), nodeSelector: { key: "openstack-control-plane", value: "yes" } })).toThrow("nodeSelector.value 'yes'");
    expect(() => new cp.ControlPlane("bad", { ...args(), charts: osh.dir })).toThrow(`${path.join(osh.dir, "mariadb", "values.yaml")}: cannot read`);
    await settle();
    expect(registered.filter((r) => r.name.startsWith("bad"))).toEqual([]);
    expect(charts).toEqual([]);
  });
});
