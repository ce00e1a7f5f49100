/**
 * examples/cnf-kubernetes as a user and as CI run it. First the preview workflow's own script
 * (tools/preview-examples, what .github/workflows/preview.yml calls) on the example's `ci` stack:
 * from a copy of the checkout, pulumi-nfv installed from `npm pack`, no cluster and no credential,
 * the pull request's comment naming what would be created. Then the example as a Pulumi project of
 * its own, pulumi-nfv installed from `npm pack` (test/package/install-packed.ts), on the lab
 * Kubernetes API with Tacker's vim-config.yaml: a preview that creates nothing, an up whose chart's
 * Deployment is Available with the request's image, a scale through `scaleLevel`, a second up with
 * no change, a destroy that leaves nothing of it.
 */
import { execFile, execFileSync } from "node:child_process";
import { cpSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import * as path from "node:path";
import { promisify } from "node:util";
import type { Stack } from "@pulumi/pulumi/automation";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { installPacked, packTarball } from "../package/install-packed";
import { openLocalStack, removeTestStack, ROOT, toolchainEnv, until, type LocalStack } from "./harness";
import { k8sLabBuilt, k8sLabDown, k8sLabUp, kubectl } from "./lab/k8s";
import { timer } from "./lab/timings";

const run = promisify(execFile);
const EXAMPLE = "cnf-kubernetes";
const { timings, timed } = timer();

let work = "";
/** pulumi-nfv packed once, for the preview script and the example's project. */
let tarball = "";

beforeAll(async () => {
  work = mkdtempSync(path.join(tmpdir(), "nfv-example-cnf-"));
  if (k8sLabBuilt) tarball = await timed("npm pack", () => packTarball(work));
}, 600_000);
afterAll(() => {
  if (work) rmSync(work, { recursive: true, force: true });
  console.log(`example ${EXAMPLE} timings (s): ${JSON.stringify(timings)}`);
});

describe.skipIf(!k8sLabBuilt)("the preview workflow's script, tools/preview-examples, from a checkout", () => {
  it("the example's ci stack previewed offline from the packed package (packed once for this file): comment.md lists the chart's Deployment and Service to create; the checkout unchanged", async () => {
    const out = path.join(work, "preview");
    const statusBefore = execFileSync("git", ["status", "--porcelain", "--ignored", "examples"], { cwd: ROOT, encoding: "utf8" });
    const env = { ...toolchainEnv() };
    // As on a pull request's runner without the team's backend: the script's own file backend.
    delete env.PULUMI_BACKEND_URL;
    delete env.PULUMI_CONFIG_PASSPHRASE;
    const r = await timed("tools/preview-examples ci", () =>
      run(path.join(ROOT, "tools/preview-examples"), ["ci", out, tarball], { cwd: ROOT, env, maxBuffer: 16 << 20 }),
    );
    expect(r.stdout).toContain("previewed 1 example(s)");
    const comment = readFileSync(path.join(out, "comment.md"), "utf8");
    expect(comment).toContain(`## examples/${EXAMPLE}`);
    expect(comment).toMatch(/\| create \| update \| replace \| delete \|\n\|---:\|---:\|---:\|---:\|\n\| 7 \| 0 \| 0 \| 0 \|/);
    expect(comment).toContain("| `+` create | `web-helm-web:default/web` | `kubernetes:apps/v1:Deployment` |");
    expect(comment).toContain("| `+` create | `web-helm-web:default/web` | `kubernetes:core/v1:Service` |");
    expect(execFileSync("git", ["status", "--porcelain", "--ignored", "examples"], { cwd: ROOT, encoding: "utf8" })).toBe(statusBefore);
  });
});

describe.skipIf(!k8sLabBuilt)("examples/cnf-kubernetes from the packed package, on the lab Kubernetes API", () => {
  let local: LocalStack | undefined;
  let stack!: Stack;
  let labHeld = false;
  const set = (key: string, value: string) => stack.setConfig(`${EXAMPLE}:${key}`, { value });
  /** The example's Deployment `web`, if there: its image, replicas, available replicas and instance label. */
  const web = (): string[] | undefined => {
    const names = kubectl("get", "deployments", "-o", "jsonpath={.items[*].metadata.name}").split(" ");
    if (!names.includes("web")) return undefined;
    const fields = "{.spec.template.spec.containers[0].image} {.spec.replicas} {.status.availableReplicas} {.metadata.labels.tacker_vnf_instance_id}";
    return kubectl("get", "deployment", "web", "-o", `jsonpath=${fields}`).split(" ");
  };

  beforeAll(async () => {
    const vimConfig = k8sLabUp("example-cnf-on-k8s-lab");
    labHeld = true;
    const app = path.join(work, EXAMPLE);
    cpSync(path.join(ROOT, "examples", EXAMPLE), app, { recursive: true });
    await timed("install", () => installPacked(tarball, app));
    local = await openLocalStack({ stackName: "it-example-cnf", workDir: app });
    stack = local.stack;
    await set("vimConfig", vimConfig);
    await set("instantiateRequest", path.join(app, "requests/instantiate.json"));
  }, 900_000);

  afterAll(async () => {
    if (stack) await removeTestStack(stack);
    local?.dispose();
    if (labHeld) k8sLabDown("example-cnf-on-k8s-lab");
  }, 600_000);

  it("preview: the VIM, the component, the chart and its Deployment and Service to create; nothing on the API", async () => {
    const preview = await timed("preview", () => stack.preview({ color: "never", diff: true }));
    expect(preview.changeSummary.create).toBe(7);
    expect(preview.stdout).toContain("nfv:cnf:ContainerizedVnf");
    expect(preview.stdout).toContain("kubernetes:helm.sh/v4:Chart");
    expect(web()).toBeUndefined();
  });

  let instance = "";
  it("up: the chart's Deployment web Available, with the request's image tag and the instance label; its Service", async () => {
    const up = await timed("up", () => stack.up({ color: "never" }));
    expect(up.summary.result).toBe("succeeded");
    const [image, replicas, , label] = await until("web Available", 90, () => web()?.[2] === "1" && web());
    expect([image, replicas]).toEqual(["nginx:1.27", "1"]);
    expect(label).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-8[0-9a-f]{3}-[0-9a-f]{12}$/);
    instance = label;
    expect(kubectl("get", "service", "web", "-o", "jsonpath={.spec.ports[0].port} {.metadata.labels.tacker_vnf_instance_id}")).toBe(`80 ${instance}`);
    expect(Object.keys(up.outputs.vnfcs.value as object)).toEqual(["web"]);
    expect(up.outputs.vim.value).toMatchObject({ type: "kubernetes", auth_cred: { bearer_token: "***" } });
  });

  it("scaleLevel 1 (web_aspect): the chart's replicaCount, 2 replicas Available, the same instance", async () => {
    await set("scaleLevel", "1");
    await timed("scale up", () => stack.up({ color: "never" }));
    const [, replicas, , label] = await until("2 web replicas Available", 90, () => web()?.[2] === "2" && web());
    expect([replicas, label]).toEqual(["2", instance]);
  });

  it("a second up changes nothing", async () => {
    const up = await timed("second up", () => stack.up({ color: "never" }));
    expect(Object.keys(up.summary.resourceChanges ?? {})).toEqual(["same"]);
  });

  it("destroy: no Deployment or Service web left", async () => {
    await timed("destroy", () => stack.destroy({ color: "never" }));
    await until("web gone", 90, () => web() === undefined);
    expect(kubectl("get", "services", "-o", "jsonpath={.items[*].metadata.name}").split(" ")).not.toContain("web");
  });
});
