/**
 * Tacker's OIDC for a Kubernetes VIM: the exec credential plugin run for real (node, as client-go
 * runs it) against a fake token endpoint on loopback (plain HTTP here; TLS against a real issuer is
 * the lab test's, test/integration/oidc-vim-on-k8s-lab.test.ts), the kubeconfig's exec stanza both
 * ways, and kubeApi asking for a new id_token only when the one it has expires.
 */
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { parse, stringify } from "yaml";
import { kubeApi, type HttpRequest } from "../../../clients/kube-api";
import { buildKubeconfig, parseKubeconfig } from "../../../clients/kubeconfig";
import { oidcExec, requestIdToken, type IdToken, type OidcCredentials } from "../../../clients/oidc";

const SECRET = "s3cr3t-client";
const PASSWORD = "pa55-operator";
/** A JWT-shaped token (the plugin reads its claims, it does not verify them: the API server does). */
const jwt = (claims: object) => ["e30", Buffer.from(JSON.stringify(claims)).toString("base64url"), "sig"].join(".");

let server: Server;
let tokenUrl = "";
const forms: URLSearchParams[] = [];
let reply: { status: number; body: object } = { status: 200, body: {} };

beforeAll(async () => {
  server = createServer((req, res) => {
    let body = "";
    req.on("data", (c: Buffer) => (body += c.toString()));
    req.on("end", () => {
      forms.push(new URLSearchParams(body));
      res.writeHead(reply.status, { "Content-Type": "application/json" }).end(JSON.stringify(reply.body));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  tokenUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}/oidc/token`;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

const creds = (): OidcCredentials => ({ tokenUrl, clientId: "pulumi-nfv", clientSecret: SECRET, username: "nfv-operator", password: PASSWORD });

describe("the OIDC exec credential plugin", () => {
  it("makes Tacker's password grant and returns the id_token with its own expiry", async () => {
    const exp = Math.floor(Date.now() / 1000) + 120;
    const idToken = jwt({ iss: "https://idp", sub: "nfv-operator", exp });
    reply = { status: 200, body: { access_token: "not-this-one", id_token: idToken, token_type: "Bearer", expires_in: 3600 } };
    const token = await requestIdToken(creds(), null);
    expect(token).toEqual({ token: idToken, expiresAt: new Date(exp * 1000) });
    expect(Object.fromEntries(forms.at(-1)!)).toEqual({
      grant_type: "password",
      scope: "openid",
      client_id: "pulumi-nfv",
      client_secret: SECRET,
      username: "nfv-operator",
      password: PASSWORD,
    });
  });

  it("fails with the issuer's OAuth error, never echoing the password or the client secret", async () => {
    reply = { status: 401, body: { error: "invalid_grant", error_description: "wrong user credentials" } };
    const err = await requestIdToken(creds(), null).catch((e: Error) => e);
    expect((err as Error).message).toBe(`OIDC token from ${tokenUrl}: HTTP 401: invalid_grant: wrong user credentials`);
    expect((err as Error).message).not.toContain(PASSWORD);
    reply = { status: 200, body: { access_token: "a", token_type: "Bearer" } };
    await expect(requestIdToken(creds(), null)).rejects.toThrow("the answer has no id_token (is 'openid' a scope of the client?)");
  });

  it("has its secrets in the environment only: the command line is node and the plugin's fixed source", () => {
    const exec = oidcExec(creds(), "-----BEGIN CERTIFICATE-----\n...\n");
    expect(exec.command).toBe("node");
    expect(exec.args[0]).toBe("-e");
    expect(exec.args.join(" ")).not.toMatch(new RegExp(`${SECRET}|${PASSWORD}|nfv-operator`));
    expect(exec.env.map((e) => e.name)).toEqual([
      "NFV_OIDC_TOKEN_URL",
      "NFV_OIDC_CLIENT_ID",
      "NFV_OIDC_CLIENT_SECRET",
      "NFV_OIDC_USERNAME",
      "NFV_OIDC_PASSWORD",
      "NFV_OIDC_CA",
    ]);
    expect(oidcExec(creds(), null).env.at(-1)).toEqual({ name: "NFV_OIDC_INSECURE", value: "1" });
  });
});

describe("an OIDC VIM's kubeconfig", () => {
  const kubeconfig = () => buildKubeconfig({ name: "edge", server: "https://192.0.2.10:6443", namespace: "nfv", caPem: null, oidc: creds() });

  it("has the exec plugin instead of a token or basic auth, and reads back to the same credentials", () => {
    const user = (parse(kubeconfig()) as { users: { user: Record<string, unknown> }[] }).users[0].user;
    expect(Object.keys(user)).toEqual(["exec"]);
    expect(user.exec).toMatchObject({ apiVersion: "client.authentication.k8s.io/v1", command: "node", interactiveMode: "Never" });
    expect(parseKubeconfig(kubeconfig()).oidc).toEqual(creds());
  });

  it("refuses another exec plugin, naming it", () => {
    const doc = parse(kubeconfig()) as { users: { user: { exec: { command: string } } }[] };
    doc.users[0].user.exec.command = "aws";
    expect(() => parseKubeconfig(stringify(doc))).toThrow("kubeconfig: users.edge: exec credential plugin 'aws' is not pulumi-nfv's OIDC plugin");
  });

  it("kubeApi asks for an id_token once, keeps it, and asks again when it is about to expire", async () => {
    const calls: HttpRequest[] = [];
    const asked: Date[] = [];
    let expiresIn = 600_000;
    const source = async (): Promise<IdToken> => {
      asked.push(new Date());
      return { token: `t${asked.length}`, expiresAt: new Date(Date.now() + expiresIn) };
    };
    const api = kubeApi(kubeconfig(), async (r) => (calls.push(r), { status: 200, body: '{"items":[]}' }), source);
    await api.listPods("nfv");
    await api.listPods("nfv");
    expect(asked).toHaveLength(1);
    expect(calls.map((c) => c.headers.Authorization)).toEqual(["Bearer t1", "Bearer t1"]);
    expiresIn = 5_000;
    const fresh = kubeApi(kubeconfig(), async (r) => (calls.push(r), { status: 200, body: '{"items":[]}' }), source);
    await fresh.listPods("nfv");
    await fresh.listPods("nfv");
    expect(calls.slice(2).map((c) => c.headers.Authorization)).toEqual(["Bearer t2", "Bearer t3"]);
  });
});
