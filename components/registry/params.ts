/**
 * Tacker's `additionalParams.private_registry_installation_param`, accepted as the seed's
 * `private_registry_param_file.json` writes it, checked before anything is registered.
 */
import { DiagnosticBag } from "../../translators/diagnostics";
import { componentPackageFileOnDisk, type PackageGiven } from "../package-file";
import { parseNoProxy, parseProxyUrl, type NoProxyToken, type ProxyUrl } from "../host-files";

/** The VNFC id of a registry on an existing host. */
export const HOST_VNFC = "host";

export interface RegistryProxy {
  httpProxy?: ProxyUrl;
  httpsProxy?: ProxyUrl;
  noProxy?: NoProxyToken[];
}

/** The checked parameters. */
export interface RegistryInstallation {
  /** `ssh_cp_name`; absent only for an existing host. */
  sshCpName?: string;
  /** `ssh_username`. */
  sshUsername: string;
  /** `ssh_password` (Tacker parity; prefer a key). */
  sshPassword?: string;
  /** `image_path`: the `docker save` tarball, a regular file of the package (directory or zip), on disk (components/package-file.ts). */
  imageFile?: string;
  /** `port_no`, default 5000. */
  portNo: number;
  proxy: RegistryProxy;
}

export const PARAM_KEY = "private_registry_installation_param";
const PATH = `additionalParams.${PARAM_KEY}`;

/**
 * Reads the parameters. `cpIds` (the flavour's CPs) is given for a VNF, where `ssh_cp_name` is
 * required and must name one; `packageSource` (or `packageDir`) is the package `image_path` must be a regular file of.
 */
export function readRegistryInstallation(
  raw: unknown,
  opts: PackageGiven & { cpIds?: string[]; sshUsername?: string },
): { value?: RegistryInstallation; bag: DiagnosticBag } {
  const bag = new DiagnosticBag();
  if (raw === undefined || raw === null) {
    if (opts.cpIds) {
      bag.error("REGISTRY_PARAM_MISSING", `\`${PATH}\` is required`, { path: PATH });
      return { bag };
    }
    raw = {};
  }
  if (typeof raw !== "object" || Array.isArray(raw)) {
    bag.error("REGISTRY_PARAM_TYPE", `\`${PATH}\` must be an object`, { path: PATH });
    return { bag };
  }
  const p = raw as Record<string, unknown>;
  const known = ["ssh_cp_name", "ssh_username", "ssh_password", "image_path", "port_no", "proxy"];
  for (const k of Object.keys(p)) if (!known.includes(k)) bag.warning("REGISTRY_PARAM_UNKNOWN", `unknown key \`${k}\``, { path: `${PATH}.${k}` });
  const str = (k: string): string | undefined => {
    const v = p[k];
    if (v === undefined || v === null) return undefined;
    if (typeof v !== "string") {
      bag.error("REGISTRY_PARAM_TYPE", `\`${k}\` must be a string`, { path: `${PATH}.${k}` });
      return undefined;
    }
    return v;
  };
  const sshCpName = str("ssh_cp_name");
  if (opts.cpIds) {
    if (!sshCpName)
      bag.error("REGISTRY_SSH_CP_NAME", "`ssh_cp_name` is required: the CP whose address the install runs over SSH", { path: `${PATH}.ssh_cp_name` });
    else if (!opts.cpIds.includes(sshCpName))
      bag.error("REGISTRY_SSH_CP_NAME", `ssh_cp_name \`${sshCpName}\` is not a CP of the flavour (CPs: ${opts.cpIds.join(", ")})`, {
        path: `${PATH}.ssh_cp_name`,
      });
  }
  const sshUsername = str("ssh_username") ?? opts.sshUsername;
  if (!sshUsername) bag.error("REGISTRY_SSH_USERNAME", "`ssh_username` is required", { path: `${PATH}.ssh_username` });
  const sshPassword = str("ssh_password");
  const imagePath = str("image_path");
  let imageFile: string | undefined;
  if (imagePath !== undefined) {
    const found = componentPackageFileOnDisk(opts, imagePath);
    if ("reason" in found) bag.error("REGISTRY_IMAGE_PATH", `image_path ${imagePath} ${found.reason}`, { path: `${PATH}.image_path` });
    else imageFile = found.path;
  }
  let portNo = 5000;
  const rawPort = p.port_no;
  if (rawPort !== undefined && rawPort !== null) {
    const n = typeof rawPort === "number" ? rawPort : typeof rawPort === "string" && /^\d+$/.test(rawPort.trim()) ? Number(rawPort.trim()) : NaN;
    if (!Number.isInteger(n) || n < 1 || n > 65535)
      bag.error("REGISTRY_PORT_NO", `port_no ${JSON.stringify(rawPort)} is not a TCP port (1-65535)`, { path: `${PATH}.port_no` });
    else portNo = n;
  }
  const proxy: RegistryProxy = {};
  if (p.proxy !== undefined && p.proxy !== null) {
    if (typeof p.proxy !== "object" || Array.isArray(p.proxy)) bag.error("REGISTRY_PARAM_TYPE", "`proxy` must be an object", { path: `${PATH}.proxy` });
    else {
      const px = p.proxy as Record<string, unknown>;
      const field = (k: string): string | undefined => {
        const v = px[k];
        if (v === undefined || v === null || v === "") return undefined;
        if (typeof v === "string") return v;
        bag.error("REGISTRY_PARAM_TYPE", `proxy.${k} must be a string`, { path: `${PATH}.proxy.${k}` });
        return undefined;
      };
      // The reasons name the field, never the value: a proxy URL may hold a password.
      for (const [k, key] of [
        ["http_proxy", "httpProxy"],
        ["https_proxy", "httpsProxy"],
      ] as const) {
        const v = field(k);
        if (v === undefined) continue;
        const r = parseProxyUrl(v);
        if ("reason" in r) bag.error("REGISTRY_PROXY_URL", `proxy.${k} ${r.reason}`, { path: `${PATH}.proxy.${k}` });
        else proxy[key] = r.value;
      }
      const np = field("no_proxy");
      if (np !== undefined) {
        const r = parseNoProxy(np);
        if ("reason" in r) bag.error("REGISTRY_NO_PROXY", `proxy.no_proxy ${r.reason}`, { path: `${PATH}.proxy.no_proxy` });
        else if (r.value.length > 0) proxy.noProxy = r.value;
      }
    }
  }
  if (bag.hasErrors()) return { bag };
  const value: RegistryInstallation = { sshUsername: sshUsername!, portNo, proxy };
  if (sshCpName) value.sshCpName = sshCpName;
  if (sshPassword !== undefined) value.sshPassword = sshPassword;
  if (imageFile !== undefined) value.imageFile = imageFile;
  return { value, bag };
}

/** Builds the install script's stdin (`key=value` lines). Values never contain a newline. */
export function registryStdin(fields: Record<string, string | undefined>): string {
  return Object.entries(fields)
    .filter((e): e is [string, string] => e[1] !== undefined && e[1] !== "")
    .map(([k, v]) => {
      if (/[\r\n]/.test(v)) throw new Error(`registry parameter ${k} contains a newline`);
      return `${k}=${v}\n`;
    })
    .join("");
}
