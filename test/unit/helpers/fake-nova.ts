/**
 * A Keystone v3 + Nova stand-in on 127.0.0.1 for unit tests of the placement lookup: password
 * auth for one user, a catalog with one compute endpoint, GET /servers/{id}. The lab's real Nova
 * is used by the integration tests; this covers the client's branches (admin or member, errors).
 */
import * as http from "node:http";
import type { AddressInfo } from "node:net";

export interface FakeServer {
  host?: string;
  hostId: string;
  zone?: string;
  status?: string;
}

export interface FakeNova {
  authUrl: string;
  /** Server id → what Nova shows; `host` only when the user is an admin. */
  servers: Record<string, FakeServer>;
  /** Every request line, in order (method and path; never a body). */
  requests: string[];
  close(): Promise<void>;
}

export async function startFakeNova(user: { name: string; password: string; project: string; admin: boolean }): Promise<FakeNova> {
  const servers: Record<string, FakeServer> = {};
  const requests: string[] = [];
  const token = "tok-" + Math.random().toString(36).slice(2);
  let base = "";
  const srv = http.createServer((req, res) => {
    let body = "";
    req.on("data", (c: Buffer) => (body += c.toString()));
    req.on("end", () => {
      requests.push(`${req.method} ${req.url}`);
      const send = (status: number, json: unknown, headers: Record<string, string> = {}) => {
        res.writeHead(status, { "content-type": "application/json", ...headers });
        res.end(JSON.stringify(json));
      };
      if (req.method === "POST" && req.url === "/identity/v3/auth/tokens") {
        // As Debian's uwsgi-served Keystone: a chunked body reads as empty.
        if (req.headers["content-length"] === undefined) return send(400, { error: { code: 400, message: "Expecting to find auth in request body." } });
        const a = JSON.parse(body).auth;
        const u = a.identity.password.user;
        if (u.name !== user.name || u.password !== user.password || a.scope.project.name !== user.project)
          return send(401, { error: { code: 401, message: "The request you have made requires authentication." } });
        return send(
          201,
          { token: { catalog: [{ type: "compute", endpoints: [{ interface: "public", region: "RegionOne", url: `${base}/compute/v2.1/` }] }] } },
          { "x-subject-token": token },
        );
      }
      const m = /^\/compute\/v2\.1\/servers\/([^/]+)$/.exec(req.url ?? "");
      if (req.method === "GET" && m) {
        if (req.headers["x-auth-token"] !== token) return send(401, {});
        const s = servers[decodeURIComponent(m[1])];
        if (!s) return send(404, { itemNotFound: { code: 404, message: "Instance could not be found." } });
        return send(200, {
          server: {
            id: m[1],
            status: s.status ?? "ACTIVE",
            hostId: s.hostId,
            ...(s.zone ? { "OS-EXT-AZ:availability_zone": s.zone } : {}),
            ...(user.admin && s.host ? { "OS-EXT-SRV-ATTR:host": s.host } : {}),
          },
        });
      }
      send(404, {});
    });
  });
  await new Promise<void>((resolve) => srv.listen(0, "127.0.0.1", resolve));
  base = `http://127.0.0.1:${(srv.address() as AddressInfo).port}`;
  return { authUrl: `${base}/identity`, servers, requests, close: () => new Promise((resolve) => srv.close(() => resolve())) };
}

/** The one user the tests' stand-ins accept. */
export const FAKE_USER = { name: "nfv_user", password: "s3cret-pw", project: "nfv" };

/** Keystone credentials of FAKE_USER on a stand-in, as a vim-config.yaml gives them (`extra` overrides). */
export function fakeCredentials(nova: FakeNova, extra: Record<string, string> = {}) {
  return {
    authUrl: nova.authUrl,
    username: FAKE_USER.name,
    password: FAKE_USER.password,
    projectName: FAKE_USER.project,
    projectDomainName: "Default",
    userDomainName: "Default",
    certVerify: true,
    ...extra,
  };
}
