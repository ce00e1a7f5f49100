/**
 * The `magnum_clusters` part of a stack config: Kubernetes clusters that Magnum builds on an
 * OpenStack VIM of the stack (MagnumCluster), each one a Kubernetes VIM of the stack in turn.
 * Keys are Magnum's own (its cluster template and cluster fields, snake_case); checked first, all
 * problems collected and located.
 */
import { parseNoProxy, parseProxyUrl } from "../components/host-files";
import type { MagnumClusterArgs } from "../components/k8s-cluster/magnum-cluster";
import type { DiagnosticBag, SourceLocation } from "../translators/diagnostics";
import { checkVimType } from "./config";
import type { YamlPath } from "../translators/yaml/located-yaml";
import { isMapping, wholeNumber } from "./vnfs";

/** MagnumClusterArgs without the provider, which comes from the VIM. */
export type MagnumSettings = Omit<MagnumClusterArgs, "provider">;

export interface MagnumEntry {
  name: string;
  /** The OpenStack VIM (under `vims`) whose project holds the cluster. */
  vim: string;
  args: MagnumSettings;
}

type Locate = (p: YamlPath, key?: boolean) => SourceLocation;
type Kind = "string" | "count" | "flag" | "labels" | "network-driver" | "proxy-url" | "no-proxy";

/** Stack config key → [MagnumClusterArgs field, kind]. */
const KEYS: Record<string, [keyof MagnumSettings, Kind]> = {
  image: ["image", "string"],
  master_count: ["masterCount", "count"],
  node_count: ["nodeCount", "count"],
  master_flavor: ["masterFlavor", "string"],
  flavor: ["flavor", "string"],
  keypair: ["keypair", "string"],
  external_network: ["externalNetworkId", "string"],
  fixed_network: ["fixedNetwork", "string"],
  fixed_subnet: ["fixedSubnet", "string"],
  dns_nameserver: ["dnsNameserver", "string"],
  docker_volume_size: ["dockerVolumeSize", "count"],
  network_driver: ["networkDriver", "network-driver"],
  floating_ip_enabled: ["floatingIpEnabled", "flag"],
  master_lb_enabled: ["masterLbEnabled", "flag"],
  labels: ["labels", "labels"],
  http_proxy: ["httpProxy", "proxy-url"],
  https_proxy: ["httpsProxy", "proxy-url"],
  no_proxy: ["noProxy", "no-proxy"],
  create_timeout: ["createTimeout", "count"],
  vim_name: ["vimName", "string"],
  project_name: ["projectName", "string"],
};

/** Structural checks of `magnum_clusters`; the values' meaning is checked by MagnumCluster itself. */
export function readMagnumEntries(
  raw: unknown,
  vimTypes: Map<string, string>,
  locate: Locate,
  bag: DiagnosticBag,
  refusedVims: ReadonlySet<string> = new Set(),
): MagnumEntry[] {
  if (raw === undefined) return [];
  if (!isMapping(raw)) {
    bag.error("CONFIG_BAD_TYPE", "magnum_clusters must be a mapping of cluster name to its settings", locate([]));
    return [];
  }
  const entries: MagnumEntry[] = [];
  const vimNames = new Set(vimTypes.keys());
  for (const [name, value] of Object.entries(raw)) {
    const at = (p: YamlPath, key?: boolean) => locate([name, ...p], key);
    if (!isMapping(value)) {
      bag.error("CONFIG_BAD_TYPE", `Magnum cluster '${name}' must be a mapping`, at([]));
      continue;
    }
    const { vim, ...rest } = value;
    if (typeof vim !== "string") bag.error("CONFIG_UNKNOWN_VIM", "vim is required", at([]));
    else checkVimType(vim, "openstack", "Magnum runs on an OpenStack VIM", vimTypes, refusedVims, at(["vim"]), bag);
    const args: Partial<Record<keyof MagnumSettings, unknown>> = {};
    for (const [k, v] of Object.entries(rest)) {
      const known = KEYS[k];
      if (!known) {
        bag.error("CONFIG_UNKNOWN_KEY", `unknown key '${k}' (expected vim, ${Object.keys(KEYS).join(", ")})`, at([k], true));
        continue;
      }
      const [field, kind] = known;
      const parsed = parseValue(kind, v);
      if (parsed === undefined) bag.error("CONFIG_BAD_TYPE", `${k} must be ${EXPECTED[kind]}`, at([k]));
      else args[field] = parsed;
    }
    if (args.image === undefined) bag.error("CONFIG_MISSING_FIELD", "image is required (the Glance image of Magnum's COE, e.g. Fedora CoreOS)", at([]));
    // The cluster registers a Kubernetes VIM of that name: it must not shadow another VIM.
    const vimName = (args.vimName as string | undefined) ?? `kubernetes_vim_${name}`;
    if (vimNames.has(vimName))
      bag.error(
        "CONFIG_BAD_VALUE",
        `the cluster's Kubernetes VIM would be named '${vimName}', which is already a VIM of this stack; set vim_name`,
        at(args.vimName ? ["vim_name"] : []),
      );
    vimNames.add(vimName);
    if (typeof vim === "string") entries.push({ name, vim, args: args as MagnumSettings });
  }
  return entries;
}

const EXPECTED: Record<Kind, string> = {
  string: "a non-empty string",
  count: "a whole number",
  flag: "true or false",
  labels: "a mapping of label name to string value",
  "network-driver": "flannel or calico",
  "proxy-url": "an http or https URL without a quote, space or control character (http://[user:password@]host[:port])",
  "no-proxy": "a comma-separated list of hosts, domains, IP addresses and CIDRs",
};

function parseValue(kind: Kind, v: unknown): unknown {
  switch (kind) {
    case "string":
      return typeof v === "string" && v.trim() !== "" ? v : undefined;
    case "count":
      return wholeNumber(v);
    case "flag": // `pulumi config set --path` stores booleans as strings
      return v === true || v === "true" ? true : v === false || v === "false" ? false : undefined;
    case "labels":
      return isMapping(v) && Object.values(v).every((x) => typeof x === "string") ? v : undefined;
    case "network-driver":
      return v === "flannel" || v === "calico" ? v : undefined;
    // Magnum writes them into the nodes' files itself: typed here, and the messages never echo them.
    case "proxy-url":
      return typeof v === "string" && "value" in parseProxyUrl(v) ? v : undefined;
    case "no-proxy":
      return typeof v === "string" && "value" in parseNoProxy(v) ? v : undefined;
  }
}
