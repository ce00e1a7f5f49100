/**
 * Tacker's InstantiateVnfRequest (SOL003 `InstantiateVnfRequest`, the JSON "param file" given to
 * `openstack vnflcm instantiate`), typed and validated with located errors.
 *
 * Comments: the param files printed in Tacker's guides carry `#` comments after values
 * (`"resourceId": "…", #Set the uuid`). They are not JSON, and Tacker's users strip them. We
 * accept them, because the file is parsed as YAML (JSON is YAML, and YAML has comments), but warn
 * with `REQUEST_JSON_COMMENT` at the line of each comment so that the file can be fixed before it
 * is sent to a real Tacker.
 */
import { DiagnosticBag, type Diagnostic, type SourceLocation } from "../diagnostics";
import { parseYaml, type LocatedDocument, type YamlPath } from "../yaml/located-yaml";

export interface InstantiateVnfRequest {
  flavourId: string;
  instantiationLevelId?: string;
  extVirtualLinks?: ExtVirtualLink[];
  extManagedVirtualLinks?: ExtManagedVirtualLink[];
  vimConnectionInfo?: VimConnectionInfo[];
  /** Free-form; Mgmt Drivers read keys such as `k8s_cluster_installation_param`. */
  additionalParams?: Record<string, unknown>;
}

export interface ExtVirtualLink {
  id: string;
  /** Existing network (Neutron UUID) the external CPs attach to. */
  resourceId: string;
  vimConnectionId?: string;
  extCps: ExtCp[];
}

export interface ExtCp {
  /** A VduCp id of the selected flavour. */
  cpdId: string;
  cpConfig: CpConfig[];
}

export interface CpConfig {
  cpInstanceId?: string;
  /** An existing port to use instead of creating one. */
  linkPortId?: string;
  cpProtocolData?: CpProtocolData[];
}

export interface CpProtocolData {
  /** `IP_OVER_ETHERNET`. */
  layerProtocol: string;
  ipOverEthernet?: {
    macAddress?: string;
    ipAddresses?: IpAddress[];
  };
}

export interface IpAddress {
  type: "IPV4" | "IPV6";
  fixedAddresses?: string[];
  subnetId?: string;
}

export interface ExtManagedVirtualLink {
  id: string;
  /** A VnfVirtualLink id of the selected flavour. */
  vnfVirtualLinkDescId: string;
  resourceId: string;
  vimConnectionId?: string;
}

export interface VimConnectionInfo {
  id: string;
  vimId?: string;
  vimType: string;
  interfaceInfo?: Record<string, unknown>;
  accessInfo?: Record<string, unknown>;
}

export interface InstantiateRequestResult {
  request?: InstantiateVnfRequest;
  diagnostics: Diagnostic[];
}

/** Parses and validates a param file; `request` is set only when there is no error. */
export function readInstantiateRequest(text: string, file: string): InstantiateRequestResult {
  return readRequest<InstantiateVnfRequest>(text, file, "the instantiate request", (check, value) => check.request(value));
}

/** What both request readers do around their field checks: parse with positions, warn at comments. */
function readRequest<T>(
  text: string,
  file: string,
  what: string,
  checkFields: (check: Checker, value: unknown) => void,
): { request?: T; diagnostics: Diagnostic[]; locate: (p: YamlPath) => SourceLocation } {
  const parsed = parseYaml(text, file);
  const bag = new DiagnosticBag();
  bag.add(...parsed.diagnostics.items);
  const doc = parsed.documents[0];
  if (!doc) {
    if (!bag.hasErrors()) bag.error("REQUEST_EMPTY", `${what} is empty`, { file });
    return { diagnostics: bag.items, locate: () => ({ file }) };
  }
  warnAboutComments(file, text, bag);
  checkFields(new Checker(doc, bag), doc.value);
  const locate = (p: YamlPath) => doc.location(p);
  return bag.hasErrors() ? { diagnostics: bag.items, locate } : { request: doc.value as T, diagnostics: bag.items, locate };
}

/**
 * Tacker's ChangeExtVnfConnectivityRequest (SOL003; the param file of `openstack vnflcm
 * change-ext-conn`): new external connectivity for some CPs. Same rules as the instantiate request.
 */
export interface ChangeExtVnfConnectivityRequest {
  extVirtualLinks: ExtVirtualLink[];
  vimConnectionInfo?: VimConnectionInfo[];
  additionalParams?: Record<string, unknown>;
}

/** Parses and validates a change-ext-conn param file; `request` is set only when there is no error. */
export function readChangeExtConnRequest(text: string, file: string): { request?: ChangeExtVnfConnectivityRequest; diagnostics: Diagnostic[] } {
  return readRequest<ChangeExtVnfConnectivityRequest>(text, file, "the change-ext-conn request", (check, value) => check.changeExtConn(value));
}

/**
 * The instantiate request with a change applied, as Tacker applies it: a link of the change
 * replaces the link with the same id, a new id is added, and a CP given a new link leaves the
 * links it was on (so that it is never declared twice).
 */
export function applyExtConnChange(request: InstantiateVnfRequest, change: ChangeExtVnfConnectivityRequest): InstantiateVnfRequest {
  const moved = new Set(change.extVirtualLinks.flatMap((l) => l.extCps.map((c) => c.cpdId)));
  const changedIds = new Set(change.extVirtualLinks.map((l) => l.id));
  const kept = (request.extVirtualLinks ?? [])
    .filter((l) => !changedIds.has(l.id))
    .map((l) => ({ ...l, extCps: l.extCps.filter((c) => !moved.has(c.cpdId)) }))
    .filter((l) => l.extCps.length > 0);
  const replaced = (request.extVirtualLinks ?? []).filter((l) => changedIds.has(l.id)).map((l) => change.extVirtualLinks.find((c) => c.id === l.id)!);
  const added = change.extVirtualLinks.filter((l) => !(request.extVirtualLinks ?? []).some((r) => r.id === l.id));
  return { ...request, extVirtualLinks: [...kept, ...replaced, ...added] };
}

/**
 * Tacker's ChangeCurrentVnfPkgRequest (SOL003; the param file of `openstack vnflcm change-vnfpkg`):
 * the VNFD id of the new package and, in additionalParams, `upgrade_type` (RollingUpdate) and the
 * VDUs to update in order (`vdu_params[].vdu_id`). `lcm-operation-coordinate-old-vnf` and
 * `-new-vnf` name Tacker's coordination scripts, which do not run here (the stack's
 * `change_current_package_start`/`_end` hooks take their place); `batch_size` is ours: how many
 * VNFCs of a VDU are replaced by one `up` (Tacker: one). Other additionalParams (such as
 * `lcm-kubernetes-def-files`) apply over the instantiate request's.
 */
export interface ChangeCurrentVnfPkgRequest {
  vnfdId: string;
  additionalParams: {
    upgrade_type: string;
    vdu_params?: { vdu_id: string; old_vnfc_param?: Record<string, unknown>; new_vnfc_param?: Record<string, unknown> }[];
    batch_size?: number;
    [key: string]: unknown;
  };
  vimConnectionInfo?: VimConnectionInfo[];
  vnfConfigurableProperties?: Record<string, unknown>;
  extensions?: Record<string, unknown>;
}

/** additionalParams keys of the change itself, not applied over the instantiate request's. */
export const CHANGE_VNFPKG_KEYS = ["upgrade_type", "vdu_params", "batch_size", "lcm-operation-coordinate-old-vnf", "lcm-operation-coordinate-new-vnf"];

/** Parses and validates a change-vnfpkg param file; `request` is set only when there is no error; `locate` points into the file. */
export function readChangeVnfpkgRequest(
  text: string,
  file: string,
): { request?: ChangeCurrentVnfPkgRequest; diagnostics: Diagnostic[]; locate: (p: YamlPath) => SourceLocation } {
  return readRequest<ChangeCurrentVnfPkgRequest>(text, file, "the change-vnfpkg request", (check, value) => check.changeVnfpkg(value));
}

/** The instantiate request with a change of package's additionalParams applied over its own (Tacker's JSON merge of them). */
export function applyPackageChange(request: InstantiateVnfRequest, change: ChangeCurrentVnfPkgRequest): InstantiateVnfRequest {
  const own = Object.fromEntries(Object.entries(change.additionalParams).filter(([k]) => !CHANGE_VNFPKG_KEYS.includes(k)));
  return Object.keys(own).length === 0 ? request : { ...request, additionalParams: { ...(request.additionalParams ?? {}), ...own } };
}

/** Warns at every `#` outside a JSON string: a comment YAML accepts and JSON does not. */
function warnAboutComments(file: string, text: string, bag: DiagnosticBag): void {
  let line = 1;
  let lineStart = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (c === "\n") {
      line++;
      lineStart = i + 1;
    } else if (inString) {
      if (c === "\\") i++;
      else if (c === '"') inString = false;
    } else if (c === '"') {
      inString = true;
    } else if (c === "#") {
      bag.warning("REQUEST_JSON_COMMENT", "`#` comments are not JSON: accepted here, but Tacker rejects the file", {
        file,
        line,
        column: i - lineStart + 1,
      });
      const nl = text.indexOf("\n", i);
      i = (nl < 0 ? text.length : nl) - 1;
    }
  }
}

type Kind = "string" | "array" | "object";

/** Field-by-field validation; every problem is located at the offending value. */
class Checker {
  constructor(
    private readonly doc: LocatedDocument,
    private readonly bag: DiagnosticBag,
  ) {}

  request(value: unknown): void {
    if (!this.expect(value, "object", [])) return;
    const r = value as Record<string, unknown>;
    this.field(r, "flavourId", "string", [], true);
    this.field(r, "instantiationLevelId", "string", [], false);
    this.unknownKeys(
      r,
      ["flavourId", "instantiationLevelId", "extVirtualLinks", "extManagedVirtualLinks", "vimConnectionInfo", "additionalParams", "localizationLanguage"],
      [],
    );
    this.list(r, "extVirtualLinks", [], (v, p) => this.extVirtualLink(v, p));
    this.list(r, "extManagedVirtualLinks", [], (v, p) => {
      if (!this.expect(v, "object", p)) return;
      const m = v as Record<string, unknown>;
      this.field(m, "id", "string", p, true);
      this.field(m, "vnfVirtualLinkDescId", "string", p, true);
      this.field(m, "resourceId", "string", p, true);
      this.field(m, "vimConnectionId", "string", p, false);
    });
    this.list(r, "vimConnectionInfo", [], (v, p) => this.vimConnectionInfo(v, p));
    this.field(r, "additionalParams", "object", [], false);
  }

  changeExtConn(value: unknown): void {
    if (!this.expect(value, "object", [])) return;
    const r = value as Record<string, unknown>;
    this.unknownKeys(r, ["extVirtualLinks", "vimConnectionInfo", "additionalParams"], []);
    if (this.field(r, "extVirtualLinks", "array", [], true)) {
      if ((r.extVirtualLinks as unknown[]).length === 0) this.error("REQUEST_BAD_VALUE", "extVirtualLinks must name at least one link", ["extVirtualLinks"]);
      this.list(r, "extVirtualLinks", [], (v, p) => this.extVirtualLink(v, p));
    }
    this.list(r, "vimConnectionInfo", [], (v, p) => this.vimConnectionInfo(v, p));
    this.field(r, "additionalParams", "object", [], false);
  }

  changeVnfpkg(value: unknown): void {
    if (!this.expect(value, "object", [])) return;
    const r = value as Record<string, unknown>;
    this.unknownKeys(
      r,
      ["vnfdId", "extVirtualLinks", "extManagedVirtualLinks", "vimConnectionInfo", "additionalParams", "extensions", "vnfConfigurableProperties"],
      [],
    );
    this.field(r, "vnfdId", "string", [], true);
    for (const key of ["extVirtualLinks", "extManagedVirtualLinks"]) {
      if (r[key] !== undefined)
        this.error(
          "REQUEST_UNSUPPORTED",
          `\`${key}\` in a change of package is not supported: change the links with nfv change-ext-conn, before or after`,
          [key],
          true,
        );
    }
    this.list(r, "vimConnectionInfo", [], (v, p) => this.vimConnectionInfo(v, p));
    if (!this.field(r, "additionalParams", "object", [], true)) return;
    const a = r.additionalParams as Record<string, unknown>;
    const at = ["additionalParams"];
    if (this.field(a, "upgrade_type", "string", at, true) && a.upgrade_type !== "RollingUpdate") {
      this.error("REQUEST_UNSUPPORTED", `upgrade_type ${String(a.upgrade_type)} is not supported: RollingUpdate only (as Tacker)`, [...at, "upgrade_type"]);
    }
    this.list(a, "vdu_params", at, (v, p) => {
      if (!this.expect(v, "object", p)) return;
      const d = v as Record<string, unknown>;
      this.field(d, "vdu_id", "string", p, true);
      this.field(d, "old_vnfc_param", "object", p, false);
      this.field(d, "new_vnfc_param", "object", p, false);
    });
    if (a.batch_size !== undefined && !(Number.isInteger(a.batch_size) && (a.batch_size as number) >= 1)) {
      this.error("REQUEST_BAD_VALUE", "batch_size must be a whole number, 1 or more (VNFCs replaced by one up)", [...at, "batch_size"]);
    }
  }

  private vimConnectionInfo(v: unknown, p: YamlPath): void {
    if (!this.expect(v, "object", p)) return;
    const m = v as Record<string, unknown>;
    this.field(m, "id", "string", p, true);
    this.field(m, "vimId", "string", p, false);
    this.field(m, "vimType", "string", p, true);
    this.field(m, "interfaceInfo", "object", p, false);
    this.field(m, "accessInfo", "object", p, false);
  }

  private extVirtualLink(v: unknown, p: YamlPath): void {
    if (!this.expect(v, "object", p)) return;
    const l = v as Record<string, unknown>;
    this.field(l, "id", "string", p, true);
    this.field(l, "resourceId", "string", p, true);
    this.field(l, "vimConnectionId", "string", p, false);
    if (this.field(l, "extCps", "array", p, true)) {
      this.list(l, "extCps", p, (cp, cpPath) => {
        if (!this.expect(cp, "object", cpPath)) return;
        const c = cp as Record<string, unknown>;
        this.field(c, "cpdId", "string", cpPath, true);
        this.field(c, "cpConfig", "array", cpPath, true);
        this.list(c, "cpConfig", cpPath, (cfg, cfgPath) => this.cpConfig(cfg, cfgPath));
      });
    }
  }

  private cpConfig(v: unknown, p: YamlPath): void {
    if (!this.expect(v, "object", p)) return;
    const c = v as Record<string, unknown>;
    this.field(c, "cpInstanceId", "string", p, false);
    this.field(c, "linkPortId", "string", p, false);
    this.list(c, "cpProtocolData", p, (d, dp) => {
      if (!this.expect(d, "object", dp)) return;
      const data = d as Record<string, unknown>;
      this.field(data, "layerProtocol", "string", dp, true);
      if (data.layerProtocol !== undefined && data.layerProtocol !== "IP_OVER_ETHERNET") {
        this.error("REQUEST_BAD_VALUE", "layerProtocol must be IP_OVER_ETHERNET", [...dp, "layerProtocol"]);
      }
      if (!this.field(data, "ipOverEthernet", "object", dp, false)) return;
      const ipoe = data.ipOverEthernet as Record<string, unknown>;
      const ip = [...dp, "ipOverEthernet"];
      this.field(ipoe, "macAddress", "string", ip, false);
      this.list(ipoe, "ipAddresses", ip, (a, ap) => {
        if (!this.expect(a, "object", ap)) return;
        const addr = a as Record<string, unknown>;
        if (this.field(addr, "type", "string", ap, true) && addr.type !== "IPV4" && addr.type !== "IPV6") {
          this.error("REQUEST_BAD_VALUE", "type must be IPV4 or IPV6", [...ap, "type"]);
        }
        this.field(addr, "subnetId", "string", ap, false);
        if (this.field(addr, "fixedAddresses", "array", ap, false)) {
          (addr.fixedAddresses as unknown[]).forEach((f, i) => this.expect(f, "string", [...ap, "fixedAddresses", i]));
        }
      });
    });
  }

  private list(obj: Record<string, unknown>, key: string, at: YamlPath, each: (v: unknown, p: YamlPath) => void): void {
    if (!this.field(obj, key, "array", at, false)) return;
    (obj[key] as unknown[]).forEach((v, i) => each(v, [...at, key, i]));
  }

  /** True when the field is present and of the right kind. */
  private field(obj: Record<string, unknown>, key: string, kind: Kind, at: YamlPath, required: boolean): boolean {
    const path = [...at, key];
    if (obj[key] === undefined || obj[key] === null) {
      if (required) this.error("REQUEST_MISSING_FIELD", `\`${key}\` is required`, at, true);
      return false;
    }
    return this.expect(obj[key], kind, path);
  }

  private expect(value: unknown, kind: Kind, path: YamlPath): boolean {
    const actual = Array.isArray(value) ? "array" : value === null ? "null" : typeof value;
    if (actual === kind) return true;
    this.error("REQUEST_TYPE", `expected ${kind === "array" ? "an array" : `a ${kind}`}, found ${actual}`, path);
    return false;
  }

  private unknownKeys(obj: Record<string, unknown>, known: string[], at: YamlPath): void {
    for (const key of Object.keys(obj)) {
      if (!known.includes(key)) this.bag.warning("REQUEST_UNKNOWN_FIELD", `unknown field \`${key}\``, this.doc.keyLocation([...at, key]));
    }
  }

  private error(code: string, message: string, path: YamlPath, atKey = false): void {
    this.bag.error(code, message, atKey ? this.doc.keyLocation(path) : this.doc.location(path));
  }
}
