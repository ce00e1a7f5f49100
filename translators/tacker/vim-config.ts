/**
 * Tacker's `vim-config.yaml`, read as it is (`openstack vim register --config-file`).
 *
 * The same checks run for a file and for a VIM written inline in a stack config, so both report
 * every problem at once, each with its YAML path and, when there is a file, `file:line:column`.
 * The result is a plain `VimSpec`; the stack turns its credentials into Pulumi secrets.
 */
import { readFileSync } from "node:fs";
import { DiagnosticBag, DiagnosticError, type SourceLocation } from "../diagnostics";
import { isNoneCa, parseCertificateBundle, parsePrivateKey } from "../pem";
import { parseYaml, type YamlPath } from "../yaml/located-yaml";

export interface OpenStackVimSpec {
  type: "openstack";
  authUrl: string;
  username: string;
  password: string;
  projectName: string;
  projectDomainName: string;
  userDomainName: string;
  /** Tacker `cert_verify`; false means TLS is not verified. */
  certVerify: boolean;
  region?: string;
  /** pulumi-nfv extension `ca_cert`: PEM bundle of the Keystone CA, canonicalised. */
  caCert?: string;
}

export interface KubernetesVimSpec {
  type: "kubernetes";
  authUrl: string;
  bearerToken?: string;
  username?: string;
  password?: string;
  /** Canonical PEM bundle, or null when `ssl_ca_cert` is None: TLS is then not verified. */
  sslCaCert: string | null;
  /** pulumi-nfv extension: client certificate authentication (`client_certificate`, `client_key`). */
  clientCertificate?: string;
  clientKey?: string;
  /**
   * Tacker's OIDC: `username`/`password` are then the issuer's user, and an id_token from a
   * password grant at `oidc_token_url` is the bearer token.
   */
  oidc?: { tokenUrl: string; clientId: string; clientSecret?: string };
  /** The namespace (Tacker `project_name`). */
  projectName: string;
  extra?: { use_helm?: boolean; helm_info?: string };
}

export type VimSpec = OpenStackVimSpec | KubernetesVimSpec;

/** Maps a path inside the VIM document to a source position (file, line, column, path). */
export type Locator = (path: YamlPath, key?: boolean) => SourceLocation;

const OPENSTACK_KEYS = [
  "type",
  "auth_url",
  "username",
  "password",
  "project_name",
  "project_domain_name",
  "user_domain_name",
  "domain_name",
  "cert_verify",
  "region",
  "ca_cert",
];
/** Tacker's OIDC keys of a Kubernetes VIM (with username and password). */
const OIDC_KEYS = ["oidc_token_url", "client_id", "client_secret"];
const KUBERNETES_KEYS = [
  "type",
  "auth_url",
  "bearer_token",
  "username",
  "password",
  "ssl_ca_cert",
  "project_name",
  "extra",
  "client_certificate",
  "client_key",
  ...OIDC_KEYS,
];
const NAMESPACE = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?$/;

/**
 * Validates one VIM document (already parsed) and returns its spec, or undefined when there are
 * errors; every problem, error or warning, goes into `bag`.
 */
export function vimSpecFromObject(value: unknown, locate: Locator, bag: DiagnosticBag): VimSpec | undefined {
  const before = bag.errors().length;
  if (!isMapping(value)) {
    bag.error("VIM_NOT_MAPPING", "a VIM config must be a mapping of Tacker vim-config.yaml keys", locate([]));
    return undefined;
  }
  const fields = new Fields(value, locate, bag);
  const type = (fields.optionalString("type") ?? "openstack").toLowerCase();
  if (type !== "openstack" && type !== "kubernetes") {
    bag.error("VIM_UNKNOWN_TYPE", `unknown VIM type '${type}'; expected 'openstack' or 'kubernetes'`, locate(["type"]));
    return undefined;
  }
  for (const key of Object.keys(value)) {
    if (!(type === "openstack" ? OPENSTACK_KEYS : KUBERNETES_KEYS).includes(key)) {
      const hint = closest(key, type === "openstack" ? OPENSTACK_KEYS : KUBERNETES_KEYS);
      bag.error("VIM_UNKNOWN_KEY", `unknown key '${key}' for a ${type} VIM${hint ? ` (did you mean '${hint}'?)` : ""}`, locate([key], true));
    }
  }
  const authUrl = fields.url("auth_url");
  const spec = type === "openstack" ? openStackSpec(fields, authUrl) : kubernetesSpec(fields, authUrl);
  return bag.errors().length > before ? undefined : spec;
}

function openStackSpec(f: Fields, authUrl: string | undefined): OpenStackVimSpec | undefined {
  const username = f.requiredString("username");
  const password = f.requiredString("password");
  const projectName = f.requiredString("project_name");
  const domain = f.optionalString("domain_name") ?? "Default";
  // cert_verify False is valid; the OpenStackVim component warns about it when it is used.
  const certVerify = f.boolean("cert_verify", true);
  const caCert = f.certificates("ca_cert");
  if (!authUrl || !username || !password || !projectName || certVerify === undefined) return undefined;
  return {
    type: "openstack",
    authUrl,
    username,
    password,
    projectName,
    projectDomainName: f.optionalString("project_domain_name") ?? domain,
    userDomainName: f.optionalString("user_domain_name") ?? domain,
    certVerify,
    ...optional("region", f.optionalString("region")),
    ...optional("caCert", caCert ?? undefined),
  };
}

function kubernetesSpec(f: Fields, authUrl: string | undefined): KubernetesVimSpec | undefined {
  const bearerToken = f.optionalString("bearer_token");
  const username = f.optionalString("username");
  const password = f.optionalString("password");
  const hasBasic = username !== undefined || password !== undefined;
  if (username !== undefined && password === undefined) {
    f.bag.error("VIM_INCOMPLETE_CREDENTIALS", "username is set but password is missing", f.locate(["username"]));
  } else if (password !== undefined && username === undefined) {
    f.bag.error("VIM_INCOMPLETE_CREDENTIALS", "password is set but username is missing", f.locate(["password"]));
  }
  const clientCertificate = f.certificates("client_certificate");
  const clientKey = f.privateKey("client_key");
  if ((clientCertificate == null) !== (clientKey == null)) {
    f.bag.error(
      "VIM_INCOMPLETE_CREDENTIALS",
      "client_certificate and client_key go together",
      f.locate([clientKey == null ? "client_certificate" : "client_key"]),
    );
  }
  const oidcKeys = OIDC_KEYS.filter((k) => f.value[k] != null);
  if (bearerToken === undefined && !hasBasic && clientCertificate == null && oidcKeys.length === 0) {
    f.bag.error("VIM_NO_CREDENTIALS", "give bearer_token, or username and password", f.locate([]));
  }
  const oidc = oidcKeys.length > 0 ? oidcFields(f, oidcKeys, bearerToken, username, password) : undefined;
  if (bearerToken !== undefined && hasBasic && oidcKeys.length === 0) {
    f.bag.warning(
      "VIM_TOKEN_OVERRIDES_BASIC",
      "both bearer_token and username/password are set; as in Tacker, the bearer token is used",
      f.locate(["bearer_token"]),
    );
  }
  // None is valid (insecure); the KubernetesVim component prints the warning when it is used.
  const sslCaCert = isNoneCa(f.value["ssl_ca_cert"]) ? null : f.certificates("ssl_ca_cert");
  if (authUrl?.startsWith("http:") && (bearerToken !== undefined || hasBasic)) {
    f.bag.warning("VIM_PLAINTEXT_CREDENTIALS", "auth_url is http: credentials would cross the network unencrypted", f.locate(["auth_url"]));
  }
  const projectName = f.optionalString("project_name") ?? "default";
  if (!NAMESPACE.test(projectName) || projectName.length > 63) {
    f.bag.error("VIM_BAD_NAMESPACE", `project_name '${projectName}' is not a valid Kubernetes namespace (RFC 1123 label)`, f.locate(["project_name"]));
  }
  const extra = kubernetesExtra(f, sslCaCert);
  if (!authUrl || sslCaCert === undefined) return undefined;
  return {
    type: "kubernetes",
    authUrl,
    ...optional("bearerToken", bearerToken),
    ...optional("username", username),
    ...optional("password", password),
    sslCaCert,
    ...optional("clientCertificate", clientCertificate ?? undefined),
    ...optional("clientKey", clientKey ?? undefined),
    ...optional("oidc", oidc),
    projectName,
    ...optional("extra", extra),
  };
}

/** Tacker's OIDC keys, some `given`: oidc_token_url and client_id, with username and password. */
function oidcFields(
  f: Fields,
  given: string[],
  bearerToken: string | undefined,
  username: string | undefined,
  password: string | undefined,
): KubernetesVimSpec["oidc"] {
  const tokenUrl = f.value["oidc_token_url"] == null ? undefined : f.url("oidc_token_url");
  const clientId = f.optionalString("client_id");
  const clientSecret = f.optionalString("client_secret");
  // Each missing key reported at the first OIDC key given; a value of the wrong type has its own
  // error, and a username without a password (or the reverse) the basic-auth check's.
  const missing = ["oidc_token_url", "client_id"].filter((k) => f.value[k] == null);
  if (f.value["username"] == null && f.value["password"] == null) missing.push("username and password");
  for (const key of missing) f.bag.error("VIM_INCOMPLETE_CREDENTIALS", `OIDC (${given.join(", ")}) needs ${key} too`, f.locate([given[0]], true));
  if (bearerToken !== undefined) {
    f.bag.warning("VIM_OIDC_OVERRIDES_TOKEN", "both bearer_token and OIDC are set; as in Tacker, the OIDC id_token is used", f.locate(["bearer_token"]));
  }
  if (tokenUrl?.startsWith("http:")) {
    f.bag.warning(
      "VIM_PLAINTEXT_CREDENTIALS",
      "oidc_token_url is http: the password and client secret would cross the network unencrypted",
      f.locate(["oidc_token_url"]),
    );
  }
  if (tokenUrl === undefined || clientId === undefined || username === undefined || password === undefined) return undefined;
  return { tokenUrl, clientId, ...optional("clientSecret", clientSecret) };
}

function kubernetesExtra(f: Fields, sslCaCert: string | null | undefined): KubernetesVimSpec["extra"] {
  const extra = f.value["extra"];
  if (extra === undefined || extra === null) return undefined;
  if (!isMapping(extra)) {
    f.bag.error("VIM_BAD_TYPE", "extra must be a mapping", f.locate(["extra"]));
    return undefined;
  }
  const out: NonNullable<KubernetesVimSpec["extra"]> = {};
  for (const [key, v] of Object.entries(extra)) {
    if (key === "use_helm" && typeof v === "boolean") out.use_helm = v;
    else if (key === "helm_info" && typeof v === "string") out.helm_info = v;
    else if (key === "use_helm" || key === "helm_info") {
      f.bag.error("VIM_BAD_TYPE", `extra.${key} must be a ${key === "use_helm" ? "boolean" : "string"}`, f.locate(["extra", key]));
    } else {
      f.bag.error("VIM_UNKNOWN_KEY", `unknown key 'extra.${key}' (expected use_helm or helm_info)`, f.locate(["extra", key], true));
    }
  }
  // Tacker refuses Helm without a CA because its helm CLI needs a CA file; ours goes through the
  // in-memory kubeconfig, so this is only worth a warning (Tacker's own helm sample has no CA).
  if (out.use_helm && sslCaCert === null) {
    f.bag.warning(
      "VIM_HELM_WITHOUT_CA",
      "extra.use_helm without ssl_ca_cert: Tacker would refuse this VIM; pulumi-nfv accepts it, unverified",
      f.locate(["extra", "use_helm"]),
    );
  }
  return out;
}

/** Typed access to the fields of one VIM document; each accessor reports its own problems. */
class Fields {
  constructor(
    readonly value: Record<string, unknown>,
    readonly locate: Locator,
    readonly bag: DiagnosticBag,
  ) {}

  optionalString(key: string): string | undefined {
    const v = this.value[key];
    if (v === undefined || v === null) return undefined;
    if (typeof v !== "string") {
      this.bag.error("VIM_BAD_TYPE", `${key} must be a string, got ${describe(v)} (quote it in YAML)`, this.locate([key]));
      return undefined;
    }
    return v;
  }

  requiredString(key: string): string | undefined {
    if (this.value[key] === undefined || this.value[key] === null) {
      this.bag.error("VIM_MISSING_FIELD", `${key} is required`, this.locate([key]));
      return undefined;
    }
    const v = this.optionalString(key);
    if (v === "") this.bag.error("VIM_MISSING_FIELD", `${key} must not be empty`, this.locate([key]));
    return v || undefined;
  }

  url(key: string): string | undefined {
    const v = this.requiredString(key);
    if (v === undefined) return undefined;
    let url: URL;
    try {
      url = new URL(v);
    } catch {
      this.bag.error("VIM_BAD_URL", `${key} '${v}' is not a URL`, this.locate([key]));
      return undefined;
    }
    if ((url.protocol !== "https:" && url.protocol !== "http:") || url.hostname === "") {
      this.bag.error("VIM_BAD_URL", `${key} '${v}' must be an http(s) URL with a host`, this.locate([key]));
      return undefined;
    }
    return v;
  }

  /** Tacker writes booleans as 'True'/'False' strings; real YAML booleans work too. */
  boolean(key: string, fallback: boolean): boolean | undefined {
    const v = this.value[key];
    if (v === undefined || v === null) return fallback;
    if (typeof v === "boolean") return v;
    if (typeof v === "string" && /^(true|false)$/i.test(v.trim())) return v.trim().toLowerCase() === "true";
    this.bag.error("VIM_BAD_VALUE", `${key} must be True or False, got ${describe(v)}`, this.locate([key]));
    return undefined;
  }

  /** A PEM bundle; undefined when it is broken (reported), null when absent. */
  certificates(key: string): string | null | undefined {
    const v = this.optionalString(key);
    if (v === undefined) return this.value[key] === undefined || this.value[key] === null ? null : undefined;
    const parsed = parseCertificateBundle(v);
    if (!parsed.ok) {
      this.bag.error("VIM_BAD_PEM", `${key}: ${parsed.reason}`, this.locate([key]));
      return undefined;
    }
    return parsed.pem;
  }

  privateKey(key: string): string | null | undefined {
    const v = this.optionalString(key);
    if (v === undefined) return this.value[key] === undefined || this.value[key] === null ? null : undefined;
    const parsed = parsePrivateKey(v);
    if (!parsed.ok) {
      this.bag.error("VIM_BAD_PEM", `${key}: ${parsed.reason}`, this.locate([key]));
      return undefined;
    }
    return parsed.pem;
  }
}

/**
 * Reads a vim-config.yaml file. Throws one `DiagnosticError` listing every problem; warnings of a
 * valid file are returned with the spec so the caller can print them.
 */
export function readVimConfigFile(file: string): { spec: VimSpec; bag: DiagnosticBag } {
  let text: string;
  try {
    text = readFileSync(file, "utf8");
  } catch (err) {
    throw new DiagnosticError(`cannot read VIM config`, [{ severity: "error", code: "VIM_FILE_UNREADABLE", message: (err as Error).message, file }]);
  }
  return parseVimConfig(text, file);
}

/** As `readVimConfigFile`, for text already in memory; `file` names it in diagnostics. */
export function parseVimConfig(text: string, file: string): { spec: VimSpec; bag: DiagnosticBag } {
  const bag = new DiagnosticBag();
  const lenient = indentFoldedQuotedScalars(text);
  for (const line of lenient.lines) {
    bag.warning("VIM_UNINDENTED_SCALAR", "continuation lines of a quoted value are not indented; accepted as PyYAML (and so Tacker) does", { file, line });
  }
  const parsed = parseYaml(lenient.text, file);
  bag.add(...parsed.diagnostics.items);
  if (parsed.documents.length !== 1 && !parsed.diagnostics.hasErrors()) {
    bag.error("VIM_NOT_MAPPING", `expected exactly one YAML document, found ${parsed.documents.length}`, { file });
  }
  const doc = parsed.documents[0];
  const spec = doc && !bag.hasErrors() ? vimSpecFromObject(doc.value, (p, key) => (key ? doc.keyLocation(p) : doc.location(p)), bag) : undefined;
  if (!spec) bag.throwIfErrors(`invalid VIM config ${file}`);
  return { spec: spec!, bag };
}

/**
 * Tacker's docs write a certificate as a double-quoted value whose continuation lines start at
 * column 0. YAML requires them to be indented and our parser enforces that; PyYAML does not.
 * Indenting those lines keeps every line number (columns on them move by two). Returns the lines
 * where such values start, for one warning each.
 */
export function indentFoldedQuotedScalars(text: string): { text: string; lines: number[] } {
  const lines = text.split("\n");
  const touched: number[] = [];
  let start = 0; // line number of the open quoted value, 0 when outside one
  for (let i = 0; i < lines.length; i++) {
    if (start > 0) {
      if (lines[i] !== "" && !/^\s/.test(lines[i])) {
        lines[i] = "  " + lines[i];
        if (touched[touched.length - 1] !== start) touched.push(start);
      }
      if (hasClosingQuote(lines[i])) start = 0;
      continue;
    }
    const m = /^[A-Za-z_][\w-]*:\s*"(.*)$/.exec(lines[i]);
    if (m && !hasClosingQuote(m[1])) start = i + 1;
  }
  return { text: lines.join("\n"), lines: touched };
}

function hasClosingQuote(s: string): boolean {
  for (let i = 0; i < s.length; i++) {
    if (s[i] === "\\") i++;
    else if (s[i] === '"') return true;
  }
  return false;
}

function isMapping(v: unknown): v is Record<string, unknown> {
  return typeof v === "object" && v !== null && !Array.isArray(v);
}

/** The kind of a value, never the value: the field may be a password or a token. */
function describe(v: unknown): string {
  return Array.isArray(v) ? "a list" : v === null ? "null" : typeof v === "object" ? "a mapping" : `a ${typeof v}`;
}

function optional<K extends string, V>(key: K, v: V | undefined): { [P in K]?: V } {
  return (v === undefined ? {} : { [key]: v }) as { [P in K]?: V };
}

/** The allowed key closest to a misspelt one (edit distance ≤ 2), for "did you mean". */
function closest(key: string, allowed: string[]): string | undefined {
  let best: string | undefined;
  let bestDistance = 3;
  for (const candidate of allowed) {
    const d = editDistance(key.toLowerCase(), candidate);
    if (d < bestDistance) {
      best = candidate;
      bestDistance = d;
    }
  }
  return best;
}

function editDistance(a: string, b: string): number {
  let prev = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const cur = [i];
    for (let j = 1; j <= b.length; j++) {
      cur[j] = Math.min(prev[j] + 1, cur[j - 1] + 1, prev[j - 1] + (a[i - 1] === b[j - 1] ? 0 : 1));
    }
    prev = cur;
  }
  return prev[b.length];
}
