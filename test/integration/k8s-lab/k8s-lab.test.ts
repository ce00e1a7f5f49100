/**
 * The lab Kubernetes API (lab/k8s): `up` starts etcd, the control plane and kwok on 127.0.0.1 and
 * writes a Tacker-style vim-config.yaml; the project's own VIM reader accepts it, its bearer token
 * and CA work over verified TLS, `check` exercises Deployments/HPA/heal, `down` leaves nothing.
 *
 * Runs when the binaries are already in the cache (lab/k8s/build.sh ran) or NFV_K8S_LAB=1 (then
 * `up` builds them first, which takes long on a cold machine). Otherwise it is skipped, saying why.
 */
import { execFile, execFileSync } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import { request } from "node:https";
import { homedir } from "node:os";
import * as path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { readVimConfigFile, type KubernetesVimSpec } from "../../../translators/tacker/vim-config";
import { registerSecret, scanLogsNow } from "../lab/canary-watch";

const ROOT = path.join(__dirname, "../../..");
const LAB = path.join(ROOT, "lab/k8s");
const buildSh = readFileSync(path.join(LAB, "build.sh"), "utf8");
const K8S_VERSION = /^K8S_VERSION=(\S+)/m.exec(buildSh)![1];
const CACHE = process.env.NFV_CACHE ?? path.join(homedir(), ".cache/pulumi-nfv");
const cached = existsSync(path.join(CACHE, `k8s/kube-apiserver-${K8S_VERSION}/bin/kube-apiserver`));
const enabled = cached || process.env.NFV_K8S_LAB === "1";

/** A lab script, with this file's holder name for up and down (other files may share the lab). */
function run(script: string): string {
  const args = script === "up" || script === "down" ? ["--holder", "k8s-lab"] : [];
  return execFileSync(path.join(LAB, script), args, { encoding: "utf8", stdio: ["ignore", "pipe", "inherit"] });
}

function get(spec: KubernetesVimSpec, urlPath: string, opts: { token?: string; ca?: string | null } = {}): Promise<{ status: number; body: string }> {
  const ca = opts.ca === undefined ? spec.sslCaCert : opts.ca;
  return new Promise((resolve, reject) => {
    const req = request(
      new URL(urlPath, spec.authUrl),
      { headers: { Authorization: `Bearer ${opts.token ?? spec.bearerToken}` }, ca: ca ?? undefined, rejectUnauthorized: true, timeout: 10_000 },
      (res) => {
        let body = "";
        res.on("data", (c) => (body += c));
        res.on("end", () => resolve({ status: res.statusCode ?? 0, body }));
      },
    );
    req.on("error", reject);
    req.end();
  });
}

describe.skipIf(!enabled)("lab/k8s: a real Kubernetes API on 127.0.0.1", () => {
  let vimConfig = "";
  let spec: KubernetesVimSpec;

  beforeAll(() => {
    vimConfig = run("up").trim().split("\n").pop()!;
    const { spec: s, bag } = readVimConfigFile(vimConfig);
    expect(bag.errors()).toEqual([]);
    expect(s.type).toBe("kubernetes");
    spec = s as KubernetesVimSpec;
    // Looked for by this file's canary scan: on no command line (curl reads it from stdin), in no log.
    registerSecret("k8s lab bearer token", spec.bearerToken!);
  });

  afterAll(() => {
    // down removes the lab's state and its logs (when no other file holds it): the canary scan reads them first.
    scanLogsNow();
    if (vimConfig) run("down");
  });

  it("writes a Tacker-style vim-config that the project's reader accepts", () => {
    expect(spec.authUrl).toMatch(/^https:\/\/127\.0\.0\.1:\d+$/);
    expect(spec.bearerToken).toBeTruthy();
    expect(spec.sslCaCert).toContain("BEGIN CERTIFICATE");
    expect(spec.projectName).toBe("default");
  });

  it("serves the built version over TLS verified with ssl_ca_cert, with the bearer token", async () => {
    const r = await get(spec, "/version");
    expect(r.status).toBe(200);
    expect(JSON.parse(r.body).gitVersion).toBe(K8S_VERSION);
  });

  it("refuses a wrong token (401) and fails TLS without the CA", async () => {
    expect((await get(spec, "/api", { token: "wrong" })).status).toBe(401);
    await expect(get(spec, "/api", { ca: null })).rejects.toThrow(/certificate/i);
  });

  it("has Ready kwok nodes", async () => {
    const r = await get(spec, "/api/v1/nodes?labelSelector=type%3Dkwok");
    const nodes = JSON.parse(r.body).items as { status: { conditions: { type: string; status: string }[] } }[];
    expect(nodes.length).toBeGreaterThanOrEqual(1);
    for (const n of nodes) expect(n.status.conditions.find((c) => c.type === "Ready")?.status).toBe("True");
  });

  it("passes lab/k8s/check (Deployment Available, HPA v2, scale, heal, namespace delete)", () => {
    const out = run("check");
    expect(out).toMatch(/k8s-lab check: \d+ passed, 0 failed/);
  });

  it("up is idempotent: a second run reuses the running cluster", () => {
    const again = run("up").trim().split("\n").pop();
    expect(again).toBe(vimConfig);
  });

  it("shared safely: two ups at once both succeed, and one holder's down keeps the lab up for the other", async () => {
    const script = (name: string, holder: string) =>
      new Promise<string>((resolve, reject) =>
        execFile(path.join(LAB, name), ["--holder", holder], { encoding: "utf8" }, (e, out, err) =>
          e ? reject(new Error(`${name} --holder ${holder}: ${err}`)) : resolve(out),
        ),
      );
    const [a, b] = await Promise.all([script("up", "k8s-lab-a"), script("up", "k8s-lab-b")]);
    expect(a.trim().split("\n").pop()).toBe(vimConfig);
    expect(b.trim().split("\n").pop()).toBe(vimConfig);
    await script("down", "k8s-lab-a");
    await script("down", "k8s-lab-b");
    // This file still holds it: the API answers with the same token.
    const res = await get(spec, "/api/v1/namespaces/default");
    expect(res.status).toBe(200);
  });
});

describe.skipIf(enabled)("lab/k8s (skipped)", () => {
  it.skip(`binaries not in ${CACHE}/k8s and NFV_K8S_LAB!=1: run lab/k8s/build.sh first`, () => {});
});
