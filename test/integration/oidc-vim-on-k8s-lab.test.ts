/**
 * An OIDC Kubernetes VIM, as Tacker registers one (`oidc_token_url`, `client_id`, `client_secret`,
 * `username`, `password`, a CA bundle of the API server's and the issuer's CAs), on the lab API
 * (lab/k8s) made to trust a real OIDC issuer on loopback (lab/oidc: Debian's glewlwyd, id_tokens
 * of 60 s): the sample CNF (its package a zip) deployed, healed and left unchanged by a second up
 * through id_tokens only (the VIM has no other credential; RBAC grants the issuer's user, not the
 * lab's admin), a token asked for again once the first has expired (by the provider and by this
 * project's API client), no credential in plain text anywhere (the canary scan), destroy. Runs when the lab binaries are cached, like the other lab API files.
 */
import { execFileSync } from "node:child_process";
import * as https from "node:https";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import * as path from "node:path";
import type { Stack } from "@pulumi/pulumi/automation";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { kubeApi } from "../../clients/kube-api";
import { buildKubeconfig } from "../../clients/kubeconfig";
import { requestIdToken, type OidcCredentials } from "../../clients/oidc";
import { writeZipPackage } from "../fixtures/zip";
import { openLocalStack, openTestStack, registerSecret, removeTestStack, ROOT, runNfv, storedState, until, type LocalStack } from "./harness";
import { k8sLabBuilt, k8sLabDown, k8sLabUp, kubectl } from "./lab/k8s";

const HOLDER = "oidc-vim-on-k8s-lab";
const STACK = "it-oidc";
const TOKEN_TTL = 60;
const USER = "oidc:nfv-operator";

let work = "";
let labVimConfig = "";
let issuerOwned = false;
let local: LocalStack;
let stack: Stack;
let oidc: OidcCredentials;
let caBundle = "";
let apiUrl = "";

const lab = (script: string, ...args: string[]) =>
  execFileSync(path.join(ROOT, "lab", script), args, {
    encoding: "utf8",
    stdio: ["ignore", "pipe", "inherit"],
    env: { ...process.env, NFV_OIDC_TOKEN_TTL: String(TOKEN_TTL) },
  });
const nfv = (...args: string[]) => runNfv(local.env, args);
const vdu2Pods = () =>
  kubectl("get", "pods", "-l", "selector=curry-probe-test001", "-o", "jsonpath={.items[*].metadata.name}").split(" ").filter(Boolean).sort();
/** Who the API server says a token is (a SelfSubjectReview over the VIM's verified TLS). */
function whoAmI(token: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const req = https.request(
      `${apiUrl}/apis/authentication.k8s.io/v1/selfsubjectreviews`,
      { method: "POST", ca: caBundle, headers: { Authorization: `Bearer ${token}`, "Content-Type": "application/json" } },
      (res) => {
        let body = "";
        res.on("data", (c: Buffer) => (body += c.toString()));
        res.on("end", () =>
          res.statusCode === 201
            ? resolve((JSON.parse(body) as { status: { userInfo: { username: string } } }).status.userInfo.username)
            : reject(new Error(`HTTP ${res.statusCode}: ${body}`)),
        );
      },
    );
    req.on("error", reject);
    req.end(JSON.stringify({ apiVersion: "authentication.k8s.io/v1", kind: "SelfSubjectReview" }));
  });
}

describe.skipIf(!k8sLabBuilt)("an OIDC Kubernetes VIM on the lab API, with a real issuer", () => {
  beforeAll(async () => {
    work = mkdtempSync(path.join(tmpdir(), "nfv-it-oidc-"));
    labVimConfig = k8sLabUp(HOLDER);
    // A person's issuer with other lifetimes would make the expiry test meaningless: start clean.
    lab("oidc/down");
    // From here the issuer is this file's: afterAll takes it down, whether its up succeeded or not.
    issuerOwned = true;
    const facts = Object.fromEntries(
      lab("oidc/up")
        .trim()
        .split("\n")
        .map((l) => [l.slice(0, l.indexOf("=")), l.slice(l.indexOf("=") + 1)]),
    );
    oidc = {
      tokenUrl: facts.token_url,
      clientId: facts.client_id,
      clientSecret: readFileSync(facts.client_secret_file, "utf8"),
      username: facts.username,
      password: readFileSync(facts.password_file, "utf8"),
    };
    registerSecret("OIDC client secret", oidc.clientSecret!);
    registerSecret("OIDC user password", oidc.password);
    lab("k8s/trust-oidc", facts.issuer, facts.ca, facts.client_id, "preferred_username");
    // The issuer's user may manage the default namespace, nothing else; the lab admin is not used.
    kubectl("create", "rolebinding", "nfv-oidc-operator", "--clusterrole=admin", `--user=${USER}`);

    // Tacker's vim-config.yaml of an OIDC VIM: one CA bundle verifies the API server and the issuer.
    const labVim = readFileSync(labVimConfig, "utf8");
    apiUrl = /^auth_url: *"?([^"\n]+)"?$/m.exec(labVim)![1];
    const apiCa = readFileSync(path.join(path.dirname(labVimConfig), "pki/ca.crt"), "utf8");
    caBundle = apiCa + readFileSync(facts.ca, "utf8");
    const quoted = (s: string) => JSON.stringify(s);
    const vimFile = path.join(work, "oidc-vim-config.yaml");
    writeFileSync(
      vimFile,
      [
        `auth_url: ${quoted(apiUrl)}`,
        `oidc_token_url: ${quoted(oidc.tokenUrl)}`,
        `client_id: ${quoted(oidc.clientId)}`,
        `client_secret: ${quoted(oidc.clientSecret!)}`,
        `username: ${quoted(oidc.username)}`,
        `password: ${quoted(oidc.password)}`,
        "ssl_ca_cert: |",
        ...caBundle
          .trimEnd()
          .split("\n")
          .map((l) => `  ${l}`),
        'project_name: "default"',
        'type: "kubernetes"',
        "",
      ].join("\n"),
      { mode: 0o600 },
    );
    local = await openLocalStack();
    stack = await openTestStack(local, STACK);
    await stack.setConfig("pulumi-nfv:vims.oidc.file", { value: vimFile }, true);
    await stack.setConfig("pulumi-nfv:vnfs.cnf.vim", { value: "oidc" }, true);
    // As Tacker onboards it, a zip: the stack program reads it through Pulumi's own TypeScript runner.
    const pkg = writeZipPackage(path.join(work, "test_cnf.zip"), path.join(ROOT, "../shared/vnf-packages/test_cnf"));
    await stack.setConfig("pulumi-nfv:vnfs.cnf.package", { value: pkg }, true);
    await stack.setConfig("pulumi-nfv:vnfs.cnf.instantiate_request", { value: "lab/requests/test-cnf-simple.json" }, true);
  }, 600_000);

  afterAll(async () => {
    await removeTestStack(stack);
    local?.dispose();
    if (labVimConfig) {
      try {
        kubectl("delete", "rolebinding", "nfv-oidc-operator", "--ignore-not-found");
        lab("k8s/trust-oidc", "--none");
      } finally {
        k8sLabDown(HOLDER);
      }
    }
    if (issuerOwned) lab("oidc/down");
    if (work) rmSync(work, { recursive: true, force: true });
  }, 600_000);

  it("the issuer's id_token (60 s) authenticates to the lab API as the issuer's user; a wrong password gets the issuer's refusal", async () => {
    const { token, expiresAt } = await requestIdToken(oidc, caBundle);
    const ttl = (expiresAt.getTime() - Date.now()) / 1000;
    expect(ttl).toBeGreaterThan(TOKEN_TTL - 15);
    expect(ttl).toBeLessThanOrEqual(TOKEN_TTL + 1);
    expect(await whoAmI(token)).toBe(USER);
    const wrong = await requestIdToken({ ...oidc, password: "not-the-password" }, caBundle).catch((e: Error) => e);
    expect(String(wrong)).toContain(`OIDC token from ${oidc.tokenUrl}: HTTP 403`);
  });

  let firstToken = "";
  it("up: the sample CNF deployed through id_tokens only; the VIM record names the OIDC client, secrets masked", async () => {
    firstToken = (await requestIdToken(oidc, caBundle)).token;
    const up = await stack.up({ color: "never" });
    expect(up.summary.result).toBe("succeeded");
    expect(kubectl("get", "deployment", "vdu2", "-o", "jsonpath={.status.availableReplicas}")).toBe("1");
    expect(kubectl("get", "pod", "vdu1", "-o", "jsonpath={.status.phase}")).toBe("Running");
    const vim = (up.outputs.vims.value as Record<string, { auth_cred: Record<string, string> }>).oidc;
    expect(vim.auth_cred).toMatchObject({
      username: "nfv-operator",
      oidc_token_url: oidc.tokenUrl,
      client_id: "pulumi-nfv",
      client_secret: "***",
      password: "***",
    });
  });

  it("no credential of the VIM in plain text in the stored state (the canary scan checks every other place)", () => {
    const state = storedState(local, STACK);
    expect(state).toContain("ciphertext");
    for (const secret of [oidc.password, oidc.clientSecret!]) expect(state).not.toContain(secret);
  });

  it("after the first id_token expired: nfv heal of a pod (this project's API client) and a second up (the provider's) ask for a new one and work", async () => {
    const exp = (JSON.parse(Buffer.from(firstToken.split(".")[1], "base64url").toString("utf8")) as { exp: number }).exp * 1000;
    await until("the first id_token expired", TOKEN_TTL + 30, () => Date.now() > exp + 2000);
    await expect(whoAmI(firstToken)).rejects.toThrow(/HTTP 401/);
    const before = vdu2Pods();
    const r = await nfv("heal", "--stack", STACK, "--vnf", "cnf", "--vnfc", before[0]);
    expect(r.code, r.out).toBe(0);
    await until("a replacement pod", 90, () => {
      const now = vdu2Pods();
      return now.length === 1 && !now.includes(before[0]);
    });
    const up = await stack.up({ color: "never" });
    expect(Object.entries(up.summary.resourceChanges ?? {}).filter(([op, n]) => op !== "same" && (n ?? 0) > 0)).toEqual([]);
  });

  it("kubeApi against the lab API: one id_token for two calls while it is valid (the renewal after expiry: the heal above and the unit test)", async () => {
    let asked = 0;
    const counting = (o: OidcCredentials, ca: string | null) => (asked++, requestIdToken(o, ca));
    const kubeconfig = buildKubeconfig({ name: "oidc", server: apiUrl, namespace: "default", caPem: caBundle, oidc });
    const api = kubeApi(kubeconfig, undefined, counting);
    expect((await api.listPods("default")).length).toBeGreaterThan(0);
    expect((await api.listPods("default")).length).toBeGreaterThan(0);
    expect(asked).toBe(1);
  });

  it("destroy removes the CNF's objects", async () => {
    await stack.destroy({ color: "never" });
    expect(kubectl("get", "deployment,pod,configmap", "-l", "tacker_vnf_instance_id", "-o", "name")).toBe("");
  });
});
