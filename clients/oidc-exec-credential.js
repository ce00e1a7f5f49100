// A Kubernetes exec credential plugin (client.authentication.k8s.io/v1) for Tacker's OIDC
// Kubernetes VIMs: a resource owner password grant at the VIM's oidc_token_url, as Tacker makes
// it, gets an id_token; it is printed as the ExecCredential's token with the token's own expiry,
// so that client-go (the kubernetes provider) and clients/kube-api.ts ask again once it expires.
// It runs as `node -e <this file's text>` from the kubeconfig (no path to find on the machine);
// its inputs come in the environment (the kubeconfig's exec.env, a Pulumi secret), never on a
// command line, and no secret is ever printed.
"use strict";
const http = require("node:http");
const https = require("node:https");

const env = process.env;
const fail = (message) => {
  process.stderr.write(`OIDC token from ${env.NFV_OIDC_TOKEN_URL}: ${message}\n`);
  process.exit(1);
};

const form = new URLSearchParams({
  grant_type: "password",
  scope: "openid",
  client_id: env.NFV_OIDC_CLIENT_ID || "",
  username: env.NFV_OIDC_USERNAME || "",
  password: env.NFV_OIDC_PASSWORD || "",
});
if (env.NFV_OIDC_CLIENT_SECRET) form.set("client_secret", env.NFV_OIDC_CLIENT_SECRET);

let url;
try {
  url = new URL(env.NFV_OIDC_TOKEN_URL || "");
} catch {
  fail("not a URL");
}
const body = form.toString();
const request = (url.protocol === "https:" ? https : http).request(
  url,
  {
    method: "POST",
    headers: { "Content-Type": "application/x-www-form-urlencoded", "Content-Length": Buffer.byteLength(body), Accept: "application/json" },
    // The VIM's ssl_ca_cert verifies the issuer too (Tacker's bundle of the API's and the issuer's CA); None: not verified.
    ca: env.NFV_OIDC_CA || undefined,
    rejectUnauthorized: env.NFV_OIDC_INSECURE !== "1",
    timeout: 30000,
  },
  (res) => {
    const chunks = [];
    res.on("data", (c) => chunks.push(c));
    res.on("end", () => answer(res.statusCode, Buffer.concat(chunks).toString("utf8")));
  },
);
request.on("timeout", () => request.destroy(new Error("timed out after 30 s")));
request.on("error", (e) => fail(e.message));
request.end(body);

function answer(status, text) {
  let reply;
  try {
    reply = JSON.parse(text);
  } catch {
    fail(`HTTP ${status}, not JSON`);
  }
  // OAuth errors (RFC 6749 5.2) name what is wrong without echoing the credentials.
  if (status !== 200) fail(`HTTP ${status}: ${[reply.error, reply.error_description].filter(Boolean).join(": ") || "no error given"}`);
  const token = reply.id_token;
  if (typeof token !== "string" || token.split(".").length !== 3) fail("the answer has no id_token (is 'openid' a scope of the client?)");
  let exp;
  try {
    exp = JSON.parse(Buffer.from(token.split(".")[1], "base64url").toString("utf8")).exp;
  } catch {
    fail("the id_token's claims are not JSON");
  }
  const expires = typeof exp === "number" ? exp * 1000 : Date.now() + (Number(reply.expires_in) || 60) * 1000;
  process.stdout.write(
    JSON.stringify({
      apiVersion: "client.authentication.k8s.io/v1",
      kind: "ExecCredential",
      status: { token, expirationTimestamp: new Date(expires).toISOString().replace(/\.\d{3}Z$/, "Z") },
    }) + "\n",
  );
}
