/**
 * The `vnfs` part of a stack config: which VNF package to instantiate on which VIM, with which
 * Tacker InstantiateVnfRequest, scale levels and heal counters. Entries are checked first
 * (structure, then the package, the request and the component graph), all problems collected.
 */
import { existsSync, readFileSync } from "node:fs";
import * as path from "node:path";
import { stableUuid } from "../components/stable-id";
import { DiagnosticBag, type SourceLocation } from "../translators/diagnostics";
import { planComponentGraph } from "../translators/graph/to-component-graph";
import type { ComponentKind } from "../translators/graph/types";
import { readInstantiateRequest, type InstantiateVnfRequest } from "../translators/tacker/instantiate-request";
import type { VnfModel } from "../translators/tosca/model";
import { openPackage, type ReadPackage } from "../translators/tosca/phase1-read/read-package";
import { translateRead } from "../translators/tosca/translate";
import type { YamlPath } from "../translators/yaml/located-yaml";

/** How the lab or an operator reaches a host over SSH; the key is read from a file, as ssh does. */
export interface SshLogin {
  user: string;
  port?: number;
  privateKeyFile?: string;
  /** authorized_keys format; pins the host key. */
  hostKey?: string;
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
  /** CNFs: whole-VNF heal counter, raised by `nfv heal`. */
  healGeneration?: number;
  /** VM VNFs with LCM hooks: how to log in to the VNFCs. */
  ssh?: SshLogin & { cpId?: string };
  /** A private registry on an existing host (no package). */
  host?: SshLogin & { address: string };
  mode?: "container" | "native";
  installationParam?: Record<string, unknown>;
}

const ENTRY_KEYS = ["vim", "package", "instantiate_request", "vnf_instance_id", "scale_levels", "heal_generations", "heal_generation", "ssh", "host", "mode", "installation_param"];
const LOGIN_KEYS = ["user", "port", "private_key_file", "host_key", "host_key_file"];

type Locate = (p: YamlPath, key?: boolean) => SourceLocation;

/** Structural checks of `vnfs` (sync): keys, types, the VIM named, files that must exist. */
export function readVnfEntries(raw: unknown, stack: string, projectRoot: string, vimTypes: Map<string, string>, locate: Locate, bag: DiagnosticBag): VnfEntry[] {
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
    for (const key of Object.keys(value)) {
      if (!ENTRY_KEYS.includes(key)) bag.error("CONFIG_UNKNOWN_KEY", `unknown key '${key}' (expected one of ${ENTRY_KEYS.join(", ")})`, at([key], true));
    }
    const file = (key: string): string | undefined => {
      const v = value[key];
      if (v === undefined) return undefined;
      if (typeof v !== "string") {
        bag.error("CONFIG_BAD_TYPE", `${key} must be a path`, at([key]));
        return undefined;
      }
      const resolved = path.resolve(projectRoot, v);
      if (!existsSync(resolved)) bag.error("CONFIG_FILE_MISSING", `${key} ${resolved} does not exist`, at([key]));
      return resolved;
    };
    const entry: VnfEntry = { name, vnfInstanceId: typeof value.vnf_instance_id === "string" ? value.vnf_instance_id : stableUuid("vnf", stack, name) };
    const vim = value.vim;
    if (value.host !== undefined) {
      entry.host = login(value.host, at, bag, true) as VnfEntry["host"];
      if (value.package !== undefined || vim !== undefined) bag.error("CONFIG_MIXED_VNF", "host: deploys on an existing host; it takes no package or vim", at(["host"], true));
    } else {
      if (typeof vim !== "string" || !vimTypes.has(vim)) {
        bag.error("CONFIG_UNKNOWN_VIM", vim === undefined ? "vim is required" : `vim '${String(vim)}' is not one of the stack's vims (${[...vimTypes.keys()].join(", ") || "none"})`, at(["vim"]));
      } else entry.vim = vim;
      entry.packagePath = file("package");
      if (value.package === undefined) bag.error("CONFIG_MISSING_FIELD", "package is required (a VNF package directory or zip)", at([]));
      entry.requestPath = file("instantiate_request");
      if (value.instantiate_request === undefined) bag.error("CONFIG_MISSING_FIELD", "instantiate_request is required (a Tacker InstantiateVnfRequest file)", at([]));
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
    entries.push(entry);
  }
  return entries;
}

function login(raw: unknown, at: Locate, bag: DiagnosticBag, withAddress: boolean): (SshLogin & { address?: string; cpId?: string }) | undefined {
  const key = withAddress ? "host" : "ssh";
  if (!isMapping(raw)) {
    bag.error("CONFIG_BAD_TYPE", `${key} must be a mapping`, at([key]));
    return undefined;
  }
  const allowed = withAddress ? ["address", ...LOGIN_KEYS] : ["cp", ...LOGIN_KEYS];
  for (const k of Object.keys(raw)) if (!allowed.includes(k)) bag.error("CONFIG_UNKNOWN_KEY", `unknown key '${key}.${k}' (expected ${allowed.join(", ")})`, at([key, k], true));
  const str = (k: string) => (typeof raw[k] === "string" ? (raw[k] as string) : undefined);
  if (withAddress && !str("address")) bag.error("CONFIG_MISSING_FIELD", "host.address is required", at([key]));
  if (!str("user")) bag.error("CONFIG_MISSING_FIELD", `${key}.user is required`, at([key]));
  const keyFile = str("private_key_file");
  if (keyFile !== undefined && !existsSync(keyFile)) bag.error("CONFIG_FILE_MISSING", `${key}.private_key_file ${keyFile} does not exist`, at([key, "private_key_file"]));
  // A host key file (e.g. the host's ssh_host_ed25519_key.pub) for hosts whose key is made at setup.
  const hostKeyFile = str("host_key_file");
  let hostKey = str("host_key");
  if (hostKeyFile !== undefined && hostKey !== undefined) bag.error("CONFIG_MIXED_KEYS", `${key}.host_key and ${key}.host_key_file: use one or the other`, at([key, "host_key_file"], true));
  else if (hostKeyFile !== undefined && !existsSync(hostKeyFile)) bag.error("CONFIG_FILE_MISSING", `${key}.host_key_file ${hostKeyFile} does not exist`, at([key, "host_key_file"]));
  else if (hostKeyFile !== undefined) hostKey = readFileSync(hostKeyFile, "utf8").trim().split(/\s+/).slice(0, 2).join(" ");
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
  };
}

/** A whole number ≥ 0; `pulumi config set --path` stores numbers as digit strings, so those count too. */
function wholeNumber(v: unknown): number | undefined {
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
}

/** Translates each entry's package, reads its request and plans its graph; problems go into `bag`. */
export async function prepareVnfs(entries: VnfEntry[], bag: DiagnosticBag): Promise<PreparedVnf[]> {
  const prepared: PreparedVnf[] = [];
  for (const entry of entries) {
    if (entry.host) {
      prepared.push({ entry, component: "registry-on-host" });
      continue;
    }
    if (!entry.packagePath || !entry.requestPath) continue;
    const pkg = await openPackage(entry.packagePath);
    const { model, diagnostics } = translateRead(pkg);
    bag.add(...diagnostics);
    const read = readInstantiateRequest(readFileSync(entry.requestPath, "utf8"), entry.requestPath);
    bag.add(...read.diagnostics);
    if (!model || !read.request) continue;
    const planned = planComponentGraph(model, read.request.flavourId, read.request);
    bag.add(...planned.diagnostics.map((d) => ({ ...d, file: d.file ?? entry.requestPath })));
    const kind = planned.graph?.nodes.find((n) => n.kind === "component");
    if (kind?.kind !== "component") continue;
    prepared.push({ entry, component: kind.component, pkg, model, request: read.request });
  }
  return prepared;
}

function isMapping(v: unknown): v is Record<string, unknown> {
  return typeof v === "object" && v !== null && !Array.isArray(v);
}
