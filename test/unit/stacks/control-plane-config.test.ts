/**
 * `openstack_control_planes` in a stack config (issue 26): the entry each becomes, the located
 * errors of a bad one (its passwords never echoed), its OpenStack VIM among the stack's VIMs for
 * the VNFs after it, and what the program registers for one (Pulumi mocks): the charts on the
 * Kubernetes VIM's provider, the OpenStack VIM, the passwords only as secrets.
 */
import * as path from "node:path";
import * as pulumi from "@pulumi/pulumi";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { SERVICES, WITHOUT_CHART } from "../../../components/openstack-control-plane/services";
import { loadStackSettings } from "../../../stacks/settings";
import { parseYaml } from "../../../translators/yaml/located-yaml";
import { unpackOpenstackHelm } from "../../fixtures/openstack-helm";
import { installMocks, isSecretValue, plain, settle, type Registered } from "../helpers/pulumi-mocks";
import { charts as recordedCharts } from "../helpers/recording-chart";
import { OS_VIM } from "./vims";

const ROOT = path.join(__dirname, "../../..");
const HELLOWORLD3 = path.join(ROOT, "../shared/vnf-packages/helloworld3");
const K8S_VIM = { type: "kubernetes", auth_url: "https://192.0.2.30:6443", bearer_token: "t", ssl_ca_cert: "None", project_name: "default" };
const ADMIN = "Adm1n-Passw0rd-unit";
const SEED = "seed-of-more-than-16-chars";
let osh: ReturnType<typeof unpackOpenstackHelm>;
let charts = "";

beforeAll(() => {
  osh = unpackOpenstackHelm();
  charts = osh.charts;
});
afterAll(() => osh.dispose());

const entry = (over: Record<string, unknown> = {}) => ({
  vim: "edge",
  charts,
  image_registry: "192.0.2.40:5000",
  admin_password: ADMIN,
  password_seed: SEED,
  public_host: "192.0.2.31",
  ...over,
});
const settings = (openstackControlPlanes: unknown, stackYaml?: string) =>
  loadStackSettings(
    { vims: { core: OS_VIM, edge: K8S_VIM }, openstackControlPlanes },
    ROOT,
    "unit",
    stackYaml === undefined ? undefined : parseYaml(stackYaml, "stacks/Pulumi.unit.yaml").documents[0],
  );

describe("openstack_control_planes in the stack config", () => {
  it("an entry on a Kubernetes VIM becomes the control plane's settings, its VIM named openstack_vim_<name>", async () => {
    const s = await settings({
      osh: entry({
        services: ["mariadb", "memcached", "keystone"],
        node_selector: { key: "cp", value: "enabled" },
        image_tag: "t1",
        storage_class: "local-path",
      }),
    });
    expect(s.bag.hasErrors()).toBe(false);
    expect(s.controlPlanes).toEqual([
      {
        name: "osh",
        vim: "edge",
        vimName: "openstack_vim_osh",
        charts,
        images: { registry: "192.0.2.40:5000", tag: "t1" },
        adminPassword: ADMIN,
        passwordSeed: SEED,
        publicHost: "192.0.2.31",
        nodeSelector: { key: "cp", value: "enabled" },
        services: ["mariadb", "memcached", "keystone"],
        storageClass: "local-path",
      },
    ]);
  });

  it("every problem at its line in Pulumi.<stack>.yaml, and no password in any message", async () => {
    const yaml = [
      "config:",
      "  pulumi-nfv:openstack_control_planes:",
      "    a:",
      "      vim: core",
      "      charts: /nowhere",
      "      password_seed: short-Secr3t",
      "      services: [keystone]",
      "      node_selector: {key: cp, value: 'yes'}",
      "      flavour: big",
      "    b:",
      "      vim: nowhere",
      "      vim_name: core",
      "",
    ].join("\n");
    const raw = {
      a: { vim: "core", charts: "/nowhere", password_seed: "short-Secr3t", services: ["keystone"], node_selector: { key: "cp", value: "yes" }, flavour: "big" },
      b: { vim: "nowhere", vim_name: "core" },
    };
    const s = await settings(raw, yaml);
    expect(s.bag.errors().map((d) => [d.code, d.path, d.line, d.message])).toEqual([
      ["CONFIG_UNKNOWN_KEY", "pulumi-nfv:openstack_control_planes.a.flavour", 9, expect.stringContaining("unknown key 'flavour' (expected vim, charts,")],
      ["CONFIG_MISSING_FIELD", "pulumi-nfv:openstack_control_planes.a", 4, expect.stringContaining("image_registry is required")],
      ["CONFIG_MISSING_FIELD", "pulumi-nfv:openstack_control_planes.a", 4, expect.stringContaining("admin_password is required")],
      ["CONFIG_MISSING_FIELD", "pulumi-nfv:openstack_control_planes.a", 4, expect.stringContaining("public_host is required")],
      ["CONFIG_WRONG_VIM", "pulumi-nfv:openstack_control_planes.a.vim", 4, "vim 'core' is of type openstack; the charts run on a Kubernetes VIM"],
      [
        "CONFIG_FILE_MISSING",
        "pulumi-nfv:openstack_control_planes.a.charts",
        5,
        "charts: /nowhere has no helm-toolkit/Chart.yaml: not an openstack-helm checkout",
      ],
      [
        "CONFIG_BAD_VALUE",
        "pulumi-nfv:openstack_control_planes.a.password_seed",
        6,
        expect.stringContaining("password_seed must be a secret string of at least 16"),
      ],
      ["CONFIG_BAD_VALUE", "pulumi-nfv:openstack_control_planes.a.node_selector", 8, expect.stringContaining("nodeSelector.value 'yes'")],
      ["CONFIG_BAD_VALUE", "pulumi-nfv:openstack_control_planes.a.services", 7, "services: 'keystone' needs 'mariadb', 'memcached', which is not in the list"],
      ...["charts", "image_registry", "admin_password", "password_seed", "public_host"].map((k) => [
        "CONFIG_MISSING_FIELD",
        "pulumi-nfv:openstack_control_planes.b",
        11,
        expect.stringContaining(`${k} is required`),
      ]),
      ["CONFIG_UNKNOWN_VIM", "pulumi-nfv:openstack_control_planes.b.vim", 11, "vim 'nowhere' is not one of the stack's vims (core, edge)"],
      [
        "CONFIG_DUPLICATE_VIM",
        "pulumi-nfv:openstack_control_planes.b.vim_name",
        12,
        "the control plane's OpenStack VIM would be named 'core', which is already a VIM of this stack; set vim_name",
      ],
    ]);
    expect(JSON.stringify(s.bag.items)).not.toContain("Secr3t");
  });

  it("a VM VNF may name the control plane's VIM, which is of type openstack (the same VNF on the Kubernetes VIM is refused)", async () => {
    const vnfs = (vim: string) => ({
      hw: { vim, package: path.join(ROOT, "../shared/vnf-packages/helloworld3"), instantiate_request: "test/fixtures/vnf/helloworld3_level1.json" },
    });
    const on = (vim: string) => loadStackSettings({ vims: { edge: K8S_VIM }, openstackControlPlanes: { osh: entry() }, vnfs: vnfs(vim) }, ROOT, "unit");
    const ok = await on("openstack_vim_osh");
    expect(ok.bag.errors()).toEqual([]);
    expect(ok.vnfs.map((v) => [v.entry.name, v.component, v.entry.vim])).toEqual([["hw", "vm-vnf", "openstack_vim_osh"]]);
    expect((await on("edge")).bag.errors().map((d) => [d.code, d.path])).toEqual([["CONFIG_WRONG_VIM", "pulumi-nfv:vnfs.hw.vim"]]);
  });

  it("glance_images and networks become the cloud's images (files resolved) and networks; a VM VNF's ext_networks name them", async () => {
    const image = "test/fixtures/vnf/helloworld3_level1.json";
    const hw = {
      vim: "openstack_vim_osh",
      package: HELLOWORLD3,
      instantiate_request: "test/fixtures/vnf/helloworld3_level1.json",
      ext_networks: { ext0: "vnf-ext" },
    };
    const s = await loadStackSettings(
      {
        vims: { edge: K8S_VIM },
        openstackControlPlanes: {
          osh: entry({ glance_images: [{ name: "Software of VDU1", file: image, disk_format: "raw" }], networks: { "vnf-ext": { cidr: "10.10.0.0/24" } } }),
        },
        vnfs: { hw },
      },
      ROOT,
      "unit",
    );
    expect(s.bag.errors()).toEqual([]);
    expect(s.controlPlanes[0]).toMatchObject({
      glanceImages: [{ name: "Software of VDU1", file: path.join(ROOT, image), diskFormat: "raw" }],
      networks: [{ name: "vnf-ext", cidr: "10.10.0.0/24" }],
    });
    expect(s.vnfs[0].entry.extNetworks).toEqual({ ext0: "vnf-ext" });
  });

  it("bad glance_images, networks and ext_networks: each problem located", async () => {
    const cut = ["mariadb", "memcached", "keystone", "glance"];
    const raw = {
      vims: { edge: K8S_VIM },
      openstackControlPlanes: {
        osh: entry({
          glance_images: [{ name: "x", file: "/nowhere.qcow2", size: 1 }, { file: "test/fixtures/vnf/helloworld3_level1.json" }],
          networks: { n: { cidr: "10.0.0.0/33" }, m: "10.0.0.0/24" },
        }),
        cut: entry({ services: cut, vim_name: "cut_vim", networks: { n: { cidr: "10.0.0.0/24" } } }),
      },
      vnfs: {
        hw: {
          vim: "openstack_vim_osh",
          package: HELLOWORLD3,
          instantiate_request: "test/fixtures/vnf/helloworld3_level1.json",
          ext_networks: { ext9: "nowhere" },
        },
        bad: { vim: "openstack_vim_osh", package: HELLOWORLD3, instantiate_request: "test/fixtures/vnf/helloworld3_level1.json", ext_networks: ["ext0"] },
      },
    };
    const structural = await loadStackSettings(raw, ROOT, "unit");
    expect(structural.bag.errors().map((d) => [d.code, d.path, d.message])).toEqual([
      [
        "CONFIG_UNKNOWN_KEY",
        "pulumi-nfv:openstack_control_planes.osh.glance_images[0].size",
        "unknown key 'glance_images[0].size' (expected name, file, disk_format)",
      ],
      ["CONFIG_FILE_MISSING", "pulumi-nfv:openstack_control_planes.osh.glance_images[0].file", "glance_images[0].file /nowhere.qcow2 does not exist"],
      [
        "CONFIG_MISSING_FIELD",
        "pulumi-nfv:openstack_control_planes.osh.glance_images[1]",
        "glance_images[1].name is required (the name packages look the image up by)",
      ],
      ["CONFIG_BAD_VALUE", "pulumi-nfv:openstack_control_planes.osh.networks.n.cidr", "networks.n.cidr must be an IPv4 range such as 10.10.0.0/24"],
      ["CONFIG_BAD_TYPE", "pulumi-nfv:openstack_control_planes.osh.networks.m", "networks.m must be a mapping with cidr"],
      ["CONFIG_BAD_VALUE", "pulumi-nfv:openstack_control_planes.cut.networks", "networks: the cloud holds them in neutron, which is not among its services"],
      [
        "CONFIG_BAD_TYPE",
        "pulumi-nfv:vnfs.bad.ext_networks",
        "ext_networks must map extVirtualLinks ids of the request to networks of the control plane the VNF runs on",
      ],
    ]);
    // With the structure right, what the request and the control plane must have.
    const fixed = {
      ...raw,
      openstackControlPlanes: { osh: entry({ networks: { "vnf-ext": { cidr: "10.10.0.0/24" } } }) },
      vnfs: { hw: raw.vnfs.hw, onEdge: { ...raw.vnfs.hw, vim: "core", ext_networks: { ext0: "vnf-ext" } } },
    };
    const s = await loadStackSettings({ ...fixed, vims: { edge: K8S_VIM, core: OS_VIM } }, ROOT, "unit");
    expect(s.bag.errors().map((d) => [d.code, d.path, d.message])).toEqual([
      [
        "CONFIG_BAD_VALUE",
        "pulumi-nfv:vnfs.hw.ext_networks.ext9",
        "ext_networks.ext9: the instantiate request has no extVirtualLinks entry 'ext9' (it has ext0)",
      ],
      [
        "CONFIG_BAD_REFERENCE",
        "pulumi-nfv:vnfs.hw.ext_networks.ext9",
        "ext_networks.ext9: control plane 'osh' has no network 'nowhere' (its networks: vnf-ext)",
      ],
      [
        "CONFIG_WRONG_VIM",
        "pulumi-nfv:vnfs.onEdge.ext_networks",
        "ext_networks name networks of a control plane of this stack: VNF 'onEdge' must be a VM VNF on a control plane's VIM (openstack_vim_osh)",
      ],
    ]);
  });

  it("a registry VNF on the control plane's VIM is refused: registries come before the control planes", async () => {
    const reg = {
      vim: "openstack_vim_osh",
      package: path.join(ROOT, "../shared/vnf-packages/private_registry_vnf_package"),
      instantiate_request: "test/fixtures/vnf/private_registry_param_file.json",
    };
    const s = await loadStackSettings({ vims: { edge: K8S_VIM }, openstackControlPlanes: { osh: entry() }, vnfs: { reg } }, ROOT, "unit");
    expect(s.bag.errors().map((d) => [d.code, d.path, d.message])).toEqual([
      [
        "CONFIG_WRONG_VIM",
        "pulumi-nfv:vnfs.reg.vim",
        "VNF 'reg' is a private-registry, which the stack registers before its control planes; it cannot run on 'openstack_vim_osh', a control plane's VIM",
      ],
    ]);
  });
});

describe("the program registers a control plane", () => {
  let registered: Registered[];
  let program: typeof import("../../../stacks/program");

  beforeAll(async () => {
    registered = installMocks();
    program = await import("../../../stacks/program");
  });
  afterEach(async () => {
    await settle();
    registered.length = 0;
    recordedCharts.length = 0;
  });

  it("its charts on the Kubernetes VIM's provider; its OpenStack VIM joins the stack's VIMs; the passwords reach it only as secrets", async () => {
    // `pulumi config set --secret --path openstack_control_planes.osh.admin_password …` makes the whole key secret.
    pulumi.runtime.setAllConfig(
      {
        "pulumi-nfv:vims": JSON.stringify({ edge: K8S_VIM }),
        "pulumi-nfv:openstack_control_planes": JSON.stringify({ osh: entry() }),
      },
      ["pulumi-nfv:vims", "pulumi-nfv:openstack_control_planes"],
    );
    const outputs = await program.deployStack();
    await settle();
    expect(recordedCharts.map((c) => c.name)).toEqual(SERVICES.filter((s) => !WITHOUT_CHART.includes(s)).map((s) => `osh-${s}`));
    expect(recordedCharts.every((c) => (c.opts.provider as pulumi.ProviderResource | undefined) !== undefined)).toBe(true);
    expect(Object.keys(outputs.vims).sort()).toEqual(["edge", "openstack_vim_osh"]);
    const provider = registered.find((r) => r.type === "pulumi:providers:openstack" && r.name === "osh-vim-provider")!;
    expect(isSecretValue(provider.inputs.password)).toBe(true);
    expect(plain(provider.inputs.password)).toBe(ADMIN);
    const out = await new Promise<Record<string, unknown>>((resolve) => outputs.controlPlanes.osh.apply((v) => resolve(v as Record<string, unknown>)));
    expect(out).toEqual({
      vim: "edge",
      vimName: "openstack_vim_osh",
      authUrl: "http://192.0.2.31:30500/v3",
      services: expect.arrayContaining(["keystone", "nova"]),
      networkIds: {},
    });
    expect(JSON.stringify(out)).not.toContain(ADMIN);
  });

  it("a VM VNF's ext_networks: its link's ports on the control plane's network, not the request's resourceId", async () => {
    pulumi.runtime.setAllConfig(
      {
        "pulumi-nfv:vims": JSON.stringify({ edge: K8S_VIM }),
        "pulumi-nfv:openstack_control_planes": JSON.stringify({ osh: entry({ networks: { "vnf-ext": { cidr: "10.10.0.0/24" } } }) }),
        "pulumi-nfv:vnfs": JSON.stringify({
          hw: {
            vim: "openstack_vim_osh",
            package: HELLOWORLD3,
            instantiate_request: "test/fixtures/vnf/helloworld3_level1.json",
            ext_networks: { ext0: "vnf-ext" },
          },
        }),
      },
      ["pulumi-nfv:vims", "pulumi-nfv:openstack_control_planes"],
    );
    await program.deployStack();
    await settle();
    const ports = registered.filter((r) => r.type === "openstack:networking/port:Port" && r.name.startsWith("hw-"));
    expect(ports.length).toBeGreaterThan(0);
    const onExt = ports.filter((p) => p.inputs.networkId === "osh-network-vnf-ext-id");
    expect(onExt.length).toBeGreaterThan(0);
    expect(ports.filter((p) => p.inputs.networkId === "0f3e6a46-6a37-4d0f-9c51-1a8d0e2f7a11")).toEqual([]);
    for (const p of ports) expect(p.provider, p.name).toMatch(/::osh-vim-provider::/);
  });
});
