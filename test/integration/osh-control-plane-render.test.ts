/**
 * `nfv:openstack:ControlPlane` (issue 26) through the real engine and kubernetes provider, which
 * renders openstack-helm's charts (`../shared/upstream-src`, as upstream ships them) with the
 * component's values, in `renderYamlToDirectory` mode: no cluster. What it proves is what the
 * values make of the charts: every service rendered; every image one that lab/openstack-helm/images
 * builds, from the given registry; the parts switched off absent; one credential, one password
 * across charts; the catalog's public endpoints on the node ports; the secrets secret in the state.
 * Whether the pods run is the real cluster's test (not written yet: lab/openstack-helm/README.md).
 *
 * The render directory holds the rendered Secrets in plain text, as the provider warns it does: it
 * is in a 0700 directory of this test, removed at its end; the admin password and the seed are
 * canaries, looked for in the engine's output, the state and the backend (scanned before removal).
 */
import { readdirSync, readFileSync } from "node:fs";
import * as path from "node:path";
import * as k8s from "@pulumi/kubernetes";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { parseAllDocuments } from "yaml";
import { derivePassword } from "../../components/openstack-control-plane/passwords";
// The package's entry, as a program imports it: it keeps the SDK's debug log free of secrets.
import { CONTROL_PLANE_SERVICES, ControlPlane } from "../../index";
import { derivedPasswords, unpackOpenstackHelm } from "../fixtures/openstack-helm";
import { canary, openLocalStack, outputIsSecretInState, ROOT, type LocalStack } from "./harness";

const REGISTRY = "192.0.2.10:5000";
const PUBLIC_HOST = "192.0.2.21";
const NODE_LABEL = { key: "nfv-openstack", value: "enabled" };

interface K8sObject {
  apiVersion: string;
  kind: string;
  metadata: { name: string; namespace?: string };
  data?: Record<string, string>;
  spec?: Record<string, unknown>;
}
interface PodSpec {
  containers?: { name: string; image: string; env?: { name: string; value?: string }[] }[];
  initContainers?: { name: string; image: string; env?: { name: string; value?: string }[] }[];
  nodeSelector?: Record<string, string>;
}

let osh: ReturnType<typeof unpackOpenstackHelm> | undefined;
let local: LocalStack | undefined;
let objects: K8sObject[] = [];
let upOutput = "";
const adminPassword = canary("control-plane-admin");
const passwordSeed = canary("control-plane-seed");

/** The pod spec of a workload, Job or CronJob; undefined for other kinds. */
function podSpecOf(o: K8sObject): PodSpec | undefined {
  const spec = o.spec as { template?: { spec?: PodSpec }; jobTemplate?: { spec?: { template?: { spec?: PodSpec } } } } | undefined;
  if (o.kind === "Pod") return o.spec as PodSpec;
  return spec?.template?.spec ?? spec?.jobTemplate?.spec?.template?.spec;
}
const find = (kind: string, name: string) => objects.find((o) => o.kind === kind && o.metadata.name === name);
const secretText = (name: string, key: string) => Buffer.from(find("Secret", name)?.data?.[key] ?? "", "base64").toString("utf8");

beforeAll(async () => {
  const unpacked = (osh = unpackOpenstackHelm());
  const out = path.join(unpacked.dir, "rendered");
  local = await openLocalStack({
    stackName: "osh-render",
    program: async () => {
      const provider = new k8s.Provider("render", { renderYamlToDirectory: out });
      const cp = new ControlPlane("osh", {
        vim: { provider },
        charts: unpacked.charts,
        images: { registry: REGISTRY },
        adminPassword,
        passwordSeed,
        publicHost: PUBLIC_HOST,
        nodeSelector: NODE_LABEL,
      });
      return { authUrl: cp.authUrl, vimConfig: cp.vimConfig };
    },
  });
  const result = await local.stack.up({ color: "never", onOutput: (s) => (upOutput += s) });
  expect(result.summary.result).toBe("succeeded");
  const dir = path.join(out, "1-manifest");
  objects = readdirSync(dir).flatMap((f) =>
    parseAllDocuments(readFileSync(path.join(dir, f), "utf8"))
      .map((d) => d.toJS() as K8sObject)
      .filter(Boolean),
  );
}, 900_000);

afterAll(async () => {
  // The destroy deletes the rendered files; the backend is scanned for the secrets before it goes.
  await local?.stack.destroy({ color: "never" }).catch(() => undefined);
  local?.dispose();
  osh?.dispose();
}, 300_000);

/** The images' builder, whose image list and LOCI layout the rendered charts must match. */
const imagesScript = () => readFileSync(path.join(ROOT, "lab/openstack-helm/images"), "utf8");

describe("ControlPlane rendered by the kubernetes provider", () => {
  it("every ConfigMap and Secret a pod mounts is rendered (a missing one keeps the pod in ContainerCreating)", () => {
    const missing = objects.flatMap((o) => {
      const spec = podSpecOf(o) as (PodSpec & { volumes?: { configMap?: { name: string }; secret?: { secretName: string } }[] }) | undefined;
      return (spec?.volumes ?? []).flatMap((v) => [
        ...(v.configMap && !find("ConfigMap", v.configMap.name) ? [`${o.kind}/${o.metadata.name}: ConfigMap ${v.configMap.name}`] : []),
        ...(v.secret && !find("Secret", v.secret.secretName) ? [`${o.kind}/${o.metadata.name}: Secret ${v.secret.secretName}`] : []),
      ]);
    });
    expect(objects.filter((o) => o.kind === "ConfigMap").length).toBeGreaterThan(0);
    expect([...new Set(missing)]).toEqual([]);
  });
  it("every service, Job and pod an init container waits for is rendered (a missing one keeps the pod in Init for good)", () => {
    const podLabels = objects.map(
      (o) => (o.spec as { template?: { metadata?: { labels?: Record<string, string> } } } | undefined)?.template?.metadata?.labels ?? {},
    );
    const hasPod = (labels: Record<string, string>) => podLabels.some((l) => Object.entries(labels).every(([k, v]) => l[k] === v));
    // kubernetes-entrypoint's variables: "ns:name,..." Services, "name,..." Jobs, a JSON list of pod label sets.
    const waits: { what: string; found: boolean }[] = [];
    for (const o of objects)
      for (const c of podSpecOf(o)?.initContainers ?? [])
        for (const { name, value = "" } of c.env ?? []) {
          if (value === "" || value === "None") continue;
          const at = `${o.kind}/${o.metadata.name}`;
          if (name === "DEPENDENCY_SERVICE")
            for (const ns of value.split(",")) waits.push({ what: `${at}: Service ${ns}`, found: !!find("Service", ns.split(":")[1]) });
          if (name === "DEPENDENCY_JOBS") for (const j of value.split(",")) waits.push({ what: `${at}: Job ${j}`, found: !!find("Job", j) });
          if (name === "DEPENDENCY_POD_JSON")
            for (const { labels } of JSON.parse(value) as { labels: Record<string, string> }[])
              waits.push({ what: `${at}: pod ${JSON.stringify(labels)}`, found: hasPod(labels) });
        }
    expect(waits.length).toBeGreaterThan(50);
    expect([...new Set(waits.filter((w) => !w.found).map((w) => w.what))]).toEqual([]);
  });
  it("renders each service's servers: MariaDB, RabbitMQ, memcached, and the six APIs with Nova's and Neutron's agents, Neutron's RPC server and Cinder's scheduler and volume service", () => {
    const workloads = objects.filter((o) => ["Deployment", "StatefulSet", "DaemonSet"].includes(o.kind)).map((o) => `${o.kind}/${o.metadata.name}`);
    expect(workloads.sort()).toEqual(
      [
        "StatefulSet/mariadb-server",
        "StatefulSet/rabbitmq-rabbitmq",
        "StatefulSet/memcached-memcached",
        "Deployment/keystone-api",
        "Deployment/glance-api",
        "Deployment/placement-api",
        "Deployment/nova-api-osapi",
        "Deployment/nova-conductor",
        "Deployment/nova-scheduler",
        "DaemonSet/nova-compute-default",
        "Deployment/neutron-server",
        "Deployment/neutron-rpc-server",
        "DaemonSet/neutron-lb-agent-default",
        "DaemonSet/neutron-dhcp-agent-default",
        "Deployment/cinder-api",
        "Deployment/cinder-scheduler",
        "Deployment/cinder-volume",
      ].sort(),
    );
    expect(CONTROL_PLANE_SERVICES).toHaveLength(9);
    // Keystone's API: two pods, one kept through a drain (a pod heal leaves it answering).
    expect((find("Deployment", "keystone-api")?.spec as { replicas: number }).replicas).toBe(2);
    expect((find("PodDisruptionBudget", "keystone-api")?.spec as { minAvailable: number }).minAvailable).toBe(1);
    expect(objects.every((o) => o.metadata.namespace === undefined || o.metadata.namespace === "openstack")).toBe(true);
  });

  it("every container of every pod, Job and CronJob runs an image of lab/openstack-helm/images from the given registry", () => {
    const built = /^IMAGES=\(([^)]*)\)/m.exec(imagesScript())![1].split(/\s+/).filter(Boolean);
    const images = new Set<string>();
    let containers = 0;
    for (const o of objects) {
      const pod = podSpecOf(o);
      for (const c of [...(pod?.containers ?? []), ...(pod?.initContainers ?? [])]) {
        images.add(c.image);
        containers++;
      }
    }
    expect(containers).toBeGreaterThan(50);
    const expected = new Set(built.map((b) => `${REGISTRY}/nfv-lab/${b}:zed-bookworm`));
    expect([...images].filter((i) => !expected.has(i))).toEqual([]);
    // Every one of ours is used by some chart.
    expect([...expected].filter((i) => !images.has(i))).toEqual([]);
  });

  it("every program the charts run from /var/lib/openstack/bin (LOCI's layout) is one lab/openstack-helm/images links there", () => {
    const linked = /for script in ([^;]*); do/
      .exec(imagesScript())![1]
      .split(/[\s\\]+/)
      .filter(Boolean);
    // Scripts and configurations (root_helper, sudoers) are the ConfigMaps' and Secrets' text.
    const texts = objects.flatMap((o) => {
      const { data, stringData } = o as { data?: Record<string, string>; stringData?: Record<string, string> };
      if (o.kind === "ConfigMap") return Object.values(data ?? {});
      if (o.kind === "Secret") return [...Object.values(data ?? {}).map((b) => Buffer.from(b, "base64").toString("utf8")), ...Object.values(stringData ?? {})];
      return [];
    });
    const named = new Set(texts.flatMap((t) => [...t.matchAll(/\/var\/lib\/openstack\/bin\/([\w.-]+)/g)].map((m) => m[1])));
    // neutron-rootwrap is in Neutron's root_helper and sudoers: the agents' privsep failed without it.
    expect(named).toContain("neutron-rootwrap");
    expect([...named].filter((n) => !linked.includes(n))).toEqual([]);
  });

  it("no script of a ConfigMap puts a password on a command line: Keystone's bootstrap, ks-user, rabbit-init, Nova's cells and MariaDB's upgrade rewritten (secret-rewrites.ts)", () => {
    const scripts = objects
      .filter((o) => o.kind === "ConfigMap")
      .flatMap((o) => Object.entries(o.data ?? {}).map(([key, text]) => ({ at: `${o.metadata.name}/${key}`, text })));
    const onCommandLine = /--(bootstrap-)?password[= ]["$]|\bpassword=["$]|"--password=\{0\}"|--database_connection=|--transport-url="\$\{TRANSPORT_URL\}"/;
    // Scripts some rendered pod mounts (`<ConfigMap>/<key>`): the others are run by parts switched off.
    const mounted = new Set(
      objects.flatMap((o) => {
        const pod = podSpecOf(o) as (PodSpec & { volumes?: { name: string; configMap?: { name: string } }[] }) | undefined;
        const volumes = new Map((pod?.volumes ?? []).flatMap((v) => (v.configMap ? [[v.name, v.configMap.name] as const] : [])));
        const containers = [...(pod?.containers ?? []), ...(pod?.initContainers ?? [])] as { volumeMounts?: { name: string; subPath?: string }[] }[];
        return containers.flatMap((c) =>
          (c.volumeMounts ?? []).filter((m) => volumes.has(m.name) && m.subPath).map((m) => `${volumes.get(m.name)}/${m.subPath}`),
        );
      }),
    );
    const flagged = scripts.filter((s) => onCommandLine.test(s.text)).map((s) => s.at);
    expect(flagged.filter((at) => mounted.has(at))).toEqual([]);
    // RabbitMQ's Helm test and cluster-wait job (both off) keep theirs, in a script nothing runs.
    expect(flagged.filter((at) => !mounted.has(at)).sort()).toEqual([
      "rabbitmq-rabbitmq-bin/rabbitmq-test.sh",
      "rabbitmq-rabbitmq-bin/rabbitmq-wait-for-cluster.sh",
    ]);
    expect(mounted.has("keystone-bin/db-sync.sh") && mounted.has("glance-bin/rabbit-init.sh")).toBe(true);
    expect(find("ConfigMap", "keystone-bin")?.data?.["db-sync.sh"]).toContain('export OS_BOOTSTRAP_PASSWORD="${OS_PASSWORD}"');
    expect(find("ConfigMap", "mariadb-bin")?.data?.["start.py"]).toContain("os.environ['MYSQL_PWD'] = mysql_dbadmin_password");
    const named = (key: string) => scripts.filter((s) => s.at.endsWith(`/${key}`));
    expect(
      named("ks-user.sh")
        .map((s) => s.at)
        .sort(),
    ).toEqual(["glance-bin/ks-user.sh", "keystone-bin/ks-user.sh", "neutron-bin/ks-user.sh", "nova-bin/ks-user.sh", "placement-bin/ks-user.sh"]);
    for (const s of named("ks-user.sh")) expect(s.text, s.at).toContain('password=os.environ["SERVICE_OS_PASSWORD"]');
    const rabbitUser = readFileSync(path.join(ROOT, "mgmt/openstack/rabbit-user.py"), "utf8");
    expect(
      named("rabbit-init.sh")
        .map((s) => s.at)
        .sort(),
    ).toEqual(["glance-bin/rabbit-init.sh", "keystone-bin/rabbit-init.sh", "neutron-bin/rabbit-init.sh", "nova-bin/rabbit-init.sh"]);
    for (const s of named("rabbit-init.sh")) expect(s.text, s.at).toBe(rabbitUser);
  });

  it("switched off: no Ingress, no Helm test pod, no PVC, no console proxy, no Open vSwitch agent, no MariaDB controller, no RabbitMQ cluster wait", () => {
    expect(objects.filter((o) => ["Ingress", "PersistentVolumeClaim", "Pod"].includes(o.kind)).map((o) => o.metadata.name)).toEqual([]);
    const names = objects.map((o) => o.metadata.name);
    for (const absent of [
      "nova-novncproxy",
      "nova-spiceproxy",
      "neutron-ovs-agent-default",
      "neutron-l3-agent-default",
      "mariadb-controller",
      "rabbitmq-cluster-wait",
    ])
      expect(names, absent).not.toContain(absent);
  });

  it("Pulumi waits on none of the charts' objects but on one gate per chart: a Job waiting for the chart's Jobs and a Ready pod of each of its workloads", () => {
    const annotations = (o: K8sObject) => (o.metadata as { annotations?: Record<string, string> }).annotations ?? {};
    const env = (o: K8sObject) =>
      Object.fromEntries((podSpecOf(o)?.containers?.[0].env ?? []).map((e) => [e.name, e.value])) as Record<string, string | undefined>;
    const isGate = (o: K8sObject) => o.kind === "Job" && podSpecOf(o)?.containers?.[0].name === "wait" && env(o).DEPENDENCY_POD_JSON !== undefined;
    const gates = objects.filter(isGate);
    expect(gates).toHaveLength(CONTROL_PLANE_SERVICES.length);
    const waiting = objects.filter((o) => ["Job", "Deployment", "StatefulSet", "DaemonSet", "Service"].includes(o.kind) && !isGate(o));
    expect(waiting.filter((o) => annotations(o)["pulumi.com/skipAwait"] !== "true").map((o) => `${o.kind}/${o.metadata.name}`)).toEqual([]);
    // Glance's gate: every Job of the chart, and the API's pod by the Deployment's own selector.
    const chartJobs = objects.filter((o) => o.kind === "Job" && !isGate(o) && o.metadata.name.startsWith("glance-")).map((o) => `openstack:${o.metadata.name}`);
    expect(chartJobs).toContain("openstack:glance-db-sync");
    const api = find("Deployment", "glance-api")!;
    const glanceGate = gates.find((g) => (env(g).DEPENDENCY_JOBS ?? "").includes("openstack:glance-db-sync"))!;
    expect((env(glanceGate).DEPENDENCY_JOBS ?? "").split(",").sort()).toEqual(chartJobs.sort());
    expect(JSON.parse(env(glanceGate).DEPENDENCY_POD_JSON!)).toEqual([
      { namespace: "openstack", labels: (api.spec as { selector: { matchLabels: Record<string, string> } }).selector.matchLabels, requireSameNode: false },
    ]);
  });

  it("every pod on the nodes of the given label", () => {
    const selectors = objects.map(podSpecOf).filter((p): p is PodSpec => p !== undefined);
    expect(selectors.length).toBeGreaterThan(20);
    expect(selectors.filter((p) => JSON.stringify(p.nodeSelector) !== JSON.stringify({ [NODE_LABEL.key]: NODE_LABEL.value }))).toEqual([]);
  });

  it("one credential, one password: MariaDB's root in every service's database secret, Neutron's Keystone user in Nova's configuration", () => {
    const root = derivePassword(passwordSeed, "db:admin");
    // Compared as booleans: a failing match must not print the secret it looked in.
    expect(secretText("mariadb-dbadmin-password", "MYSQL_DBADMIN_PASSWORD") === root).toBe(true);
    for (const s of ["keystone", "glance", "placement", "nova", "neutron"])
      expect(secretText(`${s}-db-admin`, "DB_CONNECTION").includes(`:${root}@`), s).toBe(true);
    const neutron = derivePassword(passwordSeed, "identity:neutron");
    expect(secretText("neutron-keystone-user", "OS_PASSWORD") === neutron).toBe(true);
    expect(secretText("nova-ks-etc", "nova_neutron.conf").includes(`password = ${neutron}`)).toBe(true);
    expect(secretText("keystone-keystone-admin", "OS_PASSWORD") === adminPassword).toBe(true);
  });

  it("no password outside a Secret: no Job's or pod's env value, no ConfigMap holds the admin password or a derived one", () => {
    const passwords = [adminPassword, ...derivedPasswords(passwordSeed).map((d) => d.password)];
    // Named by object only: a failing match must not print the secret it found.
    const holding = objects
      .filter((o) => o.kind !== "Secret" && passwords.some((p) => JSON.stringify(o).includes(p)))
      .map((o) => `${o.kind}/${o.metadata.name}`);
    expect(holding).toEqual([]);
    // The search can find them: they are in the Secrets' decoded data.
    const inSecrets = objects.filter(
      (o) => o.kind === "Secret" && Object.values(o.data ?? {}).some((v) => passwords.some((p) => Buffer.from(v, "base64").toString("utf8").includes(p))),
    );
    expect(inSecrets.length).toBeGreaterThan(20);
  });

  it("no upstream default password is left in any Secret (the charts' 'password')", () => {
    const defaults: string[] = [];
    for (const o of objects.filter((x) => x.kind === "Secret"))
      for (const [key, value] of Object.entries(o.data ?? {})) {
        const text = Buffer.from(value, "base64").toString("utf8");
        if (text === "password" || /^(?!auth_type)\w+\s*=\s*password\s*$/m.test(text) || /:password@/.test(text)) defaults.push(`${o.metadata.name}/${key}`);
      }
    expect(defaults).toEqual([]);
  });

  it("the catalog's public endpoints are the node ports of the public host; Nova runs the fake driver", () => {
    const dbSync = find("Job", "keystone-db-sync");
    const env = podSpecOf(dbSync!)!.containers!.flatMap((c) => c.env ?? []);
    expect(env.find((e) => e.name === "OS_BOOTSTRAP_PUBLIC_URL")?.value).toBe(`http://${PUBLIC_HOST}:30500/v3`);
    const services = objects.filter((o) => o.kind === "Service" && (o.spec as { type?: string }).type === "NodePort");
    expect(services.map((s) => s.metadata.name).sort()).toEqual(["cinder-api", "glance-api", "keystone-api", "neutron-server", "nova-api", "placement-api"]);
    expect(secretText("nova-etc", "nova.conf").includes("compute_driver = fake.FakeDriver")).toBe(true);
  });

  it("outputs a Tacker vim-config.yaml for Keystone's admin, secret in the state; no password in the engine's output", async () => {
    const outputs = await local!.stack.outputs();
    expect(outputs.authUrl.value).toBe(`http://${PUBLIC_HOST}:30500/v3`);
    expect(outputs.vimConfig.secret).toBe(true);
    expect(outputs.vimConfig.value).toContain(`auth_url: http://${PUBLIC_HOST}:30500/v3`);
    expect(await outputIsSecretInState(local!.stack, "vimConfig")).toBe(true);
    expect(upOutput).not.toContain(adminPassword);
    expect(upOutput).not.toContain(derivePassword(passwordSeed, "db:admin"));
  });
});
