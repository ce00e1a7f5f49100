/**
 * The values each openstack-helm chart is deployed with: our images, the credentials, the public
 * endpoints, the parts of the chart switched off, and the few settings of a lab-sized control plane
 * (Nova's fake driver, Neutron on Linux bridges, Glance on the node's disk). Values only: the charts
 * are deployed as upstream wrote them.
 */
import type * as pulumi from "@pulumi/pulumi";
import { isLabelValue, LABEL_VALUE_RULE } from "../../translators/kubernetes/labels";
import { imageTags, type ImageSource } from "./images";
import type { Service } from "./services";

/** The parts of a chart's own `values.yaml` its values are derived from. */
export interface ChartDefaults {
  images?: { tags?: Record<string, string> };
  labels?: Record<string, unknown>;
  endpoints?: Record<string, unknown>;
  manifests?: Record<string, unknown>;
}

/** What every chart's values are made from. */
export interface ValuesContext {
  images: ImageSource;
  /** Keystone's `admin` password (the VIM's). */
  adminPassword: pulumi.Input<string>;
  /** Every other password, by purpose (`identity:nova`, `db:admin`, ...): see `passwords.ts`. */
  password: (purpose: string) => pulumi.Output<string>;
  /** Replaces the charts' node selectors (`openstack-control-plane=enabled`, ...) everywhere. */
  nodeSelector?: { key: string; value: string };
  /** Address of a node, for the public endpoints of the catalog (node ports). */
  publicHost?: pulumi.Input<string>;
  /** The storage class of MariaDB's and RabbitMQ's volumes; without one, their data is a directory of the server's node. */
  storageClass?: string;
}

/**
 * The node port of each public API, the charts' own defaults, and the chart and `network` key of
 * the Service that exposes it.
 */
export const PUBLIC_APIS: Record<string, { service: Service; network: string; nodePort: number }> = {
  identity: { service: "keystone", network: "api", nodePort: 30500 },
  image: { service: "glance", network: "api", nodePort: 30092 },
  placement: { service: "placement", network: "api", nodePort: 30778 },
  compute: { service: "nova", network: "osapi", nodePort: 30774 },
  network: { service: "neutron", network: "server", nodePort: 30096 },
  // No chart: cinder.ts makes its node port (openstack-helm's cinder chart's own).
  volumev3: { service: "cinder", network: "api", nodePort: 30877 },
};

/**
 * Manifests switched off in every chart that has them: ingresses (no ingress controller: the APIs
 * are node ports), Helm tests, network policies, the image sync job (the images are in the
 * registry), and the bootstrap jobs, which create flavors, images and networks (the stack creates
 * its own; Keystone's is a Helm hook whatever `helm3_hook` says, which a `helm.v4.Chart` skips).
 */
const OFF_EVERYWHERE = [
  "ingress",
  "ingress_api",
  "ingress_server",
  "ingress_osapi",
  "ingress_metadata",
  "ingress_novncproxy",
  "ingress_serialproxy",
  "ingress_spiceproxy",
  "ingress_management",
  "service_ingress",
  "service_ingress_api",
  "service_ingress_server",
  "service_ingress_osapi",
  "service_ingress_metadata",
  "service_ingress_novncproxy",
  "service_ingress_serialproxy",
  "service_ingress_spiceproxy",
  "service_ingress_management",
  "secret_ingress_tls",
  "pod_rally_test",
  "pod_test",
  "network_policy",
  "job_image_repo_sync",
  "job_bootstrap",
];

/** Manifests switched off in one chart, and why. */
const OFF_IN: Partial<Record<Service, string[]>> = {
  // The controller and the cluster-wait job use pykube, which Debian does not package; one server
  // needs neither (they keep a Galera cluster's primary).
  mariadb: ["deployment_controller", "job_cluster_wait"],
  // One server: its cluster-wait job has no cluster to wait for, and it carries RabbitMQ's admin
  // password as a plain env value (in the Job's spec, and so the state) onto rabbitmqadmin's
  // command line (seen by the canary scan on the real cluster, 2026-12-06). Only the Helm tests,
  // off, wait for it.
  rabbitmq: ["job_cluster_wait"],
  // Keystone sends no notifications here (noop driver below); its domain and credential cleanup
  // jobs are Helm hooks whatever `helm3_hook` says.
  keystone: ["job_rabbit_init", "job_domain_manage", "job_credential_cleanup"],
  // Images on the node's disk: no PVC, no storage or clean job (they are for Ceph and Swift, in a
  // Ceph image), no metadata definitions (a Helm hook).
  glance: ["pvc_images", "job_storage_init", "job_clean", "job_metadefs_load"],
  // The fake driver has no consoles and no Ceph; the metadata API serves VMs that do not run.
  nova: [
    "deployment_novncproxy",
    "deployment_serialproxy",
    "deployment_spiceproxy",
    "service_novncproxy",
    "service_serialproxy",
    "service_spiceproxy",
    "deployment_api_metadata",
    "service_metadata",
    "pdb_metadata",
    "job_storage_init",
    "cron_job_service_cleaner",
  ],
  // Linux bridge agents and DHCP only: no Open vSwitch, SR-IOV, L3 or metadata agents. The RPC
  // server stays: neutron-server here is uWSGI serving the API alone, and without it the agents'
  // reports time out (seen on the real cluster, 2026-12-06).
  neutron: ["daemonset_ovs_agent", "daemonset_sriov_agent", "daemonset_l3_agent", "daemonset_metadata_agent", "daemonset_netns_cleanup_cron"],
};

/**
 * RabbitMQ's probes each run `rabbitmqctl ping`, which boots an Erlang VM; the chart runs both
 * every 10 s with 10 s to answer, and on the real cluster, under the load of the other charts'
 * jobs, the liveness probe timed out and restarted the server twice in about ten minutes.
 */
const RABBITMQ_PROBES = {
  rabbitmq: {
    rabbitmq: {
      readiness: { params: { periodSeconds: 30, timeoutSeconds: 30 } },
      liveness: { params: { periodSeconds: 120, timeoutSeconds: 60, failureThreshold: 5 } },
    },
  },
};

/**
 * MariaDB's or RabbitMQ's data on its node (the charts' host path for one server), not the pod's
 * emptyDir: a server's pod re-created lost every database, or every RabbitMQ user the charts'
 * rabbit-init jobs had made, and every service with them.
 */
function nodeVolume(service: "mariadb" | "rabbitmq"): Record<string, unknown> {
  const local = { enabled: true, host_path: `/var/lib/openstack-helm/${service}` };
  return { enabled: false, ...(service === "mariadb" ? { use_local_path_for_single_pod_cluster: local } : { use_local_path: local }) };
}

/** The settings of one chart beyond credentials, images and manifests. */
function settings(service: Service, ctx: ValuesContext): Record<string, unknown> {
  // Nova's and Neutron's metadata proxy share a secret (the charts' default is "password").
  const metadataSecret = () => ctx.password("metadata-proxy");
  switch (service) {
    // One server each: the controller that keeps a Galera cluster's primary is off (OFF_IN), and
    // RabbitMQ's second server would double its memory for no service a lab needs.
    case "mariadb":
    case "rabbitmq":
      return {
        pod: { replicas: { server: 1 }, ...(service === "rabbitmq" ? { probes: RABBITMQ_PROBES } : {}) },
        volume: ctx.storageClass === undefined ? nodeVolume(service) : { enabled: true, class_name: ctx.storageClass },
      };
    case "keystone":
      return {
        // Two API pods, at least one kept through a drain: every client of the VIM (Pulumi's
        // provider, Tacker's VIM check) authenticates here first, and a heal of one pod must not
        // stop it answering (on the real cluster a new pod took about 2 min to be Ready).
        pod: { replicas: { api: 2 }, lifecycle: { disruption_budget: { api: { min_available: 1 } } } },
        conf: { keystone: { oslo_messaging_notifications: { driver: "noop" } } },
      };
    case "glance":
      return {
        storage: "local",
        // The API's jobs without the storage job switched off above.
        dependencies: { static: { api: { jobs: ["glance-db-sync", "glance-rabbit-init", "glance-ks-user", "glance-ks-endpoints"] } } },
      };
    case "nova":
      return {
        network: { backend: ["linuxbridge"] },
        // The compute waits for no libvirt pod (the fake driver has none) and no metadata API
        // (switched off above); the chart's list kept it in Init for good (seen on the real cluster).
        dependencies: {
          static: { compute: { pod: [], services: ["oslo_messaging", "image", "compute", "network"].map((service) => ({ endpoint: "internal", service })) } },
        },
        conf: {
          ceph: { enabled: false },
          nova: {
            DEFAULT: { compute_driver: "fake.FakeDriver", vif_plugging_is_fatal: false, vif_plugging_timeout: 0 },
            neutron: { metadata_proxy_shared_secret: metadataSecret() },
          },
        },
      };
    case "neutron":
      return {
        network: { backend: ["linuxbridge"] },
        conf: {
          // Debian's Neutron refuses to start the Linux bridge driver unless it is named
          // experimental (as the lab OpenStack's neutron.conf does).
          neutron: { DEFAULT: { interface_driver: "linuxbridge" }, experimental: { linuxbridge: true } },
          metadata_agent: { DEFAULT: { metadata_proxy_shared_secret: metadataSecret() } },
          plugins: {
            ml2_conf: { ml2: { mechanism_drivers: "linuxbridge,l2population", type_drivers: "flat,vlan,vxlan", tenant_network_types: "vxlan" } },
          },
        },
      };
    default:
      return {};
  }
}

/** The values of one service's chart. */
export function chartValues(service: Service, defaults: ChartDefaults, ctx: ValuesContext): Record<string, unknown> {
  const values: Record<string, unknown> = {
    // Jobs as plain objects, which Pulumi creates (and the chart's gate waits for); as Helm hooks they would be skipped.
    helm3_hook: false,
    images: { tags: imageTags(defaults.images?.tags ?? {}, ctx.images), pull_policy: "IfNotPresent" },
    endpoints: endpointValues(service, defaults.endpoints ?? {}, ctx),
    manifests: manifestsOff(service, defaults.manifests ?? {}),
  };
  if (ctx.nodeSelector) values.labels = withNodeSelector(defaults.labels ?? {}, ctx.nodeSelector);
  const own = settings(service, ctx);
  const network = ctx.publicHost === undefined ? undefined : nodePortValues(service);
  return { ...values, ...own, ...(network ? { network: { ...(own.network as object | undefined), ...network } } : {}) };
}

/** `manifests` values: every switch of OFF_EVERYWHERE and OFF_IN the chart has, false. */
function manifestsOff(service: Service, defaults: Record<string, unknown>): Record<string, unknown> {
  const off: Record<string, unknown> = {};
  for (const key of [...OFF_EVERYWHERE, ...(OFF_IN[service] ?? [])]) if (key in defaults) off[key] = false;
  // Prometheus exporters and their jobs (mariadb, rabbitmq): images we do not build.
  if (typeof defaults.monitoring === "object" && defaults.monitoring !== null) off.monitoring = allFalse(defaults.monitoring as Record<string, unknown>);
  return off;
}

function allFalse(o: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(Object.entries(o).map(([k, v]) => [k, typeof v === "object" && v !== null ? allFalse(v as Record<string, unknown>) : false]));
}

/**
 * Refuses a node selector the charts would break: their templates put the value in the pod spec
 * unquoted, so a value YAML 1.1 reads as a boolean, a number or null (`yes`, `on`, `1`, `~`) would
 * reach Kubernetes as one, not as the string a node label is.
 */
export function checkNodeSelector(selector: { key: string; value: string }): void {
  const yaml11NotString =
    /^(y|Y|yes|Yes|YES|n|N|no|No|NO|true|True|TRUE|false|False|FALSE|on|On|ON|off|Off|OFF|~|null|Null|NULL|[-+]?[0-9][0-9_.:eE+-]*|\.inf|\.nan)$/;
  if (!/^[A-Za-z0-9]([-A-Za-z0-9_./]*[A-Za-z0-9])?$/.test(selector.key)) throw new Error(`nodeSelector.key '${selector.key}' is not a label key`);
  if (!isLabelValue(selector.value)) throw new Error(`nodeSelector.value '${selector.value}' is not a label value (${LABEL_VALUE_RULE})`);
  if (selector.value === "" || yaml11NotString.test(selector.value))
    throw new Error(
      `nodeSelector.value '${selector.value}': the charts write it unquoted, and YAML reads it as ${selector.value === "" ? "null" : "no string"}; use a word such as 'enabled'`,
    );
}

/** Every `node_selector_key`/`node_selector_value` pair of the chart's `labels`, replaced. */
function withNodeSelector(labels: Record<string, unknown>, selector: { key: string; value: string }): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(labels)) {
    if (typeof v !== "object" || v === null) continue;
    const entry = v as Record<string, unknown>;
    out[k] = "node_selector_key" in entry ? { node_selector_key: selector.key, node_selector_value: selector.value } : withNodeSelector(entry, selector);
  }
  return out;
}

/**
 * `endpoints` values: a password for every credential the chart's endpoints hold, the same
 * credential getting the same password in every chart (Nova's `neutron` user is Neutron's), and,
 * with a public host, the catalog's public URLs on the node ports.
 */
function endpointValues(service: Service, endpoints: Record<string, unknown>, ctx: ValuesContext): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [kind, endpoint] of Object.entries(endpoints)) {
    if (typeof endpoint !== "object" || endpoint === null) continue;
    const entry: Record<string, unknown> = {};
    const auth = (endpoint as { auth?: unknown }).auth;
    const credentials: Record<string, unknown> = {};
    for (const [user, value] of Object.entries(typeof auth === "object" && auth !== null ? auth : {})) {
      const password = passwordOf(service, kind, user, ctx);
      if (password === undefined) continue;
      // null: a key the chart makes itself when unset (oslo_cache's memcache_secret_key, randAlphaNum
      // at every render), so every `up` would change the services' config and roll their pods.
      if (typeof value === "string" || value === null) credentials[user] = password;
      else if (typeof value === "object" && value !== null && "password" in value) credentials[user] = { password };
    }
    if (Object.keys(credentials).length > 0) entry.auth = credentials;
    const api = PUBLIC_APIS[kind];
    if (api && ctx.publicHost !== undefined) {
      entry.host_fqdn_override = { public: { host: ctx.publicHost } };
      entry.port = { api: { public: api.nodePort } };
      entry.scheme = { public: "http" };
    }
    if (Object.keys(entry).length > 0) out[kind] = entry;
  }
  return out;
}

/** The password of one credential of a chart's endpoints; undefined for those left as they are. */
function passwordOf(service: Service, kind: string, user: string, ctx: ValuesContext): pulumi.Input<string> | undefined {
  if (kind === "identity") return user === "admin" ? ctx.adminPassword : ctx.password(`identity:${user}`);
  // Every database's `admin` is MariaDB's root; every other user has one password for all its
  // databases: MariaDB has one `nova` for Nova's three (oslo_db, oslo_db_api, oslo_db_cell0), and a
  // second password set by the next db-init locks the first one's users out.
  if (kind.startsWith("oslo_db")) return ctx.password(user === "admin" ? "db:admin" : `oslo_db:${user}`);
  // RabbitMQ's chart calls its administrator `user`; the other charts call it `admin`.
  if (kind === "oslo_messaging") return ctx.password(service === "rabbitmq" && user === "user" ? "messaging:admin" : `messaging:${user}`);
  // One memcache key for every service, as the charts' values ask ("all services should be set to use the same key").
  if (kind === "oslo_cache") return ctx.password(`cache:${user}`);
  return undefined;
}

/** The chart's own API Service as a node port (only the chart that runs that API). */
function nodePortValues(service: Service): Record<string, unknown> | undefined {
  const api = Object.values(PUBLIC_APIS).find((a) => a.service === service);
  return api ? { [api.network]: { node_port: { enabled: true, port: api.nodePort } } } : undefined;
}
