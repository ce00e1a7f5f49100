/**
 * The `local-render` stack (the embedded default without an API server) through the real engine:
 * the built CLI, the Node.js language host and the provider plugins, driven by the Automation API.
 * Needs lab/toolchain/build.sh to have run. The `local` stack itself, on the lab's API server, is
 * tested in cnf-on-k8s-lab.test.ts.
 */
import { execFileSync } from "node:child_process";
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import * as path from "node:path";
import type { EngineEvent } from "@pulumi/pulumi/automation";
import { afterAll, beforeAll, describe, expect, it, onTestFinished } from "vitest";
import { parse } from "yaml";
import { collectChanges, renderPreviewMarkdown } from "../../cli/preview/summary";
import { configSecrets, openLocalStack, openTestStack, registerSecret, ROOT, runNfv, type LocalStack } from "./harness";

let local: LocalStack;

/** The canary inside the committed helm_info secret (its whole text is registered from the config by the canary scan). */
const HELM_PASSWORD = "nfvcanary-render-helm-password-7t3x9q1w5e8r2y6u";

beforeAll(async () => {
  local = await openLocalStack();
  registerSecret("helm_info masternode_password", HELM_PASSWORD);
}, 120_000);

afterAll(async () => {
  // Whatever happened above, leave no resources and no state behind.
  await local?.stack.destroy({ color: "never" }).catch(() => undefined);
  local?.dispose();
}, 600_000);

describe("local-render stack, real engine", () => {
  it("previews the VIMs of Pulumi.local-render.yaml, and the PR summary lists them", async () => {
    const events: EngineEvent[] = [];
    const result = await local.stack.preview({ color: "never", onEvent: (e) => events.push(e) });
    expect(result.changeSummary.create).toBeGreaterThanOrEqual(3);
    const changes = collectChanges(events);
    expect(changes.map((c) => [c.op, c.type, c.name])).toEqual(
      expect.arrayContaining([
        ["create", "nfv:vim:KubernetesVim", "local-k8s"],
        ["create", "pulumi:providers:kubernetes", "local-k8s-provider"],
      ]),
    );
    const md = renderPreviewMarkdown("local-render", changes);
    expect(md).toContain("| `+` create | `local-k8s-provider` | `pulumi:providers:kubernetes` |");
  }, 600_000);

  it("nfv preview --diff --out writes the PR summary from a real preview", async () => {
    const dir = mkdtempSync(path.join(tmpdir(), "nfv-preview-"));
    onTestFinished(() => rmSync(dir, { recursive: true, force: true }));
    const out = path.join(dir, "preview.md");
    const { code, out: printed } = await runNfv(local.env, ["preview", "--stack", "local-render", "--diff", "--out", out]);
    expect(code, printed).toBe(0);
    const md = readFileSync(out, "utf8");
    expect(md).toMatch(/^### Pulumi preview: `local-render`\n/);
    expect(md).toContain("| `+` create | `local-k8s` | `nfv:vim:KubernetesVim` |");
    expect(md).not.toContain("nfvcanary-render-");
  }, 600_000);

  it("deploys, and the outputs carry the Tacker VIM record", async () => {
    const up = await local.stack.up({ color: "never" });
    expect(up.summary.result).toBe("succeeded");
    const record = up.outputs.vims.value["local-k8s"];
    expect(record).toMatchObject({ type: "kubernetes", vim_project: { name: "nfv-local" }, auth_cred: { bearer_token: "***" }, extra: { helm_info: "***" } });
  }, 600_000);

  it("renders the sample CNF's manifests, labelled and valid against the Kubernetes schema", async () => {
    const dir = path.join(ROOT, ".render/local-k8s/1-manifest");
    const files = readdirSync(dir).filter((f) => f.endsWith(".yaml"));
    type Rendered = { apiVersion: string; kind: string; metadata: { name: string; labels?: Record<string, string> } };
    const objects = files.map((f) => [f, parse(readFileSync(path.join(dir, f), "utf8")) as Rendered] as const);
    expect(objects.map(([, o]) => `${o.kind}/${o.metadata.name}`).sort()).toEqual(["ConfigMap/curry-test001", "Deployment/vdu2", "Pod/vdu1"]);
    for (const [f, o] of objects) {
      expect(o.metadata.labels?.tacker_vnf_instance_id, f).toMatch(/^[0-9a-f-]{36}$/);
      const mod = (await import(/* @vite-ignore */ `kubernetes-models/${o.apiVersion}`)) as Record<string, new (d: unknown) => { validate(): void }>;
      expect(() => new mod[o.kind](o).validate(), f).not.toThrow();
    }
  }, 120_000);

  it("a second up changes nothing", async () => {
    const up = await local.stack.up({ color: "never" });
    const changes = Object.entries(up.summary.resourceChanges ?? {}).filter(([op, n]) => op !== "same" && (n ?? 0) > 0);
    expect(changes).toEqual([]);
  }, 600_000);

  it("keeps every configured secret out of the exported state", async () => {
    const secrets = await configSecrets(local.stack, path.join(ROOT, "stacks/Pulumi.local-render.yaml"));
    // Without secrets in the config this test would prove nothing.
    expect(secrets.length).toBeGreaterThan(0);
    // `pulumi stack export` as an operator runs it (the Automation API's exportStack adds --show-secrets).
    const exported = execFileSync("pulumi", ["stack", "export", "--stack", "local-render"], { cwd: ROOT, env: local.env, encoding: "utf8" });
    for (const s of secrets) {
      expect(s.value.length, s.path).toBeGreaterThan(8);
      expect(exported.includes(s.value), `${s.path} appears in plain text in the state`).toBe(false);
    }
    expect(exported).toContain("ciphertext");
  }, 120_000);

  it("an invalid stack config fails the preview with the located problem alone, not an unhandled exception", async () => {
    // Through pulumi.RunError (stacks/run-error.ts): any other error takes the SDK's colored
    // util.inspect, which on Node.js 20.20 spends a minute or more in nodejs/node#64011 first.
    const bad = await openTestStack(local, "it-bad-config");
    try {
      await bad.setConfig("pulumi-nfv:vims.edge.type", { value: "nonsense" }, true);
      const failure = await bad.preview({ color: "never" }).then(
        () => "the preview succeeded",
        (e: Error) => e.message,
      );
      expect(failure).toMatch(
        /error: invalid configuration for stack 'it-bad-config' \(1 problem\):\n\s+Pulumi\.it-bad-config\.yaml:\d+:\d+ \(pulumi-nfv:vims\.edge\.type\): error VIM_UNKNOWN_TYPE: unknown VIM type 'nonsense'/,
      );
      expect(failure).not.toContain("unhandled exception");
      expect(failure).not.toMatch(/\n\s+at /);
    } finally {
      await bad.workspace.removeStack("it-bad-config");
    }
  }, 600_000);

  it("destroy leaves no resource and no rendered manifest", async () => {
    await local.stack.destroy({ color: "never" });
    const deployment = (await local.stack.exportStack()).deployment;
    expect(deployment.resources ?? []).toEqual([]);
    const rendered = path.join(ROOT, ".render/local-k8s");
    const files = existsSync(rendered) ? readdirSync(rendered, { recursive: true }).filter((f) => String(f).endsWith(".yaml")) : [];
    expect(files).toEqual([]);
  }, 600_000);
});
