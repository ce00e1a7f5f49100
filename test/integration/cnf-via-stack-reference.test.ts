/**
 * A CNF stack on a Kubernetes VIM that another stack exports, through `vims.<name>.stack_reference`:
 * a producer stack registers the lab's real Kubernetes API (lab/k8s) as a VIM and exports its
 * kubeconfig (secret); a consumer stack, in the same backend, deploys the sample CNF on it by a
 * real `pulumi up`, and never holds the token in plain text. Runs when the lab binaries are cached,
 * like test/integration/cnf-on-k8s-lab; otherwise skipped.
 */
import { execFileSync } from "node:child_process";
import { existsSync, readFileSync, rmSync } from "node:fs";
import { homedir } from "node:os";
import * as path from "node:path";
import type { Stack } from "@pulumi/pulumi/automation";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openLocalStack, openTestStack, ROOT, type LocalStack } from "./harness";

const LAB = path.join(ROOT, "lab/k8s");
const K8S_VERSION = /^K8S_VERSION=(\S+)/m.exec(readFileSync(path.join(LAB, "build.sh"), "utf8"))![1];
const CACHE = process.env.NFV_CACHE ?? path.join(homedir(), ".cache/pulumi-nfv");
const KUBECTL = path.join(CACHE, `k8s/kubectl-${K8S_VERSION}/bin/kubectl`);
const enabled = existsSync(path.join(CACHE, `k8s/kube-apiserver-${K8S_VERSION}/bin/kube-apiserver`)) && existsSync(KUBECTL);
const STATE = path.join(process.env.NFV_LAB_STATE ?? "/var/lib/pulumi-nfv-lab", "k8s");
const PRODUCER = "it-vim-producer";
const CONSUMER = "it-cnf-consumer";

let local: LocalStack;
let producer: Stack;
let consumer: Stack;
let vimConfig = "";

const kubectl = (...args: string[]) => execFileSync(KUBECTL, ["--kubeconfig", path.join(STATE, "kubeconfig"), "-n", "default", ...args], { encoding: "utf8" }).trim();
/** The lab's nfv-admin bearer token, from the vim-config.yaml that lab/k8s/up wrote. */
const token = () => readFileSync(vimConfig, "utf8").match(/^bearer_token: *"?([^"\n]+)"?$/m)![1];
/** Whether the stack's state holds `kubeconfigs.<vim>` as a secret (ciphertext under Pulumi's secret signature). */
async function kubeconfigIsSecret(stack: Stack, vim: string): Promise<boolean> {
  const state = (await stack.exportStack()).deployment;
  const outputs = state.resources.find((r: { type: string }) => r.type === "pulumi:pulumi:Stack").outputs;
  return outputs.kubeconfigs[vim]["4dabf18193072939515e22adb298388d"] === "1b47061264138c4ac30d75fd1eb44270";
}
/** The file backend's own copy of a stack's state. */
function storedState(stack: string): string {
  const files = execFileSync("find", [local.backendDir, "-name", `${stack}.json`, "-path", "*/stacks/*"], { encoding: "utf8" }).trim().split("\n");
  expect(files).toHaveLength(1);
  return readFileSync(files[0], "utf8");
}

describe.skipIf(!enabled)("a CNF on a Kubernetes VIM of another stack (stack_reference), on the lab Kubernetes API", () => {
  beforeAll(async () => {
    vimConfig = execFileSync(path.join(LAB, "up"), { encoding: "utf8", stdio: ["ignore", "pipe", "inherit"] }).trim().split("\n").pop()!;
    local = await openLocalStack();
    producer = await openTestStack(local, PRODUCER);
    await producer.setConfig("pulumi-nfv:vims.lab.file", { value: vimConfig }, true);
    consumer = await openTestStack(local, CONSUMER);
    await consumer.setConfig("pulumi-nfv:vims.edge.stack_reference", { value: `organization/pulumi-nfv/${PRODUCER}` }, true);
    await consumer.setConfig("pulumi-nfv:vims.edge.vim", { value: "lab" }, true);
    await consumer.setConfig("pulumi-nfv:vnfs.cnf.vim", { value: "edge" }, true);
    await consumer.setConfig("pulumi-nfv:vnfs.cnf.package", { value: path.join(ROOT, "../shared/vnf-packages/test_cnf") }, true);
    await consumer.setConfig("pulumi-nfv:vnfs.cnf.instantiate_request", { value: "lab/requests/test-cnf-simple.json" }, true);
  }, 600_000);

  afterAll(async () => {
    for (const [stack, name] of [[consumer, CONSUMER], [producer, PRODUCER]] as const) {
      await stack?.destroy({ color: "never" }).catch(() => undefined);
      await stack?.workspace.removeStack(name).catch(() => undefined);
      rmSync(path.join(ROOT, `stacks/Pulumi.${name}.yaml`), { force: true });
    }
    local?.dispose();
    if (vimConfig) execFileSync(path.join(LAB, "down"), { stdio: "inherit" });
  }, 600_000);

  it("the producer exports the VIM's kubeconfig, only as a secret", async () => {
    const up = await producer.up({ color: "never" });
    expect(up.summary.result).toBe("succeeded");
    expect(await kubeconfigIsSecret(producer, "lab")).toBe(true);
    expect(up.outputs.kubeconfigs.value.lab).toContain("server: https://127.0.0.1:");
    expect(storedState(PRODUCER)).not.toContain(token());
  });

  it("a VIM the producer does not export: the consumer's preview fails, naming the stack and what it exports", async () => {
    await consumer.setConfig("pulumi-nfv:vims.edge.vim", { value: "nope" }, true);
    const started = Date.now();
    const failed = await consumer.preview({ color: "never" }).then(() => "", (e: Error) => e.message);
    console.log(`preview with an unknown referenced VIM failed after ${((Date.now() - started) / 1000).toFixed(1)} s`);
    expect(failed).toContain(`VIM 'edge' (stack_reference organization/pulumi-nfv/${PRODUCER}, vim nope): that stack exports no Kubernetes VIM 'nope'; its kubeconfigs output has: lab`);
    await consumer.setConfig("pulumi-nfv:vims.edge.vim", { value: "lab" }, true);
  });

  it("the consumer deploys the sample CNF through the referenced VIM: objects live on the lab API, no token in its state", async () => {
    const up = await consumer.up({ color: "never" });
    expect(up.summary.result).toBe("succeeded");
    expect(kubectl("get", "deployment", "vdu2", "-o", "jsonpath={.status.availableReplicas}")).toBe("1");
    expect(kubectl("get", "pod", "vdu1", "-o", "jsonpath={.status.phase}")).toBe("Running");
    const instance = (up.outputs.vnfs.value.cnf as { vnfInstanceId: string }).vnfInstanceId;
    expect(kubectl("get", "configmap", "curry-test001", "-o", "jsonpath={.metadata.labels.tacker_vnf_instance_id}")).toBe(instance);
    // The consumer's VIM record is the producer's VIM: same API server and namespace.
    const record = up.outputs.vims.value.edge as { auth_url: string; vim_project: { name: string }; type: string };
    const produced = (await producer.outputs()).vims.value.lab as { auth_url: string; vim_project: { name: string } };
    expect([record.type, record.auth_url, record.vim_project]).toEqual(["kubernetes", produced.auth_url, produced.vim_project]);
    expect(await kubeconfigIsSecret(consumer, "edge")).toBe(true);
    expect(storedState(CONSUMER)).not.toContain(token());
  });

  it("a second up of the consumer changes nothing", async () => {
    const preview = await consumer.preview({ color: "never" });
    expect(Object.keys(preview.changeSummary).filter((op) => op !== "same")).toEqual([]);
  });

  it("destroy of the consumer removes the CNF's objects; the producer's VIM stays", async () => {
    await consumer.destroy({ color: "never" });
    expect(kubectl("get", "deployments,pods,configmaps", "-l", "tacker_vnf_instance_id", "-o", "name")).toBe("");
    expect(Object.keys((await producer.outputs()).kubeconfigs.value)).toEqual(["lab"]);
  });
});
