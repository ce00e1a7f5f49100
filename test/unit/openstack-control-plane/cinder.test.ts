/**
 * Cinder on the control plane (cinder.ts) under Pulumi mocks: its objects of our own (no chart),
 * the configuration as a secret, every password a secretKeyRef and never a plain value, the NFS
 * share's mount point where os-brick looks for it, the catalog on the node port, and a gate as a
 * chart's. Proves what the program asks for; the pods' run is the real cluster's.
 */
import { createHash } from "node:crypto";
import * as k8s from "@pulumi/kubernetes";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { cinderCatalog } from "../../../components/openstack-control-plane/cinder";
import { iniFile } from "../../../components/openstack-control-plane/ini";
import { derivePassword } from "../../../components/openstack-control-plane/passwords";
import { selectServices } from "../../../components/openstack-control-plane/services";
import { unpackOpenstackHelm } from "../../fixtures/openstack-helm";
import { installMocks, isSecretValue, plain, settle, type Registered } from "../helpers/pulumi-mocks";
import { charts } from "../helpers/recording-chart";

let registered: Registered[];
let cp: typeof import("../../../components/openstack-control-plane/control-plane");
let osh: ReturnType<typeof unpackOpenstackHelm>;

beforeAll(async () => {
  registered = installMocks();
  cp = await import("../../../components/openstack-control-plane/control-plane");
  osh = unpackOpenstackHelm();
});
afterEach(async () => {
  await settle();
  registered.length = 0;
  charts.length = 0;
});
afterAll(() => osh.dispose());

const SEED = "seed-of-twenty-chars";
const ADMIN = "admin-password-1";
const SERVICES = ["mariadb", "rabbitmq", "memcached", "keystone", "cinder"] as const;

async function deploy(extra: { publicHost?: string } = {}): Promise<Registered[]> {
  new cp.ControlPlane("osh", {
    vim: { provider: new k8s.Provider("edge", { kubeconfig: "{}" }) },
    charts: osh.charts,
    images: { registry: "10.0.0.5:5000" },
    adminPassword: ADMIN,
    passwordSeed: SEED,
    publicHost: extra.publicHost ?? "192.0.2.21",
    services: [...SERVICES],
  });
  await settle();
  return registered.filter((r) => r.name.startsWith("osh-cinder"));
}

type Container = { name: string; image: string; command: string[]; env?: { name: string; value?: unknown; valueFrom?: unknown }[]; securityContext?: unknown };
type PodSpec = { containers: Container[]; initContainers?: Container[]; volumes?: Record<string, unknown>[]; serviceAccountName?: string };
const podOf = (r: Registered) => (r.inputs as { spec: { template: { spec: PodSpec } } }).spec.template.spec;
const secretText = (r: Registered, key: string) => plain((plain(r.inputs.stringData) as Record<string, unknown>)[key]) as string;

describe("Cinder on the control plane", () => {
  it("objects of our own beside the charts, on the VIM's provider: configuration, four Jobs, API, scheduler, volume service, the API's node port, a gate", async () => {
    const cinder = await deploy();
    expect(charts.map((c) => c.name)).not.toContain("osh-cinder");
    expect(cinder.map((r) => `${r.type.replace("kubernetes:", "")} ${r.name}`).sort()).toEqual([
      "apps/v1:Deployment osh-cinder-api",
      "apps/v1:Deployment osh-cinder-scheduler",
      "apps/v1:Deployment osh-cinder-volume",
      "batch/v1:Job osh-cinder-db-init",
      "batch/v1:Job osh-cinder-db-sync",
      "batch/v1:Job osh-cinder-ks",
      "batch/v1:Job osh-cinder-rabbit-init",
      "batch/v1:Job osh-cinder-ready",
      "core/v1:ConfigMap osh-cinder-bin",
      "core/v1:Secret osh-cinder-etc",
      "core/v1:Secret osh-cinder-passwords",
      "core/v1:Service osh-cinder-api-service",
    ]);
    for (const r of cinder) expect(r.provider, r.name).toContain("edge");
    const images = cinder
      .filter((r) => r.type !== "kubernetes:core/v1:Secret" && r.type.match(/Job|Deployment/))
      .flatMap((r) => podOf(r).containers.map((c) => c.image));
    expect(new Set(images)).toEqual(
      new Set([
        "10.0.0.5:5000/nfv-lab/osh-openstack-client:zed-bookworm",
        "10.0.0.5:5000/nfv-lab/osh-cinder:zed-bookworm",
        "10.0.0.5:5000/nfv-lab/osh-entrypoint:zed-bookworm",
      ]),
    );
    const service = cinder.find((r) => r.name === "osh-cinder-api-service")!;
    expect(service.inputs.spec).toMatchObject({
      type: "NodePort",
      selector: { application: "cinder", component: "api" },
      ports: [{ port: 8776, nodePort: 30877 }],
    });
  });

  it("no password in plain: the configuration and the Jobs' passwords are Secrets, the pods take them by secretKeyRef", async () => {
    const cinder = await deploy();
    const passwords = [ADMIN, ...["db:admin", "oslo_db:cinder", "messaging:admin", "messaging:cinder", "identity:cinder"].map((p) => derivePassword(SEED, p))];
    for (const r of cinder.filter((x) => x.type !== "kubernetes:core/v1:Secret")) {
      const text = JSON.stringify(r.inputs);
      for (const p of passwords) expect(text.includes(p), `${r.name} holds a password in plain`).toBe(false);
    }
    for (const name of ["osh-cinder-etc", "osh-cinder-passwords"])
      expect(isSecretValue(cinder.find((r) => r.name === name)!.inputs.stringData), name).toBe(true);
    const dbInit = podOf(cinder.find((r) => r.name === "osh-cinder-db-init")!).containers[0];
    expect(dbInit.command).toEqual(["python3", "/opt/nfv/db-init.py"]);
    expect(dbInit.env!.filter((e) => e.name.endsWith("PASSWORD"))).toEqual([
      { name: "DB_ADMIN_PASSWORD", valueFrom: { secretKeyRef: { name: "cinder-job-passwords", key: "DB_ADMIN_PASSWORD" } } },
      { name: "DB_PASSWORD", valueFrom: { secretKeyRef: { name: "cinder-job-passwords", key: "DB_PASSWORD" } } },
    ]);
    const jobPasswords = cinder.find((r) => r.name === "osh-cinder-passwords")!;
    expect(secretText(jobPasswords, "DB_PASSWORD")).toBe(derivePassword(SEED, "oslo_db:cinder"));
    expect(secretText(jobPasswords, "OS_PASSWORD")).toBe(ADMIN);
  });

  it("cinder.conf: MariaDB, RabbitMQ and Keystone in the namespace with Cinder's own credentials (the same derivation as the charts'), the NFS driver on the share's mount point", async () => {
    const cinder = await deploy();
    const conf = secretText(
      cinder.find((r) => r.name === "osh-cinder-etc")!,
      "cinder.conf",
    );
    const db = derivePassword(SEED, "oslo_db:cinder");
    expect(conf).toContain(`connection = mysql+pymysql://cinder:${db}@mariadb.openstack.svc.cluster.local/cinder`);
    expect(conf).toContain(`transport_url = rabbit://cinder:${derivePassword(SEED, "messaging:cinder")}@rabbitmq.openstack.svc.cluster.local:5672/cinder`);
    expect(conf).toContain(`password = ${derivePassword(SEED, "identity:cinder")}`);
    expect(conf).toContain("auth_url = http://keystone-api.openstack.svc.cluster.local:5000/v3");
    expect(conf).toMatch(/\[nfs1\]\nvolume_driver = cinder.volume.drivers.nfs.NfsDriver\n/);
    const share = secretText(
      cinder.find((r) => r.name === "osh-cinder-etc")!,
      "nfs_shares",
    ).trim();
    const volume = podOf(cinder.find((r) => r.name === "osh-cinder-volume")!);
    const mounts = (volume.containers[0] as unknown as { volumeMounts: { name: string; mountPath: string }[] }).volumeMounts;
    // os-brick's mount point of a share: <nfs_mount_point_base>/<md5 of the share string>.
    expect(mounts.find((m) => m.name === "volumes")?.mountPath).toBe(`/var/lib/cinder/mnt/${createHash("md5").update(share).digest("hex")}`);
    expect(conf).toContain("nfs_mount_point_base = /var/lib/cinder/mnt");
    expect(volume.volumes?.find((v) => v.name === "volumes")).toEqual({
      name: "volumes",
      hostPath: { path: "/var/lib/openstack-helm/cinder", type: "DirectoryOrCreate" },
    });
    expect(volume.containers[0].securityContext).toEqual({ privileged: true, runAsUser: 0 });
  });

  it("the pods wait for their Jobs (kubernetes-entrypoint), the gate for every Job and a Ready pod of each Deployment", async () => {
    const cinder = await deploy();
    const waits = (name: string) => podOf(cinder.find((r) => r.name === name)!).initContainers?.[0].env?.find((e) => e.name === "DEPENDENCY_JOBS")?.value;
    // Job names alone, as the charts' init containers name them: the pod's own namespace.
    expect(waits("osh-cinder-db-sync")).toBe("cinder-db-init");
    for (const d of ["api", "scheduler", "volume"]) expect(waits(`osh-cinder-${d}`)).toBe("cinder-db-sync,cinder-rabbit-init,cinder-ks");
    const gateEnv = Object.fromEntries(podOf(cinder.find((r) => r.name === "osh-cinder-ready")!).containers[0].env!.map((e) => [e.name, e.value]));
    expect(gateEnv.DEPENDENCY_JOBS).toBe("openstack:cinder-db-init,openstack:cinder-db-sync,openstack:cinder-ks,openstack:cinder-rabbit-init");
    expect(JSON.parse(gateEnv.DEPENDENCY_POD_JSON as string).map((p: { labels: { component: string } }) => p.labels.component)).toEqual([
      "api",
      "scheduler",
      "volume",
    ]);
    for (const r of cinder.filter((x) => x.type.match(/Job|Deployment|Service$/) && x.name !== "osh-cinder-ready"))
      expect((r.inputs.metadata as { annotations?: Record<string, string> }).annotations?.["pulumi.com/skipAwait"], r.name).toBe("true");
  });

  it("the catalog: volumev3 and block-storage, public on the node port, internal and admin in the cluster; the Keystone Job is given it", async () => {
    const cinder = await deploy();
    const inside = "http://cinder-api.openstack.svc.cluster.local:8776/v3/%(project_id)s";
    const catalog = cinderCatalog("openstack", "192.0.2.21");
    expect(catalog.map((c) => [c.name, c.type])).toEqual([
      ["cinderv3", "volumev3"],
      ["cinder", "block-storage"],
    ]);
    expect(catalog[0].endpoints).toEqual({ public: "http://192.0.2.21:30877/v3/%(project_id)s", internal: inside, admin: inside });
    expect(cinderCatalog("openstack", undefined)[0].endpoints.public).toBe(inside);
    const ks = podOf(cinder.find((r) => r.name === "osh-cinder-ks")!).containers[0];
    expect(JSON.parse(ks.env!.find((e) => e.name === "CATALOG")!.value as string)).toEqual(catalog);
  });

  it("needs Keystone and RabbitMQ", () => {
    expect(() => selectServices(["mariadb", "memcached", "keystone", "cinder"])).toThrow("services: 'cinder' needs 'rabbitmq', which is not in the list");
    expect(selectServices([...SERVICES])).toEqual([...SERVICES]);
  });
});

describe("iniFile", () => {
  it("writes sections of typed values, and refuses a line break in a value without printing the value", () => {
    expect(iniFile({ DEFAULT: { a: "x", n: 1, b: true, skipped: undefined }, s: { k: "v" } })).toBe("[DEFAULT]\na = x\nn = 1\nb = true\n\n[s]\nk = v\n");
    expect(() => iniFile({ database: { connection: "mysql://u:se\ncret@h" } })).toThrow(/^INI value of 'connection' in \[database\] holds a line break$/);
    expect(() => iniFile({ "a]\n[b": { k: "v" } })).toThrow("is not a plain name");
    expect(() => iniFile({ s: { "k = v\nx": "v" } })).toThrow("is not a plain name");
  });
});
