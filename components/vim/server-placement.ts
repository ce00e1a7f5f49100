/**
 * Where Nova placed a server (compute host and availability zone), read from the Compute API with
 * a VIM's credentials. The openstack provider does not expose the host, and a hardware-aware
 * Kubernetes cluster labels its nodes with it (Tacker's `CIS-node`).
 *
 * The password and the token stay in memory: nothing is written, logged or put in an error.
 */
import * as http from "node:http";
import * as https from "node:https";
import type * as pulumi from "@pulumi/pulumi";
import type { OpenStackVimSpec } from "../../translators/tacker/vim-config";

export interface ServerPlacement {
  /**
   * The compute host (`OS-EXT-SRV-ATTR:host`, shown to admins only), else Nova's `hostId`: a hash
   * of host and project, shown to every member, equal for two servers exactly when they share a host.
   */
  host: string;
  /** `host` is the opaque `hostId` (the VIM's user is not an admin). */
  hostIsHash: boolean;
  /** `OS-EXT-AZ:availability_zone`, when Nova reports one. */
  zone?: string;
}

/** What a component asks for placements: `OpenStackVim` answers with its credentials. */
export interface ServerPlacementSource {
  placementOf(serverId: pulumi.Input<string>): pulumi.Output<ServerPlacement>;
}

/** Keystone v3 password credentials: a Tacker `vim-config.yaml`'s (`caCert` trusted instead of the system's CAs). */
export type KeystoneCredentials = Omit<OpenStackVimSpec, "type">;

interface Reply { status: number; headers: http.IncomingHttpHeaders; body: string }

function request(url: string, creds: KeystoneCredentials, o: { method: string; headers: Record<string, string>; body?: string }): Promise<Reply> {
  const u = new URL(url);
  const tls = u.protocol === "https:";
  const lib = tls ? https : http;
  // A length, not chunked encoding: uwsgi-served APIs (Keystone in Debian) read no chunked body.
  const headers = o.body === undefined ? o.headers : { ...o.headers, "content-length": String(Buffer.byteLength(o.body)) };
  const options: https.RequestOptions = {
    method: o.method, headers, timeout: 30_000,
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
function apiMessage(body: string): string {
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

interface Catalog { type: string; endpoints: { interface: string; region?: string; region_id?: string; url: string }[] }

/** A project-scoped token and the public Compute endpoint of the region. */
async function computeSession(creds: KeystoneCredentials): Promise<{ token: string; compute: string }> {
  const url = `${keystoneV3(creds.authUrl)}/auth/tokens`;
  const r = await request(url, creds, {
    method: "POST", headers: { "content-type": "application/json" },
    body: JSON.stringify({ auth: {
      identity: { methods: ["password"], password: { user: { name: creds.username, domain: { name: creds.userDomainName }, password: creds.password } } },
      scope: { project: { name: creds.projectName, domain: { name: creds.projectDomainName } } },
    } }),
  });
  if (r.status !== 201) throw new Error(`Keystone ${url} refused user '${creds.username}' for project '${creds.projectName}': HTTP ${r.status}${apiMessage(r.body)}`);
  const token = r.headers["x-subject-token"];
  const catalog = (JSON.parse(r.body) as { token: { catalog?: Catalog[] } }).token.catalog ?? [];
  const compute = catalog.find((s) => s.type === "compute")?.endpoints
    .find((e) => e.interface === "public" && (!creds.region || e.region === creds.region || e.region_id === creds.region));
  if (typeof token !== "string" || !compute) throw new Error(`Keystone ${url}: no token or no public compute endpoint${creds.region ? ` in region ${creds.region}` : ""} in the catalog`);
  return { token, compute: compute.url.replace(/\/+$/, "") };
}

/** GET /servers/{id}: the server's host (or hostId) and zone. */
export async function fetchServerPlacement(creds: KeystoneCredentials, serverId: string): Promise<ServerPlacement> {
  const { token, compute } = await computeSession(creds);
  const r = await request(`${compute}/servers/${encodeURIComponent(serverId)}`, creds, { method: "GET", headers: { "x-auth-token": token, accept: "application/json" } });
  if (r.status !== 200) throw new Error(`Nova ${compute}: server ${serverId}: HTTP ${r.status}${apiMessage(r.body)}`);
  const server = (JSON.parse(r.body) as { server: Record<string, unknown> }).server;
  const host = server["OS-EXT-SRV-ATTR:host"];
  const hostId = server.hostId;
  const zone = server["OS-EXT-AZ:availability_zone"];
  const placement: ServerPlacement = typeof host === "string" && host
    ? { host, hostIsHash: false }
    : { host: typeof hostId === "string" ? hostId : "", hostIsHash: true };
  if (!placement.host) throw new Error(`Nova ${compute}: server ${serverId} has no host yet (status ${String(server.status)})`);
  if (typeof zone === "string" && zone) placement.zone = zone;
  return placement;
}
