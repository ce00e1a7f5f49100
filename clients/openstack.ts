/**
 * The hand-written OpenStack client: a Keystone v3 password token of a VIM's user, the endpoints of
 * its catalog, and HTTP requests that trust the VIM's CA (or, with `cert_verify: False`, none).
 * Used by components (a server's placement) and the benchmarks alike, so both authenticate as a
 * Tacker vim-config.yaml says.
 *
 * The password and the token stay in memory: nothing is written, logged or put in an error.
 */
import * as http from "node:http";
import * as https from "node:https";
import type { OpenStackVimSpec } from "../translators/tacker/vim-config";

/** Keystone v3 password credentials: a Tacker `vim-config.yaml`'s (`caCert` trusted instead of the system's CAs). */
export type KeystoneCredentials = Omit<OpenStackVimSpec, "type">;

export interface Reply {
  status: number;
  headers: http.IncomingHttpHeaders;
  body: string;
}

/** One HTTP request with the VIM's TLS settings; a 30 s timeout; the body read whole. */
export function request(
  url: string,
  creds: Pick<KeystoneCredentials, "certVerify" | "caCert">,
  o: { method: string; headers: Record<string, string>; body?: string },
): Promise<Reply> {
  const u = new URL(url);
  const tls = u.protocol === "https:";
  const lib = tls ? https : http;
  // A length, not chunked encoding: uwsgi-served APIs (Keystone in Debian) read no chunked body.
  const headers = o.body === undefined ? o.headers : { ...o.headers, "content-length": String(Buffer.byteLength(o.body)) };
  const options: https.RequestOptions = {
    method: o.method,
    headers,
    timeout: 30_000,
    ...(tls ? { rejectUnauthorized: creds.certVerify, ...(creds.caCert ? { ca: creds.caCert } : {}) } : {}),
  };
  return new Promise((resolve, reject) => {
    const req = lib.request(u, options, (res) => {
      let body = "";
      res.setEncoding("utf8");
      res.on("data", (c: string) => (body += c));
      res.on("end", () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body }));
    });
    req.on("timeout", () => req.destroy(new Error(`no answer from ${u.origin} in 30 s`)));
    req.on("error", (e) => reject(new Error(`${o.method} ${u.origin}${u.pathname}: ${e.message}`)));
    if (o.body !== undefined) req.write(o.body);
    req.end();
  });
}

/** The API's own words (`{"error": {"message": ...}}`, Nova's `{"itemNotFound": {...}}`), if any. */
export function apiMessage(body: string): string {
  try {
    const first = Object.values(JSON.parse(body) as Record<string, { message?: unknown }>)[0];
    return typeof first?.message === "string" ? ` (${first.message.slice(0, 200)})` : "";
  } catch {
    return "";
  }
}

/** `auth_url` with or without `/v3`, as Tacker accepts it. */
export function keystoneV3(authUrl: string): string {
  const base = authUrl.replace(/\/+$/, "");
  return /\/v3$/.test(base) ? base : `${base}/v3`;
}

interface Catalog {
  type: string;
  endpoints: { interface: string; region?: string; region_id?: string; url: string }[];
}

export interface KeystoneSession {
  token: string;
  projectId: string;
  /** The token's expiry, in ms since the epoch. */
  expiresAt: number;
  /** The public endpoint of a service type in the VIM's region (any region when it names none), without a trailing slash. */
  endpoint(type: string): string | undefined;
}

/** A project-scoped token of the VIM's user and its catalog. */
export async function keystoneSession(creds: KeystoneCredentials): Promise<KeystoneSession> {
  const url = `${keystoneV3(creds.authUrl)}/auth/tokens`;
  const r = await request(url, creds, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({
      auth: {
        identity: { methods: ["password"], password: { user: { name: creds.username, domain: { name: creds.userDomainName }, password: creds.password } } },
        scope: { project: { name: creds.projectName, domain: { name: creds.projectDomainName } } },
      },
    }),
  });
  if (r.status !== 201)
    throw new Error(`Keystone ${url} refused user '${creds.username}' for project '${creds.projectName}': HTTP ${r.status}${apiMessage(r.body)}`);
  const token = r.headers["x-subject-token"];
  if (typeof token !== "string") throw new Error(`Keystone ${url}: no token in the answer`);
  const body = (JSON.parse(r.body) as { token: { catalog?: Catalog[]; project?: { id: string }; expires_at?: string } }).token;
  const catalog = body.catalog ?? [];
  return {
    token,
    projectId: body.project?.id ?? "",
    expiresAt: body.expires_at ? Date.parse(body.expires_at) : Date.now(),
    endpoint: (type) =>
      catalog
        .find((s) => s.type === type)
        ?.endpoints.find((e) => e.interface === "public" && (!creds.region || e.region === creds.region || e.region_id === creds.region))
        ?.url.replace(/\/+$/, ""),
  };
}

/** The names among `names` that no image visible to the VIM's project has (Glance v2). */
export async function missingImages(creds: KeystoneCredentials, names: string[]): Promise<string[]> {
  if (names.length === 0) return [];
  const session = await keystoneSession(creds);
  const glance = session.endpoint("image");
  if (!glance) throw new Error("the VIM's catalog has no image service");
  const missing: string[] = [];
  for (const name of names) {
    const url = `${glance}/v2/images?name=${encodeURIComponent(name)}`;
    const r = await request(url, creds, { method: "GET", headers: { "x-auth-token": session.token } });
    if (r.status !== 200) throw new Error(`Glance ${url}: HTTP ${r.status}${apiMessage(r.body)}`);
    if ((JSON.parse(r.body) as { images: unknown[] }).images.length === 0) missing.push(name);
  }
  return missing;
}
