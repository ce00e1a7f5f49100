/**
 * A CNF stack on a Kubernetes VIM that another stack exports, through `vims.<name>.stack_reference`:
 * a producer stack registers the lab's real Kubernetes API (lab/k8s) as a VIM and exports its
 * kubeconfig (secret); a consumer stack, in the same backend, deploys the sample CNF on it by a
 * real `pulumi up`, and never holds the token in plain text. Runs when the lab binaries are cached,
 * like test/integration/cnf-on-k8s-lab; otherwise skipped.
 */
import * as path from "node:path";
import type { Stack } from "@pulumi/pulumi/automation";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openLocalStack, openTestStack, outputIsSecretInState, removeTestStack, ROOT, runNfv, storedState, type LocalStack } from "./harness";
import { k8sLabBuilt, k8sLabDown, k8sLabUp, kubectl, labToken } from "./lab/k8s";

const PRODUCER = "it-vim-producer";
const CONSUMER = "it-cnf-consumer";

let local: LocalStack;
let producer: Stack;
let consumer: Stack;
let vimConfig = "";
const token = () => labToken(vimConfig);

describe.skipIf(!k8sLabBuilt)("a CNF on a Kubernetes VIM of another stack (stack_reference), on the lab Kubernetes API", () => {
  beforeAll(async () => {
    vimConfig = k8sLabUp("cnf-via-stack-reference");
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
    for (const stack of [consumer, producer]) await removeTestStack(stack);
    local?.dispose();
    if (vimConfig) k8sLabDown("cnf-via-stack-reference");
  }, 600_000);

  it("the producer exports the VIM's kubeconfig, only as a secret", async () => {
    const up = await producer.up({ color: "never" });
    expect(up.summary.result).toBe("succeeded");
    expect(await outputIsSecretInState(producer, "kubeconfigs", "lab")).toBe(true);
    expect(up.outputs.kubeconfigs.value.lab).toContain("server: https://127.0.0.1:");
    expect(storedState(local, PRODUCER)).not.toContain(token());
  });

  it("a VIM the producer does not export: the consumer's preview fails, naming the stack and what it exports", async () => {
    await consumer.setConfig("pulumi-nfv:vims.edge.vim", { value: "nope" }, true);
    const started = Date.now();
    const failed = await consumer.preview({ color: "never" }).then(
      () => "",
      (e: Error) => e.message,
    );
    console.log(`preview with an unknown referenced VIM failed after ${((Date.now() - started) / 1000).toFixed(1)} s`);
    expect(failed).toContain(
      `VIM 'edge' (stack_reference organization/pulumi-nfv/${PRODUCER}, vim nope): that stack exports no Kubernetes VIM 'nope'; its kubeconfigs output has: lab`,
    );
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
    expect(await outputIsSecretInState(consumer, "kubeconfigs", "edge")).toBe(true);
    expect(storedState(local, CONSUMER)).not.toContain(token());
  });

  it("a second up of the consumer changes nothing", async () => {
    const preview = await consumer.preview({ color: "never" });
    expect(Object.keys(preview.changeSummary).filter((op) => op !== "same")).toEqual([]);
  });

  it("nfv heal of one pod on the consumer goes through the referenced VIM's credentials", async () => {
    const pods = () => kubectl("get", "pods", "-l", "selector=curry-probe-test001", "-o", "jsonpath={.items[*].metadata.name}").split(" ").filter(Boolean);
    const [before] = pods();
    const r = await runNfv(local.env, ["heal", "--stack", CONSUMER, "--vnf", "cnf", "--vnfc", before]);
    expect(r.code, r.out).toBe(0);
    for (let i = 0; i < 90 && (pods().includes(before) || pods().length !== 1); i++) await new Promise((w) => setTimeout(w, 1000));
    expect(pods()).toHaveLength(1);
    expect(pods()).not.toContain(before);
  });

  it("destroy of the consumer removes the CNF's objects; the producer's VIM stays", async () => {
    await consumer.destroy({ color: "never" });
    expect(kubectl("get", "deployments,pods,configmaps", "-l", "tacker_vnf_instance_id", "-o", "name")).toBe("");
    expect(Object.keys((await producer.outputs()).kubeconfigs.value)).toEqual(["lab"]);
  });
});
