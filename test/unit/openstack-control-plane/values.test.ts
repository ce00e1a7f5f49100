/**
 * The pure parts of nfv:openstack:ControlPlane (issue 26): which services may be chosen, the image
 * of each chart's tags, the derived passwords, the node selector the charts can carry, and the
 * values of real charts (openstack-helm's, from ../shared). What the provider renders of them is
 * test/integration/osh-control-plane-render.test.ts.
 */
import { readFileSync } from "node:fs";
import * as path from "node:path";
import * as pulumi from "@pulumi/pulumi";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { parse } from "yaml";
import { readChartDefaults } from "../../../components/openstack-control-plane/chart-defaults";
import { chartValues, checkNodeSelector, type ValuesContext } from "../../../components/openstack-control-plane/chart-values";
import { imageTags, repositoryName } from "../../../components/openstack-control-plane/images";
import { derivePassword } from "../../../components/openstack-control-plane/passwords";
import { NEEDS, SERVICES, selectServices } from "../../../components/openstack-control-plane/services";
import { unpackOpenstackHelm } from "../../fixtures/openstack-helm";
import { valueOf } from "../helpers/pulumi-mocks";

let osh: ReturnType<typeof unpackOpenstackHelm>;
let charts = "";

beforeAll(() => {
  osh = unpackOpenstackHelm();
  charts = osh.charts;
});
afterAll(() => osh.dispose());

describe("selectServices", () => {
  it("all of them by default, each after what it needs", () => {
    expect(selectServices(undefined)).toEqual([...SERVICES]);
    for (const [i, s] of SERVICES.entries()) for (const d of NEEDS[s]) expect(SERVICES.indexOf(d), `${s} needs ${d}`).toBeLessThan(i);
  });

  it("the cut of the issue (keystone, glance and placement on their backing services), in dependency order", () => {
    expect(selectServices(["placement", "glance", "keystone", "memcached", "mariadb"])).toEqual(["mariadb", "memcached", "keystone", "glance", "placement"]);
  });

  it("refuses an unknown service, a set without Keystone, a service without what it needs, and Nova without Neutron (they come up together)", () => {
    expect(() => selectServices(["mariadb", "horizon"])).toThrow("services: unknown 'horizon' (known: mariadb, rabbitmq");
    expect(() => selectServices(["mariadb", "memcached", "glance"])).toThrow(
      "services: 'keystone' is required (the control plane is registered as a VIM through it)",
    );
    expect(() => selectServices(["mariadb", "keystone", "glance"])).toThrow("services: 'keystone' needs 'memcached', which is not in the list");
    const allButNeutron = SERVICES.filter((s) => s !== "neutron");
    expect(() => selectServices(allButNeutron)).toThrow("services: 'nova' needs 'neutron', which is not in the list");
  });
});

describe("images", () => {
  it("names an image by its repository's last segment, without tag or digest", () => {
    expect(repositoryName("quay.io/airshipit/kubernetes-entrypoint:latest-ubuntu_focal")).toBe("kubernetes-entrypoint");
    expect(repositoryName("docker.io/openstackhelm/heat@sha256:0123")).toBe("heat");
    expect(repositoryName("memcached")).toBe("memcached");
  });

  it("points each tag of an image we build at the registry, and leaves out the others", () => {
    const tags = imageTags(
      { db_init: "quay.io/airshipit/heat:2024.1", keystone_api: "quay.io/airshipit/keystone:2024.1", test: "docker.io/xrally/xrally-openstack:2.0.0" },
      { registry: "10.0.0.5:5000" },
    );
    expect(tags).toEqual({
      db_init: "10.0.0.5:5000/nfv-lab/osh-openstack-client:zed-bookworm",
      keystone_api: "10.0.0.5:5000/nfv-lab/osh-keystone:zed-bookworm",
    });
    expect(imageTags({ x: "a/nova:1" }, { registry: "r:1", repository: "site", tag: "t" })).toEqual({ x: "r:1/site/osh-nova:t" });
    // The RabbitMQ jobs run in our RabbitMQ image, whatever upstream's.
    expect(imageTags({ rabbit_init: "docker.io/openstackhelm/heat:zed" }, { registry: "r:1" })).toEqual({
      rabbit_init: "r:1/nfv-lab/osh-rabbitmq:zed-bookworm",
    });
  });
});

describe("derivePassword", () => {
  const seed = "a seed of twenty characters";
  it("the same seed and purpose give the same 32 base64url characters; another purpose or seed, another", () => {
    const p = derivePassword(seed, "identity:nova");
    expect(p).toMatch(/^[A-Za-z0-9_-]{32}$/);
    expect(derivePassword(seed, "identity:nova")).toBe(p);
    expect(derivePassword(seed, "identity:neutron")).not.toBe(p);
    expect(derivePassword(`${seed}!`, "identity:nova")).not.toBe(p);
  });
  it("refuses a seed under 16 characters", () => {
    expect(() => derivePassword("short", "x")).toThrow("passwordSeed: at least 16 characters are needed");
  });
});

describe("checkNodeSelector", () => {
  it("accepts a label the charts carry as a string", () => {
    expect(() => checkNodeSelector({ key: "openstack-control-plane", value: "enabled" })).not.toThrow();
    expect(() => checkNodeSelector({ key: "example.com/role", value: "cp-1" })).not.toThrow();
  });
  it("refuses a value YAML reads as no string (the charts write it unquoted), and a key that is no label key", () => {
    for (const value of ["yes", "on", "True", "1", "0.5", "~", ""]) expect(() => checkNodeSelector({ key: "k", value }), value).toThrow(/^nodeSelector.value/);
    expect(() => checkNodeSelector({ key: "bad key", value: "enabled" })).toThrow("nodeSelector.key 'bad key' is not a label key");
    expect(() => checkNodeSelector({ key: "k", value: "two words" })).toThrow("nodeSelector.value 'two words' is not a label value (at most 63 characters");
  });
});

describe("chartValues of openstack-helm's charts", () => {
  const ctx: ValuesContext = {
    images: { registry: "10.0.0.5:5000" },
    adminPassword: "admin-secret",
    password: (purpose) => pulumi.output(`pw(${purpose})`),
    publicHost: "192.0.2.21",
  };
  type Auth = Record<string, { password?: pulumi.Output<string> } | pulumi.Output<string>>;
  // The whole values.yaml of a chart (readChartDefaults keeps only what chartValues reads).
  const chartValuesFile = (service: string) => parse(readFileSync(path.join(charts, service, "values.yaml"), "utf8")) as Record<string, unknown>;
  const authOf = (values: Record<string, unknown>, kind: string) => (values.endpoints as Record<string, { auth: Auth }>)[kind].auth;
  const passwordIn = (a: Auth[string]) => valueOf((pulumi.Output.isInstance(a) ? a : a.password!) as pulumi.Output<string>);

  it("a chart that does not exist is an error naming the file", () => {
    expect(() => readChartDefaults(path.join(charts, "horizon"))).toThrow(
      `${path.join(charts, "horizon", "values.yaml")}: cannot read the chart's values (ENOENT)`,
    );
  });

  it("keystone: jobs as plain objects, our images, the admin password, MariaDB's root as every database's admin, ingress and Helm tests off", async () => {
    const v = chartValues("keystone", readChartDefaults(path.join(charts, "keystone")), ctx);
    expect(v.helm3_hook).toBe(false);
    const tags = (v.images as { tags: Record<string, string> }).tags;
    expect(tags.keystone_api).toBe("10.0.0.5:5000/nfv-lab/osh-keystone:zed-bookworm");
    expect(tags.db_init).toBe("10.0.0.5:5000/nfv-lab/osh-openstack-client:zed-bookworm");
    expect(tags.dep_check).toBe("10.0.0.5:5000/nfv-lab/osh-entrypoint:zed-bookworm");
    expect(tags.test).toBeUndefined();
    expect(authOf(v, "identity").admin).toEqual({ password: "admin-secret" });
    expect(await passwordIn(authOf(v, "oslo_db").admin)).toBe("pw(db:admin)");
    expect(await passwordIn(authOf(v, "oslo_db").keystone)).toBe("pw(oslo_db:keystone)");
    expect(v.manifests).toMatchObject({ ingress_api: false, service_ingress_api: false, pod_rally_test: false, job_rabbit_init: false, job_bootstrap: false });
    expect(v.network).toEqual({ api: { node_port: { enabled: true, port: 30500 } } });
    // Two API pods, one kept through a drain: a heal of one pod leaves the VIM's Keystone answering.
    expect(v.pod).toEqual({ replicas: { api: 2 }, lifecycle: { disruption_budget: { api: { min_available: 1 } } } });
    expect((v.endpoints as Record<string, unknown>).identity).toMatchObject({
      host_fqdn_override: { public: { host: "192.0.2.21" } },
      port: { api: { public: 30500 } },
    });
  });

  it("rabbitmq: its administrator (the chart's `user`) is every other chart's `admin`; its Erlang cookie derived; exporters off", async () => {
    const rabbit = chartValues("rabbitmq", readChartDefaults(path.join(charts, "rabbitmq")), ctx);
    const nova = chartValues("nova", readChartDefaults(path.join(charts, "nova")), ctx);
    expect(await passwordIn(authOf(rabbit, "oslo_messaging").user)).toBe("pw(messaging:admin)");
    expect(await passwordIn(authOf(nova, "oslo_messaging").admin)).toBe("pw(messaging:admin)");
    expect(await passwordIn(authOf(rabbit, "oslo_messaging").erlang_cookie)).toBe("pw(messaging:erlang_cookie)");
    expect(rabbit.manifests).toMatchObject({ monitoring: { prometheus: { deployment_exporter: false, service_exporter: false } }, job_cluster_wait: false });
  });

  it("the memcache key the charts would make at random at every render (so every up would roll the pods) is derived, one for all", async () => {
    for (const service of ["glance", "placement", "neutron", "nova"]) {
      expect(authOf(chartValuesFile(service), "oslo_cache"), service).toEqual({ memcache_secret_key: null });
      const v = chartValues(service as "glance", readChartDefaults(path.join(charts, service)), ctx);
      expect(await passwordIn(authOf(v, "oslo_cache").memcache_secret_key), service).toBe("pw(cache:memcache_secret_key)");
    }
  });

  it("nova and neutron: the same Keystone user has the same password in both; the fake driver; Linux bridges; the metadata secret shared", async () => {
    const nova = chartValues("nova", readChartDefaults(path.join(charts, "nova")), ctx);
    const neutron = chartValues("neutron", readChartDefaults(path.join(charts, "neutron")), ctx);
    expect(await passwordIn(authOf(nova, "identity").neutron)).toBe("pw(identity:neutron)");
    expect(await passwordIn(authOf(neutron, "identity").neutron)).toBe("pw(identity:neutron)");
    expect(await passwordIn(authOf(neutron, "identity").nova)).toBe("pw(identity:nova)");
    // One MariaDB user `nova` for Nova's three databases: one password.
    for (const kind of ["oslo_db", "oslo_db_api", "oslo_db_cell0"]) expect(await passwordIn(authOf(nova, kind).nova), kind).toBe("pw(oslo_db:nova)");
    const novaConf = (nova.conf as { nova: { DEFAULT: Record<string, unknown>; neutron: { metadata_proxy_shared_secret: pulumi.Output<string> } } }).nova;
    expect(novaConf.DEFAULT.compute_driver).toBe("fake.FakeDriver");
    // nova-compute waits for no libvirt pod and no metadata API, which do not exist here.
    const computeDeps = (nova.dependencies as { static: { compute: { pod: unknown[]; services: { service: string }[] } } }).static.compute;
    expect(computeDeps.pod).toEqual([]);
    expect(computeDeps.services.map((x) => x.service)).toEqual(["oslo_messaging", "image", "compute", "network"]);
    expect(await valueOf(novaConf.neutron.metadata_proxy_shared_secret)).toBe("pw(metadata-proxy)");
    expect(nova.network).toEqual({ backend: ["linuxbridge"], osapi: { node_port: { enabled: true, port: 30774 } } });
    expect(neutron.manifests).toMatchObject({ daemonset_ovs_agent: false, daemonset_l3_agent: false });
    // The agents' RPC server (neutron-server serves the API only) and the Linux bridge agents stay on.
    expect(neutron.manifests).not.toHaveProperty("deployment_rpc_server");
    expect(neutron.manifests).not.toHaveProperty("daemonset_lb_agent");
    // Debian's neutron-server exits at start without it (seen on the real cluster).
    expect((neutron.conf as { neutron: { experimental: unknown } }).neutron.experimental).toEqual({ linuxbridge: true });
  });

  it("mariadb and rabbitmq: one server each; without a storage class their data is a directory of their node (no PVC), with one their PVCs use it", () => {
    for (const service of ["mariadb", "rabbitmq"] as const) {
      const defaults = readChartDefaults(path.join(charts, service));
      const own = chartValues(service, defaults, ctx);
      expect((own.pod as { replicas: unknown }).replicas, service).toEqual({ server: 1 });
      // no claim: the charts' host path for one server, under our directory
      const local = { enabled: true, host_path: `/var/lib/openstack-helm/${service}` };
      expect(own.volume, service).toEqual({
        enabled: false,
        ...(service === "mariadb" ? { use_local_path_for_single_pod_cluster: local } : { use_local_path: local }),
      });
      const chartVolume = (chartValuesFile(service) as { volume: Record<string, unknown> }).volume;
      for (const key of Object.keys(own.volume as object)) expect(chartVolume, `${service} volume.${key}`).toHaveProperty(key);
      expect(chartValues(service, defaults, { ...ctx, storageClass: "local-path" }).volume, service).toEqual({ enabled: true, class_name: "local-path" });
    }
  });

  it("rabbitmq: its probes (each an Erlang VM) less often and with more time, at the chart's own keys", () => {
    const defaults = readChartDefaults(path.join(charts, "rabbitmq"));
    type Probes = Record<"readiness" | "liveness", { params: Record<string, number> }>;
    const probesOf = (v: Record<string, unknown>) => (v.pod as { probes: { rabbitmq: { rabbitmq: Probes } } }).probes.rabbitmq.rabbitmq;
    const ours = probesOf(chartValues("rabbitmq", defaults, ctx));
    const chart = probesOf(chartValuesFile("rabbitmq"));
    for (const probe of ["readiness", "liveness"] as const) {
      for (const key of Object.keys(ours[probe].params)) expect(chart[probe].params, `${probe}.${key}`).toHaveProperty(key);
      expect(ours[probe].params.periodSeconds).toBeGreaterThan(chart[probe].params.periodSeconds);
    }
    expect(ours.liveness.params).toEqual({ periodSeconds: 120, timeoutSeconds: 60, failureThreshold: 5 });
    expect(chartValues("mariadb", readChartDefaults(path.join(charts, "mariadb")), ctx).pod as object).not.toHaveProperty("probes");
  });

  it("without a public host, no public endpoint and no node port; with a node selector, every selector of the chart replaced", () => {
    const v = chartValues("nova", readChartDefaults(path.join(charts, "nova")), { ...ctx, publicHost: undefined, nodeSelector: { key: "role", value: "cp" } });
    expect(v.network).toEqual({ backend: ["linuxbridge"] });
    expect(JSON.stringify(v.endpoints)).not.toContain("host_fqdn_override");
    const labels = v.labels as Record<string, unknown>;
    expect(labels.osapi).toEqual({ node_selector_key: "role", node_selector_value: "cp" });
    expect((labels.agent as Record<string, unknown>).compute).toEqual({ node_selector_key: "role", node_selector_value: "cp" });
  });
});
