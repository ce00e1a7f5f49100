/**
 * Tacker's `additionalParams.k8s_cluster_installation_param`, read as Tacker reads it (same keys,
 * same defaults) and checked before anything is registered. Every problem is collected and located:
 * at `file:line:column` when the request came from a file (`readK8sClusterParamFile`), else at its
 * path inside the request.
 */
import * as path from "node:path";
import { DiagnosticBag, formatPath, type SourceLocation } from "../../translators/diagnostics";
import { K8S_PARAM_KEY } from "../../translators/graph/component-resources";
import { readInstantiateRequest, type InstantiateVnfRequest } from "../../translators/tacker/instantiate-request";
import type { Flavour } from "../../translators/tosca/model";
import { readPackageFile, type PackageSource } from "../../translators/tosca/phase1-read/package-source";
import type { YamlPath } from "../../translators/yaml/located-yaml";
import { parseYaml } from "../../translators/yaml/located-yaml";
import { parseNoProxy, parseProxyUrl, type NoProxyToken, type Parsed, type ProxyUrl } from "../host-files";
import { cidrsOverlap, parseCidr, type Cidr } from "./cidr";
import { validHostsLine } from "./config/hosts";

export { K8S_PARAM_KEY };

/** Tacker's defaults (v1 driver). */
export const DEFAULT_POD_CIDR = "192.168.0.0/16";
export const DEFAULT_SERVICE_CIDR = "10.96.0.0/12";
export const DEFAULT_REGISTRY_CREDENTIAL = "tacker";

export interface NodeParams {
  /** `aspect_id`: the scaling aspect of this node kind. */
  aspectId?: string;
  /** `ssh_cp_name`: the CP whose address SSH dials. */
  sshCpName: string;
  /** `nic_cp_name`: the CP whose address the cluster uses (node IP). */
  nicCpName: string;
  /** The VDU both CPs belong to. */
  vduId: string;
  username: string;
  /** Absent only when the caller gives an SSH key instead. */
  password?: string;
}

export interface MasterParams extends NodeParams {
  /** `pod_cidr`, canonical. */
  podCidr: string;
  /** `cluster_cidr`: the service CIDR, canonical. */
  serviceCidr: string;
  /** `cluster_cp_name`: a master CP (single master, no VIP) or the name of the VIP port to create. */
  clusterCpName: string;
  /** True when `cluster_cp_name` is not a CP of the VNFD: a VIP port, keepalived and HAProxy. */
  vip: boolean;
  /** `cluster_fip_name`. */
  clusterFipName?: string;
}

export interface ProxyParams {
  httpProxy: ProxyUrl;
  httpsProxy: ProxyUrl;
  /** The user's `no_proxy` entries. */
  noProxy?: NoProxyToken[];
  /** `k8s_node_cidr`, canonical; kept as a CIDR in no_proxy (Tacker expands it to 256 IPs). */
  k8sNodeCidr?: string;
}

export interface RegistryConnection {
  /** `connection_type`: "0" HTTP, "1" HTTPS. */
  connectionType: "0" | "1";
  /** `server`: `host:port`. */
  server: string;
  username: string;
  password: string;
  /** `certificate_path`: package-relative CA file (HTTPS). */
  certificatePath?: string;
  /** The CA itself (PEM): read from `certificate_path`, or handed over by a `PrivateRegistry` (HTTPS). */
  caPem?: string;
  /** `hosts_string`: an `/etc/hosts` line, `IP FQDN`. */
  hostsString?: string;
}

export interface K8sClusterInstallation {
  scriptPath: string;
  vimName?: string;
  master: MasterParams;
  worker: NodeParams;
  /** Present only when both `http_proxy` and `https_proxy` are set, as in Tacker. */
  proxy?: ProxyParams;
  registries: RegistryConnection[];
  /** `helm_installation_script_path`: package-relative script run on every master once it is in the cluster. */
  helmInstallationScriptPath?: string;
  /** The script itself, read from the package with the parameters. */
  helmInstallationScript?: Buffer;
}

export interface ReadOptions {
  /** The selected flavour: CP names, VDUs and aspects are checked against it. */
  flavour: Flavour;
  /** The package (directory or zip): `certificate_path`, `helm_installation_script_path` and `script_path` are read through it. */
  packageSource?: PackageSource;
  /** Why there is no `packageSource` (e.g. a package path that is not a directory), said at a field that names a file. */
  packageProblem?: string;
  /** Masters at this scale level (HA with an even number is warned). */
  masterCount?: number;
  /** SSH passwords may be left out (the caller has a key). */
  passwordOptional?: boolean;
  /** Position of a request path, when the request came from a file. */
  locate?: (p: YamlPath) => SourceLocation;
}

const ROOT: YamlPath = ["additionalParams", K8S_PARAM_KEY];
const TOP_KEYS = [
  "script_path",
  "vim_name",
  "master_node",
  "worker_node",
  "proxy",
  "helm_installation_script_path",
  "private_registry_connection_info",
  "storage_server",
  "pv_registration_params",
];
const NODE_KEYS = ["aspect_id", "ssh_cp_name", "nic_cp_name", "username", "password"];
const MASTER_KEYS = [...NODE_KEYS, "pod_cidr", "cluster_cidr", "cluster_cp_name", "cluster_fip_name"];
const PROXY_KEYS = ["http_proxy", "https_proxy", "no_proxy", "k8s_node_cidr"];
const REGISTRY_KEYS = ["connection_type", "server", "username", "password", "certificate_path", "hosts_string"];

type Obj = Record<string, unknown>;

/** Reads the parameters from an instantiate request's `additionalParams`. */
export function readK8sClusterInstallation(
  request: Pick<InstantiateVnfRequest, "additionalParams">,
  opts: ReadOptions,
): { value?: K8sClusterInstallation; bag: DiagnosticBag } {
  const r = new Reader(opts);
  const value = r.read(request.additionalParams?.[K8S_PARAM_KEY]);
  return r.bag.hasErrors() ? { bag: r.bag } : { value, bag: r.bag };
}

/**
 * Reads a param file (Tacker's InstantiateVnfRequest JSON, `#` comments accepted with a warning)
 * and its `k8s_cluster_installation_param`, every problem at `file:line:column`.
 */
export function readK8sClusterParamFile(
  text: string,
  file: string,
  opts: Omit<ReadOptions, "locate" | "flavour"> & { flavours: Flavour[] },
): { request?: InstantiateVnfRequest; value?: K8sClusterInstallation; bag: DiagnosticBag } {
  const bag = new DiagnosticBag();
  const req = readInstantiateRequest(text, file);
  bag.add(...req.diagnostics);
  if (!req.request) return { bag };
  const doc = parseYaml(text, file).documents[0];
  const flavour = opts.flavours.find((f) => f.id === req.request!.flavourId);
  if (!flavour) {
    bag.error(
      "VNF_UNKNOWN_FLAVOUR",
      `flavourId \`${req.request.flavourId}\` is not a flavour of the VNFD (flavours: ${opts.flavours.map((f) => f.id).join(", ")})`,
      doc.location(["flavourId"]),
    );
    return { bag };
  }
  const r = readK8sClusterInstallation(req.request, { ...opts, flavour, locate: (p) => doc.location(p) });
  bag.add(...r.bag.items);
  return bag.hasErrors() ? { bag } : { request: req.request, value: r.value, bag };
}

class Reader {
  readonly bag = new DiagnosticBag();
  /** Every valid CIDR read so far, for the overlap check. */
  private readonly cidrs: { at: YamlPath; cidr: Cidr }[] = [];
  constructor(private readonly opts: ReadOptions) {}

  read(raw: unknown): K8sClusterInstallation | undefined {
    const p = this.object(raw, ROOT, true);
    if (!p) return undefined;
    this.unknown(p, TOP_KEYS, ROOT);
    const at = (k: string): YamlPath => [...ROOT, k];
    const scriptPath = this.str(p, "script_path", ROOT, true);
    if (scriptPath && this.opts.packageSource && "reason" in readPackageFile(this.opts.packageSource, scriptPath)) {
      // Tacker fails here (MgmtDriverNotFound); we run mgmt/k8s/ instead, so the file is not needed.
      this.warn(
        "K8S_SCRIPT_PATH_UNUSED",
        `script_path ${scriptPath} is not in the package: Tacker would refuse it; pulumi-nfv runs its own scripts (mgmt/k8s/)`,
        at("script_path"),
      );
    }
    const vimName = this.str(p, "vim_name", ROOT, false);
    const helm = this.str(p, "helm_installation_script_path", ROOT, false);
    const helmScript = helm === undefined ? undefined : this.packageFile(helm, at("helm_installation_script_path"), "K8S_HELM_SCRIPT_PATH");
    for (const k of ["storage_server", "pv_registration_params"]) {
      if (p[k] !== undefined && p[k] !== null)
        this.warn("K8S_UNSUPPORTED", `${k}: the NFS storage server is not supported by nfv:k8s:Cluster yet; ignored`, at(k));
    }
    const master = this.master(p.master_node, at("master_node"));
    const worker = this.node(p.worker_node, at("worker_node"), NODE_KEYS, "worker");
    if (master && worker && master.vduId === worker.vduId)
      this.err("K8S_CP_NAME", `master_node and worker_node use CPs of the same VDU \`${master.vduId}\``, at("worker_node"));
    const proxy = this.proxy(p.proxy, at("proxy"));
    const registries = this.registries(p.private_registry_connection_info, at("private_registry_connection_info"));
    this.overlaps();
    if (!master || !worker || !scriptPath) return undefined;
    const value: K8sClusterInstallation = { scriptPath, master, worker, registries };
    if (vimName) value.vimName = vimName;
    if (proxy) value.proxy = proxy;
    if (helm && helmScript) {
      value.helmInstallationScriptPath = path.posix.normalize(helm);
      value.helmInstallationScript = helmScript;
    }
    return value;
  }

  private node(raw: unknown, at: YamlPath, keys: string[], kind: "master" | "worker"): NodeParams | undefined {
    const n = this.object(raw, at, true);
    if (!n) return undefined;
    this.unknown(n, keys, at);
    const username = this.str(n, "username", at, true);
    const password = this.str(n, "password", at, !this.opts.passwordOptional);
    const sshCpName = this.str(n, "ssh_cp_name", at, true);
    const nicCpName = this.str(n, "nic_cp_name", at, true);
    const aspectId = this.str(n, "aspect_id", at, false);
    const { flavour } = this.opts;
    const cpNames = flavour.cps.map((c) => c.id).join(", ");
    const cpOf = (k: string, id: string | undefined) => {
      if (id === undefined) return undefined;
      const cp = flavour.cps.find((c) => c.id === id);
      if (!cp) this.err("K8S_CP_NAME", `${k} \`${id}\` is not a CP of flavour \`${flavour.id}\` (CPs: ${cpNames})`, [...at, k]);
      return cp;
    };
    const nic = cpOf("nic_cp_name", nicCpName);
    const ssh = cpOf("ssh_cp_name", sshCpName);
    if (nic && ssh && nic.vduId !== ssh.vduId)
      this.err(
        "K8S_CP_NAME",
        `ssh_cp_name \`${ssh.id}\` (VDU ${ssh.vduId}) and nic_cp_name \`${nic.id}\` (VDU ${nic.vduId}) must belong to the same ${kind} VDU`,
        [...at, "ssh_cp_name"],
      );
    if (aspectId !== undefined) {
      const aspect = flavour.aspects.find((a) => a.id === aspectId);
      if (!aspect)
        this.err(
          "K8S_ASPECT_ID",
          `aspect_id \`${aspectId}\` is not a scaling aspect of flavour \`${flavour.id}\` (aspects: ${flavour.aspects.map((a) => a.id).join(", ") || "none"})`,
          [...at, "aspect_id"],
        );
      else if (nic && (!ssh || nic.vduId === ssh.vduId) && !aspect.vduIds.includes(nic.vduId))
        this.err("K8S_ASPECT_ID", `aspect_id \`${aspectId}\` scales ${aspect.vduIds.join(", ")}, not the ${kind} VDU \`${nic.vduId}\``, [...at, "aspect_id"]);
    }
    if (!username || !sshCpName || !nicCpName || !nic || !ssh || (password === undefined && !this.opts.passwordOptional)) return undefined;
    const out: NodeParams = { sshCpName, nicCpName, vduId: nic.vduId, username };
    if (password !== undefined) out.password = password;
    if (aspectId !== undefined) out.aspectId = aspectId;
    return out;
  }

  private master(raw: unknown, at: YamlPath): MasterParams | undefined {
    const base = this.node(raw, at, MASTER_KEYS, "master");
    const m = (raw && typeof raw === "object" && !Array.isArray(raw) ? raw : {}) as Obj;
    const podCidr = this.cidr(this.str(m, "pod_cidr", at, false) ?? DEFAULT_POD_CIDR, [...at, "pod_cidr"]);
    const serviceCidr = this.cidr(this.str(m, "cluster_cidr", at, false) ?? DEFAULT_SERVICE_CIDR, [...at, "cluster_cidr"]);
    const clusterCpName = this.str(m, "cluster_cp_name", at, true);
    const clusterFipName = this.str(m, "cluster_fip_name", at, false);
    const count = this.opts.masterCount ?? 1;
    let vip = false;
    if (clusterCpName !== undefined) {
      const cp = this.opts.flavour.cps.find((c) => c.id === clusterCpName);
      vip = !cp;
      if (cp && base && cp.vduId !== base.vduId)
        this.err("K8S_CP_NAME", `cluster_cp_name \`${cp.id}\` is a CP of VDU ${cp.vduId}, not of the master VDU ${base.vduId}`, [...at, "cluster_cp_name"]);
      if (cp && count > 1)
        this.err(
          "K8S_CP_NAME",
          `cluster_cp_name \`${cp.id}\` is a master's own CP, but there are ${count} masters: HA needs a VIP port (a name that is not a CP of the VNFD, e.g. vip_CP)`,
          [...at, "cluster_cp_name"],
        );
    }
    if (count > 1 && count % 2 === 0)
      this.warn("K8S_EVEN_MASTERS", `${count} masters: etcd tolerates no more failures with ${count} than with ${count - 1}; use an odd number`, at);
    if (!base || !podCidr || !serviceCidr || !clusterCpName) return undefined;
    const out: MasterParams = { ...base, podCidr: podCidr.text, serviceCidr: serviceCidr.text, clusterCpName, vip };
    if (clusterFipName !== undefined) out.clusterFipName = clusterFipName;
    return out;
  }

  private proxy(raw: unknown, at: YamlPath): ProxyParams | undefined {
    const p = this.object(raw, at, false);
    if (!p) return undefined;
    this.unknown(p, PROXY_KEYS, at);
    const httpProxy = this.parsed(p, "http_proxy", at, "K8S_PROXY_URL", parseProxyUrl);
    const httpsProxy = this.parsed(p, "https_proxy", at, "K8S_PROXY_URL", parseProxyUrl);
    const noProxy = this.parsed(p, "no_proxy", at, "K8S_NO_PROXY", parseNoProxy);
    const nodeCidr = this.str(p, "k8s_node_cidr", at, false);
    const k8sNodeCidr = nodeCidr === undefined ? undefined : this.cidr(nodeCidr, [...at, "k8s_node_cidr"]);
    if (!httpProxy || !httpsProxy) {
      const given = (k: string) => p[k] !== undefined && p[k] !== null && p[k] !== "";
      if (given("http_proxy") !== given("https_proxy"))
        this.warn("K8S_PROXY_IGNORED", "proxy settings apply only when both http_proxy and https_proxy are set (as in Tacker); ignored", at);
      return undefined;
    }
    const out: ProxyParams = { httpProxy, httpsProxy };
    if (noProxy && noProxy.length > 0) out.noProxy = noProxy;
    if (k8sNodeCidr) out.k8sNodeCidr = k8sNodeCidr.text;
    return out;
  }

  /** A string field that must parse; the error names the field, never its value (it may hold a password). */
  private parsed<T>(o: Obj, key: string, at: YamlPath, code: string, parse: (text: string) => Parsed<T>): T | undefined {
    const v = this.str(o, key, at, false);
    if (v === undefined) return undefined;
    const r = parse(v);
    if ("reason" in r) {
      this.err(code, `${key} ${r.reason}`, [...at, key]);
      return undefined;
    }
    return r.value;
  }

  private registries(raw: unknown, at: YamlPath): RegistryConnection[] {
    if (raw === undefined || raw === null) return [];
    if (!Array.isArray(raw)) {
      this.err("K8S_PARAM_TYPE", "private_registry_connection_info must be a list", at);
      return [];
    }
    const out: RegistryConnection[] = [];
    const seen = new Map<string, number>();
    raw.forEach((item, i) => {
      const a = [...at, i];
      const r = this.object(item, a, true);
      if (!r) return;
      this.unknown(r, REGISTRY_KEYS, a);
      const type = r.connection_type;
      if (type === undefined || type === null)
        this.err("K8S_PARAM_MISSING", '`connection_type` is required ("0" HTTP, "1" HTTPS)', [...a, "connection_type"], true);
      else if (type !== "0" && type !== "1")
        this.err("K8S_CONNECTION_TYPE", `connection_type must be the string "0" (HTTP) or "1" (HTTPS), got ${JSON.stringify(type)}`, [...a, "connection_type"]);
      const server = this.str(r, "server", a, true);
      if (server !== undefined && !validServer(server)) this.err("K8S_REGISTRY_SERVER", `server \`${server}\` is not host:port`, [...a, "server"]);
      else if (server !== undefined && seen.has(server))
        this.err("K8S_REGISTRY_SERVER", `server \`${server}\` is already listed at [${seen.get(server)}]`, [...a, "server"]);
      if (server !== undefined) seen.set(server, i);
      const cert = this.str(r, "certificate_path", a, false);
      const ca = cert === undefined ? undefined : this.packageFile(cert, [...a, "certificate_path"], "K8S_CERTIFICATE_PATH");
      if (cert !== undefined && type === "0")
        this.warn("K8S_CERTIFICATE_UNUSED", 'certificate_path is used only with connection_type "1" (HTTPS)', [...a, "certificate_path"]);
      const hosts = this.oneLine(r, "hosts_string", a);
      if (hosts !== undefined && !validHostsLine(hosts))
        this.err("K8S_HOSTS_STRING", `hosts_string \`${hosts}\` is not an /etc/hosts line (IP FQDN)`, [...a, "hosts_string"]);
      const username = this.str(r, "username", a, false) ?? DEFAULT_REGISTRY_CREDENTIAL;
      const password = this.str(r, "password", a, false) ?? DEFAULT_REGISTRY_CREDENTIAL;
      if ((type !== "0" && type !== "1") || server === undefined) return;
      const c: RegistryConnection = { connectionType: type, server, username, password };
      if (cert !== undefined && ca && type === "1") {
        c.certificatePath = path.posix.normalize(cert);
        c.caPem = ca.toString("utf8");
      }
      if (hosts !== undefined) c.hostsString = hosts;
      out.push(c);
    });
    return out;
  }

  private overlaps(): void {
    const name = (at: YamlPath) => String(at[at.length - 1]);
    const c = this.cidrs;
    for (let i = 0; i < c.length; i++)
      for (let j = i + 1; j < c.length; j++) {
        if (cidrsOverlap(c[i].cidr, c[j].cidr))
          this.err("K8S_CIDR_OVERLAP", `${name(c[j].at)} ${c[j].cidr.text} overlaps ${name(c[i].at)} ${c[i].cidr.text}`, c[j].at);
      }
  }

  private cidr(text: string, at: YamlPath): Cidr | undefined {
    const r = parseCidr(text);
    if ("reason" in r) {
      this.err("K8S_CIDR", r.reason, at);
      return undefined;
    }
    this.cidrs.push({ at, cidr: r.cidr });
    return r.cidr;
  }

  /** A package file the cluster needs (`certificate_path`, `helm_installation_script_path`), read through the package source. */
  private packageFile(rel: string, at: YamlPath, code: string): Buffer | undefined {
    const field = String(at[at.length - 1]);
    if (!this.opts.packageSource) {
      this.err(
        code,
        `${field} ${rel} ${this.opts.packageProblem ? `cannot be read: ${this.opts.packageProblem}` : "is given but there is no package to take it from"}`,
        at,
      );
      return undefined;
    }
    const r = readPackageFile(this.opts.packageSource, rel);
    if ("reason" in r) {
      this.err(code, `${field} ${rel} ${r.reason}`, at);
      return undefined;
    }
    return r.content;
  }

  private object(raw: unknown, at: YamlPath, required: boolean): Obj | undefined {
    if (raw === undefined || raw === null) {
      if (required) this.err("K8S_PARAM_MISSING", `\`${String(at[at.length - 1])}\` is required`, at, true);
      return undefined;
    }
    if (typeof raw !== "object" || Array.isArray(raw)) {
      this.err("K8S_PARAM_TYPE", `\`${String(at[at.length - 1])}\` must be an object`, at);
      return undefined;
    }
    return raw as Obj;
  }

  private str(o: Obj, key: string, at: YamlPath, required: boolean): string | undefined {
    const v = o[key];
    if (v === undefined || v === null || v === "") {
      if (required) this.err("K8S_PARAM_MISSING", `\`${key}\` is required`, [...at, key], true);
      return undefined;
    }
    if (typeof v !== "string") {
      this.err("K8S_PARAM_TYPE", `\`${key}\` must be a string`, [...at, key]);
      return undefined;
    }
    return v;
  }

  /** A string that goes into a config file line: no line breaks. */
  private oneLine(o: Obj, key: string, at: YamlPath): string | undefined {
    const v = this.str(o, key, at, false);
    if (v !== undefined && /[\r\n]/.test(v)) {
      this.err("K8S_PARAM_TYPE", `\`${key}\` must be one line`, [...at, key]);
      return undefined;
    }
    return v;
  }

  private unknown(o: Obj, known: string[], at: YamlPath): void {
    for (const k of Object.keys(o)) if (!known.includes(k)) this.warn("K8S_PARAM_UNKNOWN", `unknown key \`${k}\` (known: ${known.join(", ")})`, [...at, k]);
  }

  private where(at: YamlPath): SourceLocation {
    return this.opts.locate ? this.opts.locate(at) : { path: formatPath(at) };
  }

  private err(code: string, message: string, at: YamlPath, atParent = false): void {
    this.bag.error(code, message, this.where(atParent && this.opts.locate ? at.slice(0, -1) : at));
  }

  private warn(code: string, message: string, at: YamlPath): void {
    this.bag.warning(code, message, this.where(at));
  }
}

export function validServer(s: string): boolean {
  const m = /^([A-Za-z0-9.-]+):(\d{1,5})$/.exec(s);
  return !!m && Number(m[2]) >= 1 && Number(m[2]) <= 65535 && !m[1].startsWith("-");
}
