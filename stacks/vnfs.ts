/**
 * The `vnfs` part of a stack config: which VNF package to instantiate on which VIM, with which
 * Tacker InstantiateVnfRequest, scale levels and heal counters. Entries are checked first
 * (structure, then the package, the request and the component graph), all problems collected.
 */
import { existsSync, readFileSync } from "node:fs";
import * as path from "node:path";
import { isDebianPackageName, isDebianVersion } from "../components/host-files";
import { checkFile } from "../translators/user-file";
import { stableUuid } from "../components/stable-id";
import { DiagnosticBag, type SourceLocation } from "../translators/diagnostics";
import type { ComponentKind } from "../translators/graph/types";
import type { InstantiateVnfRequest } from "../translators/tacker/instantiate-request";
import { loadVnfPackage } from "../translators/load-vnf-package";
import type { VnfModel } from "../translators/tosca/model";
import type { ReadPackage } from "../translators/tosca/phase1-read/read-package";
import type { YamlPath } from "../translators/yaml/located-yaml";
import type { LcmOperation } from "../components/vnf/plan";
import { readAutoPolicy, type AutoPolicy } from "./auto-settings";
import { notAVimOfTheStack } from "./config";
import { readExtConnChange, readHooks, readPackageChange, type ExtConnChange, type PackageChange } from "./lcm-settings";
import { readHookParameters, type HookParameter } from "./references";
import type { K8sVersions } from "../components/k8s-cluster/k8s-cluster";
import type { ClusterServerGroups, Role } from "../components/k8s-cluster/plan";
import { SERVER_GROUP_POLICIES, type ServerGroupPolicy } from "../components/vnf/plan";

/** How the lab or an operator reaches a host over SSH; the key is read from a file, as ssh does. */
export interface SshLogin {
  user: string;
  port?: number;
  privateKeyFile?: string;
  /** authorized_keys format; pins the host key. */
  hostKey?: string;
}

/** How the VNFCs of an OpenStack VNF are logged in to: which CP, and the key pair made for the servers. */
export interface VnfcLogin extends SshLogin {
  cpId?: string;
  /** Read from `public_key_file`: a Nova key pair is made from it for every server. */
  publicKey?: string;
}

export interface VnfEntry {
  name: string;
  /** The VIM's name under `vims`; absent for a registry on an existing host. */
  vim?: string;
  packagePath?: string;
  requestPath?: string;
  /** Tacker's VNF instance id (labels of CNF objects); stable per stack and name by default. */
  vnfInstanceId: string;
  scaleLevels?: Record<string, number>;
  /** VM VNFs: heal counter per VNFC, raised by `nfv heal`. */
  healGenerations?: Record<string, number>;
  /** CNFs and Kubernetes clusters: whole-VNF heal counter, raised by `nfv heal` without VNFC ids. */
  healGeneration?: number;
  /** VM VNFs with LCM hooks: how to log in to the VNFCs. */
  ssh?: VnfcLogin;
  /** A private registry on an existing host (no package). */
  host?: SshLogin & { address: string };
  mode?: "container" | "native";
  installationParam?: Record<string, unknown>;
  /** VM VNFs: a script per LCM operation (see lcm-settings.ts). */
  hooks?: Partial<Record<LcmOperation, string>>;
  /** VM VNFs with hooks: the `key=value` lines on every hook's stdin, literal or another VNF's output (references.ts). */
  hookParameters?: Record<string, HookParameter>;
  /** VM VNFs: the last external connectivity change (`nfv change-ext-conn`). */
  extConnChange?: ExtConnChange;
  /** The changes of package made (`nfv change-vnfpkg`), and the one under way. */
  packageChange?: PackageChange;
  /** VM VNFs: per VNFC, how many changes of package it went through (the trigger of its change_current_package hooks). */
  packageGenerations?: Record<string, number>;
  /** A Kubernetes cluster VNF: what K8sCluster needs besides the package and request. */
  cluster?: ClusterSettings;
  /** `auto_heal`: `nfv serve` heals the VNFC a firing alert names (auto-settings.ts). */
  autoHeal?: AutoPolicy;
  /** `auto_scale`: `nfv serve` scales the aspect a firing alert names by one step. */
  autoScale?: AutoPolicy;
  /**
   * `ext_networks`: VM VNFs on a control plane's VIM: per `extVirtualLinks` id of the request, the
   * control plane's network (its `networks`) the link attaches to, instead of the request's `resourceId`.
   */
  extNetworks?: Record<string, string>;
}

/** The `cluster` mapping of a kubernetes-cluster VNF (snake_case in the stack config). */
export interface ClusterSettings {
  versions: K8sVersions;
  sandboxImage: string;
  imageRepository?: string;
  /** `kube_proxy_conntrack_max_per_core`: K8sClusterArgs.kubeProxyConntrackMaxPerCore. */
  kubeProxyConntrackMaxPerCore?: number;
  /** Local file: the CNI manifest applied on the first master. */
  cniManifest?: string;
  /** Local file: an apt sources.list for the nodes' mirror. */
  aptSourceFile?: string;
  floatingIp?: string;
  /** `master_server_group`, `worker_server_group`: K8sClusterArgs.serverGroups. */
  serverGroups?: ClusterServerGroups;
  /** `private_registries`: names of private-registry VNFs of this stack, whose connection info the nodes get. */
  privateRegistries?: string[];
}

/** `cluster` keys: stack config name → [ClusterSettings field, required, kind]. */
const CLUSTER_KEYS: Record<string, [string, boolean, "version" | "string" | "file" | "server-group" | "count"]> = {
  kubernetes_version: ["kubernetes", true, "version"],
  kubernetes_package_version: ["kubernetesPackage", true, "version"],
  containerd_package_version: ["containerdPackage", true, "version"],
  containerd_package: ["containerdPackageName", false, "string"],
  etcd_client_package_version: ["etcdClientPackage", false, "version"],
  haproxy_package_version: ["haproxyPackage", false, "version"],
  keepalived_package_version: ["keepalivedPackage", false, "version"],
  sandbox_image: ["sandboxImage", true, "string"],
  image_repository: ["imageRepository", false, "string"],
  kube_proxy_conntrack_max_per_core: ["kubeProxyConntrackMaxPerCore", false, "count"],
  cni_manifest: ["cniManifest", false, "file"],
  apt_source_file: ["aptSourceFile", false, "file"],
  floating_ip: ["floatingIp", false, "string"],
  master_server_group: ["master", false, "server-group"],
  worker_server_group: ["worker", false, "server-group"],
};
const SERVER_GROUP_VALUES: readonly string[] = [...SERVER_GROUP_POLICIES, "none"];
/** A list, not a string: read apart from CLUSTER_KEYS. */
const PRIVATE_REGISTRIES = "private_registries";
const VERSION_FIELDS = new Set([
  "kubernetes",
  "kubernetesPackage",
  "containerdPackage",
  "containerdPackageName",
  "etcdClientPackage",
  "haproxyPackage",
  "keepalivedPackage",
]);

const MAX_VNF_NAME = 128;
const ENTRY_KEYS = [
  "vim",
  "package",
  "instantiate_request",
  "vnf_instance_id",
  "scale_levels",
  "heal_generations",
  "heal_generation",
  "ssh",
  "host",
  "mode",
  "installation_param",
  "cluster",
  "hooks",
  "hook_parameters",
  "change_ext_conn",
  "change_vnfpkg",
  "package_generations",
  "auto_heal",
  "auto_scale",
  "ext_networks",
];
const LOGIN_KEYS = ["user", "port", "private_key_file", "host_key", "host_key_file"];

type Locate = (p: YamlPath, key?: boolean) => SourceLocation;

/** Structural checks of `vnfs` (sync): keys, types, the VIM named, files that must exist. */
export function readVnfEntries(
  raw: unknown,
  stack: string,
  projectRoot: string,
  vimTypes: Map<string, string>,
  locate: Locate,
  bag: DiagnosticBag,
  refusedVims: ReadonlySet<string> = new Set(),
): VnfEntry[] {
  if (raw === undefined) return [];
  if (!isMapping(raw)) {
    bag.error("CONFIG_BAD_TYPE", "vnfs must be a mapping of VNF name to its settings", locate([]));
    return [];
  }
  const entries: VnfEntry[] = [];
  for (const [name, value] of Object.entries(raw)) {
    const at = (p: YamlPath, key?: boolean) => locate([name, ...p], key);
    if (!isMapping(value)) {
      bag.error("CONFIG_BAD_TYPE", `VNF '${name}' must be a mapping`, at([]));
      continue;
    }
    // Every OpenStack name starts with it (`<vnf>-<vnfc>-<cp>`), and OpenStack stops at 255 characters.
    if (name.length > MAX_VNF_NAME)
      bag.error(
        "CONFIG_BAD_VALUE",
        `the VNF name is ${name.length} characters; at most ${MAX_VNF_NAME} (OpenStack names built from it stop at 255)`,
        at([], true),
      );
    for (const key of Object.keys(value)) {
      if (!ENTRY_KEYS.includes(key)) bag.error("CONFIG_UNKNOWN_KEY", `unknown key '${key}' (expected one of ${ENTRY_KEYS.join(", ")})`, at([key], true));
    }
    // A package is a directory, a zip or a VNFD; everything else named here is a regular file.
    const file = (key: string, directoryToo = false): string | undefined => {
      const v = value[key];
      if (v === undefined) return undefined;
      if (typeof v !== "string") {
        bag.error("CONFIG_BAD_TYPE", `${key} must be a path`, at([key]));
        return undefined;
      }
      const resolved = path.resolve(projectRoot, v);
      if (!directoryToo) checkFile(resolved, key, at([key]), bag);
      else if (!existsSync(resolved)) bag.error("CONFIG_FILE_MISSING", `${key} ${resolved} does not exist`, at([key]));
      return resolved;
    };
    const entry: VnfEntry = { name, vnfInstanceId: typeof value.vnf_instance_id === "string" ? value.vnf_instance_id : stableUuid("vnf", stack, name) };
    const vim = value.vim;
    if (value.host !== undefined) {
      entry.host = login(value.host, at, bag, true) as VnfEntry["host"];
      if (value.package !== undefined || vim !== undefined)
        bag.error("CONFIG_MIXED_VNF", "host: deploys on an existing host; it takes no package or vim", at(["host"], true));
    } else {
      // A refused VIM has its own error; naming it is not a second one.
      const refused = typeof vim === "string" && refusedVims.has(vim);
      if (!refused && (typeof vim !== "string" || !vimTypes.has(vim))) {
        bag.error("CONFIG_UNKNOWN_VIM", vim === undefined ? "vim is required" : notAVimOfTheStack(String(vim), vimTypes), at(["vim"]));
      } else if (!refused) entry.vim = vim as string;
      entry.packagePath = file("package", true);
      if (value.package === undefined) bag.error("CONFIG_MISSING_FIELD", "package is required (a VNF package directory or zip)", at([]));
      entry.requestPath = file("instantiate_request");
      if (value.instantiate_request === undefined)
        bag.error("CONFIG_MISSING_FIELD", "instantiate_request is required (a Tacker InstantiateVnfRequest file)", at([]));
      if (value.ssh !== undefined) entry.ssh = login(value.ssh, at, bag, false);
    }
    entry.scaleLevels = counters(value.scale_levels, "scale_levels", at, bag);
    entry.healGenerations = counters(value.heal_generations, "heal_generations", at, bag);
    if (value.heal_generation !== undefined) {
      const n = wholeNumber(value.heal_generation);
      if (n !== undefined) entry.healGeneration = n;
      else bag.error("CONFIG_BAD_TYPE", "heal_generation must be a whole number", at(["heal_generation"]));
    }
    if (value.mode !== undefined) {
      if (value.mode === "container" || value.mode === "native") entry.mode = value.mode;
      else bag.error("CONFIG_BAD_VALUE", "mode must be container or native", at(["mode"]));
    }
    if (value.installation_param !== undefined) {
      if (isMapping(value.installation_param)) entry.installationParam = value.installation_param;
      else bag.error("CONFIG_BAD_TYPE", "installation_param must be a mapping", at(["installation_param"]));
    }
    const hooks = readHooks(value.hooks, projectRoot, at, bag);
    if (hooks) entry.hooks = hooks;
    const parameters = readHookParameters(value.hook_parameters, at, bag);
    if (parameters) entry.hookParameters = parameters;
    if (value.hook_parameters !== undefined && !hooks)
      bag.error("CONFIG_BAD_VALUE", "hook_parameters are read by hooks on stdin: give hooks too", at(["hook_parameters"], true));
    const change = readExtConnChange(value.change_ext_conn, projectRoot, at, bag);
    if (change) entry.extConnChange = change;
    const packageChange = readPackageChange(value.change_vnfpkg, projectRoot, at, bag);
    if (packageChange) entry.packageChange = packageChange;
    entry.packageGenerations = counters(value.package_generations, "package_generations", at, bag);
    if (hooks && value.host === undefined && !(isMapping(value.ssh) && typeof value.ssh.cp === "string")) {
      bag.error(
        "CONFIG_MISSING_FIELD",
        "hooks run over SSH: give ssh with cp (the CP whose address is dialled), user and private_key_file",
        at(["hooks"], true),
      );
    }
    if ((hooks || change || packageChange) && value.host !== undefined)
      bag.error(
        "CONFIG_MIXED_VNF",
        "hooks, change_ext_conn and change_vnfpkg are for VM VNFs from a package, not a registry on an existing host",
        at(["host"], true),
      );
    const autoHeal = readAutoPolicy(value.auto_heal, "auto_heal", at, bag);
    if (autoHeal) entry.autoHeal = autoHeal;
    const autoScale = readAutoPolicy(value.auto_scale, "auto_scale", at, bag);
    if (autoScale) entry.autoScale = autoScale;
    if ((autoHeal || autoScale) && value.host !== undefined)
      bag.error("CONFIG_MIXED_VNF", "auto_heal and auto_scale are for VNFs from a package, not a registry on an existing host", at(["host"], true));
    if (value.ext_networks !== undefined) {
      const links = value.ext_networks;
      if (isMapping(links) && Object.keys(links).length > 0 && Object.values(links).every((n) => typeof n === "string" && n !== ""))
        entry.extNetworks = links as Record<string, string>;
      else
        bag.error(
          "CONFIG_BAD_TYPE",
          "ext_networks must map extVirtualLinks ids of the request to networks of the control plane the VNF runs on",
          at(["ext_networks"]),
        );
    }
    if (value.cluster !== undefined) {
      const cluster = clusterSettings(value.cluster, projectRoot, at, bag);
      if (cluster) entry.cluster = cluster;
    }
    entries.push(entry);
  }
  return entries;
}

/** The `cluster` mapping: pinned versions (Kubernetes, packages), the sandbox image, optional files. */
function clusterSettings(raw: unknown, projectRoot: string, at: Locate, bag: DiagnosticBag): ClusterSettings | undefined {
  if (!isMapping(raw)) {
    bag.error(
      "CONFIG_BAD_TYPE",
      "cluster must be a mapping (kubernetes_version, kubernetes_package_version, containerd_package_version, sandbox_image, ...)",
      at(["cluster"]),
    );
    return undefined;
  }
  const out: Record<string, string | number> = {};
  const groups: ClusterServerGroups = {};
  let ok = true;
  let privateRegistries: string[] | undefined;
  const regs = raw[PRIVATE_REGISTRIES];
  if (regs !== undefined) {
    if (!Array.isArray(regs) || regs.length === 0 || !regs.every((r) => typeof r === "string" && r !== "")) {
      bag.error(
        "CONFIG_BAD_TYPE",
        `cluster.${PRIVATE_REGISTRIES} must be a list of names of private-registry VNFs of this stack`,
        at(["cluster", PRIVATE_REGISTRIES]),
      );
      ok = false;
    } else privateRegistries = regs as string[];
  }
  for (const k of Object.keys(raw)) {
    if (k === PRIVATE_REGISTRIES) continue;
    if (!(k in CLUSTER_KEYS)) {
      bag.error(
        "CONFIG_UNKNOWN_KEY",
        `unknown key 'cluster.${k}' (expected ${[...Object.keys(CLUSTER_KEYS), PRIVATE_REGISTRIES].join(", ")})`,
        at(["cluster", k], true),
      );
      ok = false;
    }
  }
  for (const [key, [field, required, kind]] of Object.entries(CLUSTER_KEYS)) {
    const v = raw[key];
    if (v === undefined) {
      if (required) {
        bag.error("CONFIG_MISSING_FIELD", `cluster.${key} is required (every installed version is pinned)`, at(["cluster"]));
        ok = false;
      }
      continue;
    }
    if (kind === "count") {
      // `pulumi config set --path` stores 0 as a number, `pulumi config set` as a string.
      const n = typeof v === "number" ? v : typeof v === "string" && /^\d+$/.test(v.trim()) ? Number(v) : NaN;
      if (!Number.isSafeInteger(n) || n < 0) {
        bag.error("CONFIG_BAD_VALUE", `cluster.${key} must be a whole number, 0 or more`, at(["cluster", key]));
        ok = false;
      } else {
        out[field] = n;
      }
      continue;
    }
    // `pulumi config set --path` may store a version like 1.30 as a number: only strings are pinned versions.
    if (typeof v !== "string" || v.trim() === "") {
      bag.error("CONFIG_BAD_TYPE", `cluster.${key} must be a non-empty string${kind === "version" ? " (quote versions)" : ""}`, at(["cluster", key]));
      ok = false;
      continue;
    }
    if (key === "kubernetes_version" && !/^v?1\.\d+\.\d+$/.test(v)) {
      bag.error("CONFIG_BAD_VALUE", `cluster.kubernetes_version ${v} is not 1.x.y`, at(["cluster", key]));
      ok = false;
    } else if (key === "containerd_package" && !isDebianPackageName(v)) {
      bag.error(
        "CONFIG_BAD_VALUE",
        "cluster.containerd_package is not a Debian package name (lower-case letters, digits, + . -, starting with a letter or digit)",
        at(["cluster", key]),
      );
      ok = false;
    } else if (kind === "version" && key !== "kubernetes_version" && !isDebianVersion(v)) {
      bag.error(
        "CONFIG_BAD_VALUE",
        `cluster.${key} is not a Debian package version ([epoch:]upstream[-revision], the upstream part starting with a digit)`,
        at(["cluster", key]),
      );
      ok = false;
    } else if (key === "sandbox_image" && (!/:[^/]+$/.test(v) || v.endsWith(":latest"))) {
      bag.error("CONFIG_BAD_VALUE", `cluster.sandbox_image ${v} must be pinned (name:tag, not latest)`, at(["cluster", key]));
      ok = false;
    } else if (kind === "server-group") {
      if (!SERVER_GROUP_VALUES.includes(v)) {
        bag.error("CONFIG_BAD_VALUE", `cluster.${key} ${v} is not one of ${SERVER_GROUP_VALUES.join(", ")}`, at(["cluster", key]));
        ok = false;
      }
      groups[field as Role] = v as ServerGroupPolicy | "none";
      continue;
    } else if (kind === "file") {
      const resolved = path.resolve(projectRoot, v);
      if (checkFile(resolved, `cluster.${key}`, at(["cluster", key]), bag)) ok = false;
      out[field] = resolved;
      continue;
    }
    out[field] = v;
  }
  if (!ok) return undefined;
  // The required versions were checked above; an interface has no index signature, hence `unknown`.
  const versions = Object.fromEntries(Object.entries(out).filter(([k]) => VERSION_FIELDS.has(k))) as unknown as K8sVersions;
  const rest = Object.fromEntries(Object.entries(out).filter(([k]) => !VERSION_FIELDS.has(k))) as unknown as Omit<ClusterSettings, "versions" | "serverGroups">;
  return { ...rest, versions, ...(Object.keys(groups).length > 0 ? { serverGroups: groups } : {}), ...(privateRegistries ? { privateRegistries } : {}) };
}

function login(raw: unknown, at: Locate, bag: DiagnosticBag, withAddress: boolean): (VnfcLogin & { address?: string }) | undefined {
  const key = withAddress ? "host" : "ssh";
  if (!isMapping(raw)) {
    bag.error("CONFIG_BAD_TYPE", `${key} must be a mapping`, at([key]));
    return undefined;
  }
  const allowed = withAddress ? ["address", ...LOGIN_KEYS] : ["cp", "public_key_file", ...LOGIN_KEYS];
  for (const k of Object.keys(raw))
    if (!allowed.includes(k)) bag.error("CONFIG_UNKNOWN_KEY", `unknown key '${key}.${k}' (expected ${allowed.join(", ")})`, at([key, k], true));
  const str = (k: string) => (typeof raw[k] === "string" ? (raw[k] as string) : undefined);
  if (withAddress && !str("address")) bag.error("CONFIG_MISSING_FIELD", "host.address is required", at([key]));
  if (!str("user")) bag.error("CONFIG_MISSING_FIELD", `${key}.user is required`, at([key]));
  const keyFile = str("private_key_file");
  if (keyFile !== undefined) checkFile(keyFile, `${key}.private_key_file`, at([key, "private_key_file"]), bag);
  // A host key file (e.g. the host's ssh_host_ed25519_key.pub) for hosts whose key is made at setup.
  const hostKeyFile = str("host_key_file");
  let hostKey = str("host_key");
  if (hostKeyFile !== undefined && hostKey !== undefined)
    bag.error("CONFIG_MIXED_KEYS", `${key}.host_key and ${key}.host_key_file: use one or the other`, at([key, "host_key_file"], true));
  else if (hostKeyFile !== undefined && checkFile(hostKeyFile, `${key}.host_key_file`, at([key, "host_key_file"]), bag)) hostKey = undefined;
  else if (hostKeyFile !== undefined) hostKey = readFileSync(hostKeyFile, "utf8").trim().split(/\s+/).slice(0, 2).join(" ");
  // The provider then accepts whatever key answers: stdin (passwords, join tokens) goes to that host.
  if (hostKey === undefined && hostKeyFile === undefined) {
    bag.warning(
      "CONFIG_NO_HOST_KEY",
      `${key} has no host_key or host_key_file: the host's SSH key is not checked, so whoever answers at its address gets the commands and their secrets`,
      at([key]),
    );
  }
  const publicKeyFile = str("public_key_file");
  let publicKey: string | undefined;
  if (publicKeyFile !== undefined && checkFile(publicKeyFile, `${key}.public_key_file`, at([key, "public_key_file"]), bag)) publicKey = undefined;
  else if (publicKeyFile !== undefined) publicKey = readFileSync(publicKeyFile, "utf8").trim();
  if (raw.port !== undefined && !(Number.isInteger(raw.port) && (raw.port as number) >= 1 && (raw.port as number) <= 65535)) {
    bag.error("CONFIG_BAD_VALUE", `${key}.port must be 1-65535`, at([key, "port"]));
  }
  return {
    user: str("user") ?? "",
    ...(raw.port !== undefined ? { port: raw.port as number } : {}),
    ...(keyFile ? { privateKeyFile: keyFile } : {}),
    ...(hostKey ? { hostKey } : {}),
    ...(withAddress ? { address: str("address") ?? "" } : {}),
    ...(str("cp") ? { cpId: str("cp") } : {}),
    ...(publicKey ? { publicKey } : {}),
  };
}

/** A whole number ≥ 0; `pulumi config set --path` stores numbers as digit strings, so those count too. */
export function wholeNumber(v: unknown): number | undefined {
  if (typeof v === "number" && Number.isInteger(v) && v >= 0) return v;
  if (typeof v === "string" && /^\d+$/.test(v)) return Number(v);
  return undefined;
}

function counters(raw: unknown, key: string, at: Locate, bag: DiagnosticBag): Record<string, number> | undefined {
  if (raw === undefined) return undefined;
  const out: Record<string, number> = {};
  for (const [name, v] of isMapping(raw) ? Object.entries(raw) : []) {
    const n = wholeNumber(v);
    if (n === undefined) break;
    out[name] = n;
  }
  if (!isMapping(raw) || Object.keys(out).length !== Object.keys(raw).length) {
    bag.error("CONFIG_BAD_TYPE", `${key} must map names to whole numbers`, at([key]));
    return undefined;
  }
  return out;
}

/** A VNF entry with its package translated and its request read: ready to register. */
export interface PreparedVnf {
  entry: VnfEntry;
  component: ComponentKind | "registry-on-host";
  pkg?: ReadPackage;
  model?: VnfModel;
  request?: InstantiateVnfRequest;
  /** A change of package under way: the previous package's model, which the pending VNFCs still run. */
  previousModel?: VnfModel;
}

/** Translates each entry's package, reads its request and plans its graph (`loadVnfPackage`); problems go into `bag`. */
export async function prepareVnfs(entries: VnfEntry[], bag: DiagnosticBag): Promise<PreparedVnf[]> {
  const prepared: PreparedVnf[] = [];
  for (const entry of entries) {
    if (entry.host) {
      prepared.push({ entry, component: "registry-on-host" });
      continue;
    }
    if (!entry.packagePath || !entry.requestPath) continue;
    const loaded = await loadVnfPackage(entry.packagePath, entry.requestPath, {
      extConnChanges: entry.extConnChange?.requestPaths,
      packageChanges: entry.packageChange?.requestPaths,
      vnfInstanceId: entry.vnfInstanceId,
    });
    // ContainerizedVnf reports its plan's warnings (CNF_*) on itself, so the stack does not repeat them.
    const cnf = loaded.component === "container-vnf";
    bag.add(...loaded.diagnostics.filter((d) => !(cnf && d.severity === "warning" && d.code.startsWith("CNF_"))));
    if (!loaded.model || !loaded.request || !loaded.component) continue;
    let previousModel: VnfModel | undefined;
    if (entry.packageChange?.previousPackagePath) {
      const previous = await loadVnfPackage(entry.packageChange.previousPackagePath);
      bag.add(...previous.diagnostics);
      if (!previous.model) continue;
      previousModel = previous.model;
    }
    prepared.push({
      entry,
      component: loaded.component,
      pkg: loaded.pkg,
      model: loaded.model,
      request: loaded.request,
      ...(previousModel ? { previousModel } : {}),
    });
  }
  return prepared;
}

export function isMapping(v: unknown): v is Record<string, unknown> {
  return typeof v === "object" && v !== null && !Array.isArray(v);
}
