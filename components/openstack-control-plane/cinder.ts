/**
 * Cinder, the block storage API, on the control plane. openstack-helm at the commit we deploy has
 * no cinder chart, and a VNF whose VDU boots from a volume (helloworld3's VDU2) needs one, so the
 * control plane runs Debian's Cinder (`osh-cinder` of lab/openstack-helm/images) as Kubernetes
 * objects of our own, in the charts' manner: Jobs make its database, its RabbitMQ user and its
 * Keystone user and catalog entries, then the API, the scheduler and the volume service start, each
 * pod's kubernetes-entrypoint init container waiting for the Jobs it needs. Pulumi waits on none of
 * them but on a gate (readiness.ts), as for a chart.
 *
 * The volume backend is Cinder's NFS driver on a directory of the node, as the lab OpenStack's is
 * on a bind mount (the kernel has no device-mapper: no LVM, no iSCSI target). os-brick takes a share
 * as mounted when its mount point is in /proc/mounts, which a hostPath volume there is, so nothing
 * is mounted; volumes are sparse files that outlive the pod on that node.
 *
 * Every value reaches the pods as data: the configuration is a Secret written from typed sections
 * (ini.ts), the Jobs' scripts (mgmt/openstack) are fixed files reading their environment, and every
 * password is a `secretKeyRef`, never on a command line.
 */
import { createHash } from "node:crypto";
import { readFileSync } from "node:fs";
import * as path from "node:path";
import * as k8s from "@pulumi/kubernetes";
import * as pulumi from "@pulumi/pulumi";
import type { ValuesContext } from "./chart-values";
import { PUBLIC_APIS } from "./chart-values";
import { iniFile } from "./ini";
import { imageRef } from "./images";
import { GATE_ACCOUNT, objectsGate, SKIP_AWAIT, type ChartObject, type GateSettings } from "./readiness";

/** The Jobs' scripts, `mgmt/openstack`: beside the sources, and in `dist/` (tools/copy-host-scripts.mjs). */
export const SCRIPTS_DIR = path.join(__dirname, "../../mgmt/openstack");
const SCRIPTS = ["db-init.py", "rabbit-user.py", "keystone-service.py"];

/** Cinder's API port in its pods and Service (Cinder's own default). */
const API_PORT = 8776;
/** The NFS share Cinder is told of: only its md5 matters, as the directory os-brick expects it mounted on. */
const SHARE = "node-local:/cinder";
const MOUNT_BASE = "/var/lib/cinder/mnt";
/** The node's directory of the volumes (beside MariaDB's and RabbitMQ's, chart-values.ts nodeVolume). */
const NODE_DIR = "/var/lib/openstack-helm/cinder";
/**
 * The service host of every Cinder process: volumes belong to `cinder@nfs1`, so a volume service
 * whose pod is re-created (another pod name) still owns them.
 */
const SERVICE_HOST = "cinder";
/** LOCI's uid of the service users, which the image's files belong to. */
const SERVICE_UID = 42424;

export interface CinderSettings {
  namespace: string;
  /** Keystone's region (the VIM's). */
  region: string;
  ctx: ValuesContext;
  /** Replaces the default `openstack-control-plane=enabled`, as for the charts. */
  nodeSelector?: Record<string, string>;
  gate: GateSettings;
}

/** What the control plane keeps of Cinder: the gate the VIM and later services wait for. */
export interface CinderObjects {
  gate: k8s.batch.v1.Job;
}

/** The in-cluster URL of a service of the namespace. */
const internal = (namespace: string, host: string, port: number, rest = "") => `http://${host}.${namespace}.svc.cluster.local:${port}${rest}`;

/**
 * Cinder's RabbitMQ URLs, as the charts' `oslo_messaging` Secrets hold theirs: the service's
 * transport, and the management API with the RabbitMQ chart's administrator (`rabbitmq`,
 * chart-values.ts, messaging:admin). The passwords are base64url (passwords.ts): nothing to escape.
 */
function rabbitUrls(namespace: string, password: ValuesContext["password"]): { user: pulumi.Output<string>; admin: pulumi.Output<string> } {
  const host = `rabbitmq.${namespace}.svc.cluster.local`;
  return {
    user: pulumi.interpolate`rabbit://cinder:${password("messaging:cinder")}@${host}:5672/cinder`,
    admin: pulumi.interpolate`http://rabbitmq:${password("messaging:admin")}@${host}:15672`,
  };
}

/** The mount point os-brick expects the share on: `<base>/<md5 of the share>`. */
export function shareMountPoint(): string {
  return `${MOUNT_BASE}/${createHash("md5").update(SHARE).digest("hex")}`;
}

/** cinder.conf, with every password in it: a secret. */
export function cinderConf(s: Pick<CinderSettings, "namespace" | "region" | "ctx">): pulumi.Output<string> {
  const ns = s.namespace;
  const keystone = internal(ns, "keystone-api", 5000, "/v3");
  const p = s.ctx.password;
  return pulumi.secret(
    pulumi.all([p("oslo_db:cinder"), rabbitUrls(ns, p).user, p("identity:cinder")]).apply(([db, transportUrl, identity]) => {
      const serviceAuth = {
        auth_type: "password",
        auth_url: keystone,
        username: "cinder",
        password: identity,
        project_name: "service",
        user_domain_name: "service",
        project_domain_name: "service",
        region_name: s.region,
      };
      return iniFile({
        DEFAULT: {
          host: SERVICE_HOST,
          transport_url: transportUrl,
          auth_strategy: "keystone",
          osapi_volume_listen_port: API_PORT,
          osapi_volume_workers: 1,
          state_path: "/var/lib/cinder",
          enabled_backends: "nfs1",
          // Glance and Nova through the catalog's in-cluster endpoints, not the public node ports.
          glance_catalog_info: "image:glance:internalURL",
        },
        database: { connection: `mysql+pymysql://cinder:${db}@mariadb.${ns}.svc.cluster.local/cinder` },
        keystone_authtoken: { ...serviceAuth, www_authenticate_uri: keystone, service_token_roles_required: true },
        nova: { ...serviceAuth, interface: "internal" },
        oslo_concurrency: { lock_path: "/var/lib/cinder/tmp" },
        nfs1: {
          volume_driver: "cinder.volume.drivers.nfs.NfsDriver",
          volume_backend_name: "nfs1",
          nfs_shares_config: "/etc/cinder/nfs_shares",
          nfs_mount_point_base: MOUNT_BASE,
          nfs_sparsed_volumes: true,
          nas_secure_file_permissions: false,
          nas_secure_file_operations: false,
        },
      });
    }),
  );
}

/**
 * The catalog entries Cinder registers (as the lab OpenStack's: `volumev3` and `block-storage`);
 * the public endpoint is the node port on `publicHost`, without one the in-cluster URL.
 */
export function cinderCatalog(namespace: string, publicHost: string | undefined): { name: string; type: string; endpoints: Record<string, string> }[] {
  const inside = internal(namespace, "cinder-api", API_PORT, "/v3/%(project_id)s");
  const outside = publicHost === undefined ? inside : `http://${publicHost}:${PUBLIC_APIS.volumev3.nodePort}/v3/%(project_id)s`;
  const endpoints = { public: outside, internal: inside, admin: inside };
  return [
    { name: "cinderv3", type: "volumev3", endpoints },
    { name: "cinder", type: "block-storage", endpoints },
  ];
}

/** Cinder's objects in the control plane's namespace; `opts` carries the parent, provider and what it waits for. */
export function deployCinder(name: string, s: CinderSettings, opts: pulumi.CustomResourceOptions): CinderObjects {
  const ns = s.namespace;
  const ctx = s.ctx;
  const child = (suffix: string) => `${name}-${suffix}`;
  const nodeSelector = s.nodeSelector ?? { "openstack-control-plane": "enabled" };
  const labels = (component: string) => ({ application: "cinder", component });
  const image = (i: string) => imageRef(ctx.images, i);
  const meta = (objectName: string, component: string) => ({ name: objectName, namespace: ns, labels: labels(component) });

  const etc = new k8s.core.v1.Secret(
    child("etc"),
    { metadata: meta("cinder-etc", "config"), stringData: { "cinder.conf": cinderConf(s), nfs_shares: `${SHARE}\n` } },
    opts,
  );
  const bin = new k8s.core.v1.ConfigMap(
    child("bin"),
    { metadata: meta("cinder-bin", "config"), data: Object.fromEntries(SCRIPTS.map((f) => [f, readFileSync(path.join(SCRIPTS_DIR, f), "utf8")])) },
    opts,
  );
  const rabbit = rabbitUrls(ns, ctx.password);
  const passwords = new k8s.core.v1.Secret(
    child("passwords"),
    {
      metadata: meta("cinder-job-passwords", "config"),
      stringData: {
        DB_ADMIN_PASSWORD: ctx.password("db:admin"),
        DB_PASSWORD: ctx.password("oslo_db:cinder"),
        RABBITMQ_ADMIN_CONNECTION: rabbit.admin,
        RABBITMQ_USER_CONNECTION: rabbit.user,
        OS_PASSWORD: ctx.adminPassword,
        SERVICE_PASSWORD: ctx.password("identity:cinder"),
      },
    },
    opts,
  );
  const secretEnv = (...keys: string[]) => keys.map((key) => ({ name: key, valueFrom: { secretKeyRef: { name: "cinder-job-passwords", key } } }));
  const configured = [etc, bin, passwords];

  /** An init container of kubernetes-entrypoint waiting for these Jobs of the namespace. */
  const waitFor = (jobs: string[]) => ({
    name: "init",
    image: image("osh-entrypoint"),
    command: ["kubernetes-entrypoint"],
    env: [
      { name: "NAMESPACE", valueFrom: { fieldRef: { fieldPath: "metadata.namespace" } } },
      { name: "POD_NAME", valueFrom: { fieldRef: { fieldPath: "metadata.name" } } },
      // The pod's own namespace, as the charts name their Jobs.
      { name: "DEPENDENCY_JOBS", value: jobs.join(",") },
    ],
  });
  const scriptJob = (jobName: string, script: string, env: k8s.types.input.core.v1.EnvVar[]) =>
    jobObject(jobName, {
      containers: [
        {
          name: "run",
          image: image("osh-openstack-client"),
          command: ["python3", `/opt/nfv/${script}`],
          env,
          volumeMounts: [{ name: "bin", mountPath: `/opt/nfv/${script}`, subPath: script, readOnly: true }],
        },
      ],
      volumes: [{ name: "bin", configMap: { name: "cinder-bin" } }],
    });
  const jobObject = (jobName: string, pod: k8s.types.input.core.v1.PodSpec): ChartObject & { spec: k8s.types.input.batch.v1.JobSpec } => ({
    kind: "Job",
    name: jobName,
    spec: {
      backoffLimit: 20,
      template: {
        metadata: { labels: labels(jobName.replace(/^cinder-/, "")) },
        spec: { ...pod, restartPolicy: "OnFailure", serviceAccountName: GATE_ACCOUNT, nodeSelector },
      },
    },
  });

  const jobs = [
    scriptJob("cinder-db-init", "db-init.py", [
      { name: "DB_HOST", value: `mariadb.${ns}.svc.cluster.local` },
      { name: "DB_NAME", value: "cinder" },
      { name: "DB_USER", value: "cinder" },
      ...secretEnv("DB_ADMIN_PASSWORD", "DB_PASSWORD"),
    ]),
    scriptJob("cinder-rabbit-init", "rabbit-user.py", secretEnv("RABBITMQ_ADMIN_CONNECTION", "RABBITMQ_USER_CONNECTION")),
    scriptJob("cinder-ks", "keystone-service.py", [
      { name: "OS_AUTH_URL", value: internal(ns, "keystone-api", 5000, "/v3") },
      { name: "OS_USERNAME", value: "admin" },
      { name: "OS_PROJECT_NAME", value: "admin" },
      { name: "OS_USER_DOMAIN_NAME", value: "Default" },
      { name: "OS_PROJECT_DOMAIN_NAME", value: "Default" },
      { name: "OS_REGION_NAME", value: s.region },
      { name: "OS_INTERFACE", value: "internal" },
      { name: "OS_IDENTITY_API_VERSION", value: "3" },
      { name: "SERVICE_USER", value: "cinder" },
      { name: "SERVICE_DOMAIN", value: "service" },
      { name: "SERVICE_PROJECT", value: "service" },
      // As openstack-helm's service users: `service` for the service tokens Cinder requires.
      { name: "SERVICE_ROLES", value: "admin,service" },
      { name: "CATALOG", value: pulumi.output(ctx.publicHost).apply((h) => JSON.stringify(cinderCatalog(ns, h))) },
      ...secretEnv("OS_PASSWORD", "SERVICE_PASSWORD"),
    ]),
  ];

  const conf = { name: "etc", mountPath: "/etc/cinder/cinder.conf", subPath: "cinder.conf", readOnly: true };
  const confVolume = { name: "etc", secret: { secretName: "cinder-etc", defaultMode: 0o440 } };
  /** A container of Cinder running `command` with its configuration. */
  const cinderContainer = (command: string[], extra: Partial<k8s.types.input.core.v1.Container> = {}) => ({
    name: "cinder",
    image: image("osh-cinder"),
    command,
    ...extra,
    volumeMounts: [conf, ...((extra.volumeMounts as k8s.types.input.core.v1.VolumeMount[] | undefined) ?? [])],
  });
  jobs.push(
    jobObject("cinder-db-sync", {
      initContainers: [waitFor(["cinder-db-init"])],
      containers: [cinderContainer(["cinder-manage", "--config-file", "/etc/cinder/cinder.conf", "db", "sync"])],
      volumes: [confVolume],
      securityContext: { runAsUser: SERVICE_UID, fsGroup: SERVICE_UID },
    }),
  );
  const ready = ["cinder-db-sync", "cinder-rabbit-init", "cinder-ks"];

  const deployment = (component: string, pod: k8s.types.input.core.v1.PodSpec): ChartObject & { spec: k8s.types.input.apps.v1.DeploymentSpec } => ({
    kind: "Deployment",
    name: `cinder-${component}`,
    spec: {
      replicas: 1,
      // One volume service owns `cinder@nfs1` and the node's directory: never two at once.
      strategy: component === "volume" ? { type: "Recreate" } : undefined,
      selector: { matchLabels: labels(component) },
      template: {
        metadata: { labels: labels(component) },
        spec: { serviceAccountName: GATE_ACCOUNT, nodeSelector, initContainers: [waitFor(ready)], ...pod },
      },
    },
  });
  const asService = { securityContext: { runAsUser: SERVICE_UID, fsGroup: SERVICE_UID } };
  const workloads = [
    deployment("api", {
      ...asService,
      containers: [
        cinderContainer(["cinder-api", "--config-file", "/etc/cinder/cinder.conf"], {
          ports: [{ name: "api", containerPort: API_PORT }],
          // The version document (300 Multiple Choices: a success for Kubernetes) without a token.
          readinessProbe: { httpGet: { path: "/", port: API_PORT }, periodSeconds: 15, timeoutSeconds: 10 },
        }),
      ],
      volumes: [confVolume],
    }),
    deployment("scheduler", {
      ...asService,
      containers: [cinderContainer(["cinder-scheduler", "--config-file", "/etc/cinder/cinder.conf"])],
      volumes: [confVolume],
    }),
    // Root and privileged, as openstack-helm's volume service: the NFS driver runs stat, truncate
    // and qemu-img through cinder-rootwrap under sudo, and its privsep helper keeps capabilities.
    deployment("volume", {
      containers: [
        cinderContainer(["cinder-volume", "--config-file", "/etc/cinder/cinder.conf"], {
          securityContext: { privileged: true, runAsUser: 0 },
          volumeMounts: [
            { name: "shares", mountPath: "/etc/cinder/nfs_shares", subPath: "nfs_shares", readOnly: true },
            { name: "volumes", mountPath: shareMountPoint() },
          ],
        }),
      ],
      volumes: [
        confVolume,
        { name: "shares", secret: { secretName: "cinder-etc", items: [{ key: "nfs_shares", path: "nfs_shares" }] } },
        { name: "volumes", hostPath: { path: NODE_DIR, type: "DirectoryOrCreate" } },
      ],
    }),
  ];

  // Each object after the configuration, which comes after `opts`' own dependencies (the gates of
  // Keystone and RabbitMQ): Pulumi's order is transitive. Annotated as the charts' skipAwait
  // transform annotates theirs (a transform here would be refused by the unit tests' mock monitor).
  const created: pulumi.Resource[] = [...configured];
  /** `<name>-db-sync` for the object `cinder-db-sync`. */
  const own = (objectName: string) => child(objectName.replace(/^cinder-/, ""));
  for (const j of jobs)
    created.push(
      new k8s.batch.v1.Job(own(j.name), { metadata: { ...meta(j.name, "job"), annotations: SKIP_AWAIT }, spec: j.spec }, { ...opts, dependsOn: configured }),
    );
  for (const w of workloads)
    created.push(
      new k8s.apps.v1.Deployment(
        own(w.name),
        { metadata: { ...meta(w.name, w.name.replace(/^cinder-/, "")), annotations: SKIP_AWAIT }, spec: w.spec },
        { ...opts, dependsOn: configured },
      ),
    );
  created.push(
    new k8s.core.v1.Service(
      child("api-service"),
      {
        metadata: { ...meta("cinder-api", "api"), annotations: SKIP_AWAIT },
        spec: {
          type: ctx.publicHost === undefined ? "ClusterIP" : "NodePort",
          selector: labels("api"),
          ports: [{ name: "api", port: API_PORT, targetPort: API_PORT, ...(ctx.publicHost === undefined ? {} : { nodePort: PUBLIC_APIS.volumev3.nodePort }) }],
        },
      },
      opts,
    ),
  );
  return { gate: objectsGate(child("ready"), [...jobs, ...workloads], created, s.gate, opts) };
}
