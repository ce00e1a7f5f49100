/**
 * The sample CNF on the lab's real Kubernetes API (lab/k8s: kube-apiserver, controller-manager,
 * scheduler, etcd, kwok nodes), through the stack program and the `nfv` commands: up, scale,
 * heal of one pod, a second up with no changes, a change of package (a new image, rolled out), destroy; a CNF over several namespaces; a Helm
 * CNF (its chart rendered by helm.v4.Chart, scaled through the chart's values); the VIM variants; and the shipped `local`
 * stack. Runs when the lab binaries are cached, like test/integration/k8s-lab; otherwise skipped,
 * saying why.
 */
import { execFileSync } from "node:child_process";
import { createHash } from "node:crypto";
import { copyFileSync, cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import * as path from "node:path";
import type { Stack } from "@pulumi/pulumi/automation";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { canary, openLocalStack, openTestStack, removeTestStack, ROOT, runNfv, setSecretConfig, until, type LocalStack } from "./harness";
import { HELM_CNF_FIXTURE, helmCnfPackage } from "../fixtures/helm-cnf-package";
import { k8sLabBuilt, k8sLabDown, k8sLabUp, kubectl, labToken } from "./lab/k8s";
import { labUp, openstackCli, openstackLabEnabled, type LabFacts } from "./lab/openstack";

const STACK = "it-cnf";
const CONTAINER_VDU = path.join(ROOT, "test/fixtures/cnf/container-vdu");

let local: LocalStack;
let stack: Stack;
let vimConfig = "";
let webPackage = "";
let cnfV2Dir = "";

const token = () => labToken(vimConfig);

/** `nfv` in-process, with the test stack's environment. */
const nfv = (...args: string[]) => runNfv(local.env, args);

/**
 * The container-VDU fixture as a package directory: its two VNFD files beside test_cnf's type
 * files (not copied into the fixture, so there is one copy of ETSI's types in the repository).
 */
function containerVduPackage(): string {
  const dir = mkdtempSync(path.join(tmpdir(), "nfv-it-container-vdu-"));
  mkdirSync(path.join(dir, "Definitions"));
  mkdirSync(path.join(dir, "TOSCA-Metadata"));
  const types = path.join(ROOT, "../shared/vnf-packages/test_cnf/Definitions");
  for (const f of ["etsi_nfv_sol001_common_types.yaml", "etsi_nfv_sol001_vnfd_types.yaml", "helloworld3_types.yaml"])
    copyFileSync(path.join(types, f), path.join(dir, "Definitions", f));
  for (const f of ["web_top.vnfd.yaml", "web_df_simple.yaml"]) copyFileSync(path.join(CONTAINER_VDU, f), path.join(dir, "Definitions", f));
  writeFileSync(
    path.join(dir, "TOSCA-Metadata/TOSCA.meta"),
    "TOSCA-Meta-File-Version: 1.0\nCSAR-Version: 1.1\nCreated-by: pulumi-nfv tests\nEntry-Definitions: Definitions/web_top.vnfd.yaml\n",
  );
  return dir;
}

const TEST_CNF_VNFD = "b1bb0ce7-ebca-4fa7-95ed-4840d70a1177";
const TEST_CNF_V2_VNFD = "3c9e5a71-4b2d-4e8f-9a6c-1d0b7e2f5a83";

/**
 * test_cnf as a version 2.0 package (a new VNFD id) whose vdu2 Deployment runs `nginx:1.25`, its
 * TOSCA.meta hash of the manifest made again; and Tacker's ChangeCurrentVnfPkgRequest for it.
 */
function testCnfV2(): { pkg: string; request: string } {
  // The stack goes on using it (the later tests, destroy): removed in afterAll.
  const dir = mkdtempSync(path.join(tmpdir(), "nfv-it-test-cnf-v2-"));
  cnfV2Dir = dir;
  const pkg = path.join(dir, "test_cnf_v2");
  cpSync(path.join(ROOT, "../shared/vnf-packages/test_cnf"), pkg, { recursive: true });
  for (const f of ["helloworld3_top.vnfd.yaml", "helloworld3_types.yaml"]) {
    const file = path.join(pkg, "Definitions", f);
    writeFileSync(file, readFileSync(file, "utf8").replaceAll(TEST_CNF_VNFD, TEST_CNF_V2_VNFD));
  }
  const manifest = path.join(pkg, "Files/kubernetes/deployment.yaml");
  const before = readFileSync(manifest);
  writeFileSync(manifest, before.toString("utf8").replaceAll("image: nginx\n", "image: nginx:1.25\n"));
  const sha = (b: Buffer) => createHash("sha256").update(b).digest("hex");
  const meta = path.join(pkg, "TOSCA-Metadata/TOSCA.meta");
  writeFileSync(meta, readFileSync(meta, "utf8").replace(sha(before), sha(readFileSync(manifest))));
  const request = path.join(dir, "change.json");
  writeFileSync(request, JSON.stringify({ vnfdId: TEST_CNF_V2_VNFD, additionalParams: { upgrade_type: "RollingUpdate", vdu_params: [{ vdu_id: "VDU2" }] } }));
  return { pkg, request };
}

const vdu2Pods = () =>
  kubectl("get", "pods", "-l", "selector=curry-probe-test001", "-o", "jsonpath={.items[*].metadata.name}").split(" ").filter(Boolean).sort();

describe.skipIf(!k8sLabBuilt)("the sample CNF on the lab Kubernetes API", () => {
  beforeAll(async () => {
    vimConfig = k8sLabUp("cnf-on-k8s-lab");
    local = await openLocalStack();
    stack = await openTestStack(local, STACK);
    await stack.setConfig("pulumi-nfv:vims.lab.file", { value: vimConfig }, true);
    await stack.setConfig("pulumi-nfv:vnfs.cnf.vim", { value: "lab" }, true);
    await stack.setConfig("pulumi-nfv:vnfs.cnf.package", { value: path.join(ROOT, "../shared/vnf-packages/test_cnf") }, true);
    await stack.setConfig("pulumi-nfv:vnfs.cnf.instantiate_request", { value: "lab/requests/test-cnf-simple.json" }, true);
    await stack.setConfig("pulumi-nfv:vnfs.legacy.vim", { value: "lab" }, true);
    await stack.setConfig(
      "pulumi-nfv:vnfs.legacy.package",
      { value: path.join(ROOT, "../shared/vnf-packages/legacy-containerized/tosca-vnfd-containerized.yaml") },
      true,
    );
    await stack.setConfig("pulumi-nfv:vnfs.legacy.instantiate_request", { value: "lab/requests/legacy-containerized.json" }, true);
    webPackage = containerVduPackage();
    await stack.setConfig("pulumi-nfv:vnfs.web.vim", { value: "lab" }, true);
    await stack.setConfig("pulumi-nfv:vnfs.web.package", { value: webPackage }, true);
    await stack.setConfig("pulumi-nfv:vnfs.web.instantiate_request", { value: path.join(CONTAINER_VDU, "instantiate-request.json") }, true);
  }, 600_000);

  afterAll(async () => {
    await removeTestStack(stack);
    if (webPackage) rmSync(webPackage, { recursive: true, force: true });
    if (cnfV2Dir) rmSync(cnfV2Dir, { recursive: true, force: true });
    local?.dispose();
    if (vimConfig) k8sLabDown("cnf-on-k8s-lab");
  }, 600_000);

  it("up creates the objects; the Deployment becomes Available on the kwok nodes", async () => {
    const up = await stack.up({ color: "never" });
    expect(up.summary.result).toBe("succeeded");
    expect(kubectl("get", "deployment", "vdu2", "-o", "jsonpath={.status.availableReplicas}")).toBe("1");
    expect(kubectl("get", "pod", "vdu1", "-o", "jsonpath={.status.phase}")).toBe("Running");
    expect(kubectl("get", "configmap", "curry-test001", "-o", "jsonpath={.metadata.labels.tacker_vnf_instance_id}")).toMatch(/^[0-9a-f-]{36}$/);
  });

  it("Tacker's legacy containerized VNFD: its Deployment is Available and its HPA exists", () => {
    const deployments = kubectl(
      "get",
      "deployments",
      "-l",
      "tacker_vnf_instance_id",
      "-o",
      'jsonpath={range .items[*]}{.metadata.name}={.status.availableReplicas}{"\\n"}{end}',
    ).split("\n");
    const legacy = deployments.filter((d) => d.startsWith("vdu1-"));
    expect(legacy).toHaveLength(1);
    expect(legacy[0]).toMatch(/^vdu1-[0-9a-f]{8}=1$/);
    const name = legacy[0].split("=")[0];
    expect(kubectl("get", "hpa", name, "-o", "jsonpath={.spec.scaleTargetRef.name} {.spec.minReplicas} {.spec.maxReplicas}")).toMatch(
      new RegExp(`^${name} \\d+ \\d+$`),
    );
    expect(kubectl("get", "service", name, "-o", "jsonpath={.spec.ports[*].port}")).not.toBe("");
  });

  it("container VDUs: a Deployment per VDU from its sw_image_data, the CP's Service, the aspect's HPA", () => {
    expect(kubectl("get", "deployment", "web", "-o", "jsonpath={.status.availableReplicas} {.spec.template.spec.containers[0].image}")).toBe(
      "2 registry.example/web:1.2.3",
    );
    expect(kubectl("get", "deployment", "web", "-o", "jsonpath={.spec.template.spec.containers[0].resources.limits.memory}")).toBe("512Mi");
    expect(kubectl("get", "service", "web", "-o", "jsonpath={.spec.ports[0].port}:{.spec.ports[0].targetPort}")).toBe("80:8080");
    expect(kubectl("get", "deployment", "cache", "-o", "jsonpath={.status.availableReplicas}")).toBe("1");
    expect(kubectl("get", "hpa", "cache", "-o", "jsonpath={.spec.scaleTargetRef.kind}/{.spec.scaleTargetRef.name}")).toBe("Deployment/cache");
  });

  it("nfv scale out changes the Deployment's replicas as the API reports them", async () => {
    const r = await nfv("scale", "--stack", STACK, "--vnf", "cnf", "--aspect", "vdu2_aspect", "--steps", "1", "--type", "out");
    expect(r.code, r.out).toBe(0);
    expect(r.out).toContain("Deployment vdu2: replicas 1 → 2");
    await until("2 available replicas", 90, () => kubectl("get", "deployment", "vdu2", "-o", "jsonpath={.status.availableReplicas}") === "2");
  });

  it("nfv heal --vnfc deletes that pod and its controller makes a new one", async () => {
    const before = vdu2Pods();
    expect(before).toHaveLength(2);
    const r = await nfv("heal", "--stack", STACK, "--vnf", "cnf", "--vnfc", before[0]);
    expect(r.code, r.out).toBe(0);
    await until("a replacement pod", 90, () => {
      const now = vdu2Pods();
      return !now.includes(before[0]) && now.length === 2;
    });
    expect(vdu2Pods()).toContain(before[1]);
  });

  it("nfv heal of the whole VNF replaces every workload", async () => {
    const podUid = () => kubectl("get", "pod", "vdu1", "-o", "jsonpath={.metadata.uid}");
    const before = { pod: podUid(), deployment: kubectl("get", "deployment", "vdu2", "-o", "jsonpath={.metadata.uid}") };
    const r = await nfv("heal", "--stack", STACK, "--vnf", "cnf");
    expect(r.code, r.out).toBe(0);
    expect(podUid()).not.toBe(before.pod);
    expect(kubectl("get", "deployment", "vdu2", "-o", "jsonpath={.metadata.uid}")).not.toBe(before.deployment);
    await until("vdu2 available again", 90, () => kubectl("get", "deployment", "vdu2", "-o", "jsonpath={.status.availableReplicas}") === "2");
  });

  it("a second up changes nothing", async () => {
    const up = await stack.up({ color: "never" });
    expect(Object.entries(up.summary.resourceChanges ?? {}).filter(([op, n]) => op !== "same" && (n ?? 0) > 0)).toEqual([]);
  });

  it("nfv change-vnfpkg: vdu2's Deployment updated in place to the new package's image, its pods rolled out by Kubernetes", async () => {
    const v2 = testCnfV2();
    const uid = kubectl("get", "deployment", "vdu2", "-o", "jsonpath={.metadata.uid}");
    const pods = vdu2Pods();
    const r = await nfv("change-vnfpkg", "--stack", STACK, "--vnf", "cnf", "--package", v2.pkg, "--request", v2.request);
    expect(r.code, r.out).toBe(0);
    expect(r.out).toContain(`to Sample VNF 1.0 (VNFD ${TEST_CNF_V2_VNFD}): each workload updated in place`);
    expect(kubectl("get", "deployment", "vdu2", "-o", "jsonpath={.metadata.uid}")).toBe(uid);
    expect(kubectl("get", "deployment", "vdu2", "-o", "jsonpath={.spec.template.spec.containers[*].image}")).toBe("nginx:1.25 nginx:1.25");
    await until("vdu2 rolled out: 2 new pods on nginx:1.25, available", 120, () => {
      const images = kubectl("get", "pods", "-l", "selector=curry-probe-test001", "-o", "jsonpath={.items[*].spec.containers[0].image}").split(" ");
      return (
        images.length === 2 &&
        images.every((i) => i === "nginx:1.25") &&
        kubectl("get", "deployment", "vdu2", "-o", "jsonpath={.status.updatedReplicas}/{.status.availableReplicas}") === "2/2"
      );
    });
    expect(vdu2Pods().filter((p) => pods.includes(p))).toEqual([]);
  });

  it("nfv terminate --vnf web: --preview leaves the stack file as it was; then the VNF's objects go and the other VNFs stay", async () => {
    const file = path.join(ROOT, "stacks", `Pulumi.${STACK}.yaml`);
    const before = readFileSync(file, "utf8");
    const webObjects = () => kubectl("get", "deployment/web", "deployment/cache", "service/web", "hpa/cache", "--ignore-not-found", "-o", "name");
    const preview = await nfv("terminate", "--stack", STACK, "--vnf", "web", "--preview");
    expect(preview.code, preview.out).toBe(0);
    expect(preview.out).toMatch(/- \d+ to delete/);
    expect(readFileSync(file, "utf8")).toBe(before);
    expect(webObjects().split("\n")).toHaveLength(4);
    const r = await nfv("terminate", "--stack", STACK, "--vnf", "web");
    expect(r.code, r.out).toBe(0);
    expect(webObjects()).toBe("");
    expect(Object.keys(JSON.parse((await stack.getAllConfig())["pulumi-nfv:vnfs"].value)).sort()).toEqual(["cnf", "legacy"]);
    expect(kubectl("get", "deployment", "vdu2", "-o", "jsonpath={.status.availableReplicas}")).toBe("2");
  });

  it("destroy leaves none of the VNF's objects", async () => {
    await stack.destroy({ color: "never" });
    expect(kubectl("get", "all,configmap", "-l", "tacker_vnf_instance_id", "-o", "name")).toBe("");
  });

  /**
   * Tacker's test_cnf_multi_ns (tacker-corpus) in a stack of its own on the same API server: its
   * Namespaces made, each Deployment in the namespace Tacker puts it (tacker-notes, translators/
   * kubernetes/namespace.ts): vdu1 in the one its manifest names, vdu2 (naming none) in the VIM's;
   * with additionalParams.namespace, both there.
   */
  describe("a CNF over several namespaces (test_cnf_multi_ns)", () => {
    const MULTI_NS = path.join(ROOT, "../shared/vnf-packages/tacker-corpus/packages/etsi_test_cnf_multi_ns");
    const MNS_STACK = "it-cnf-multi-ns";
    let mns: Stack;
    let work = "";
    /** Each Deployment of the CNF as namespace/name, with its available replicas. */
    const deployments = () =>
      kubectl(
        "get",
        "deployments",
        "--all-namespaces",
        "-l",
        "tacker_vnf_instance_id",
        "-o",
        'jsonpath={range .items[*]}{.metadata.namespace}/{.metadata.name}={.status.availableReplicas}{"\\n"}{end}',
      )
        .split("\n")
        .filter(Boolean)
        .sort();
    const namespaces = () =>
      kubectl("get", "namespaces", "-o", "jsonpath={.items[*].metadata.name}")
        .split(" ")
        .filter((n) => n.startsWith("multi-namespace"))
        .sort();
    async function instantiate(additionalParams: Record<string, unknown>): Promise<void> {
      const request = path.join(work, "request.json");
      writeFileSync(
        request,
        JSON.stringify({
          flavourId: "simple",
          additionalParams: {
            "lcm-kubernetes-def-files": ["namespace01.yaml", "namespace02.yaml", "deployment_has_namespace.yaml", "deployment_no_namespace.yaml"].map(
              (f) => `Files/kubernetes/${f}`,
            ),
            ...additionalParams,
          },
        }),
      );
      await mns.setConfig("pulumi-nfv:vnfs.mns.instantiate_request", { value: request }, true);
      expect((await mns.up({ color: "never" })).summary.result).toBe("succeeded");
    }
    beforeAll(async () => {
      work = mkdtempSync(path.join(tmpdir(), "nfv-it-mns-"));
      mns = await openTestStack(local, MNS_STACK);
      await mns.setConfig("pulumi-nfv:vims.lab.file", { value: vimConfig }, true);
      await mns.setConfig("pulumi-nfv:vnfs.mns.vim", { value: "lab" }, true);
      await mns.setConfig("pulumi-nfv:vnfs.mns.package", { value: MULTI_NS }, true);
    }, 600_000);
    afterAll(async () => {
      await removeTestStack(mns);
      if (work) rmSync(work, { recursive: true, force: true });
    }, 600_000);

    it("up: its two Namespaces; vdu1 Available in multi-namespace02 (its manifest's), vdu2 in the VIM's namespace", async () => {
      await instantiate({});
      expect(namespaces()).toEqual(["multi-namespace01", "multi-namespace02"]);
      await until("both Deployments Available", 90, () => deployments().join(" ") === "default/vdu2=1 multi-namespace02/vdu1=1");
    });

    it("with additionalParams.namespace multi-namespace01: both Deployments move there", async () => {
      await instantiate({ namespace: "multi-namespace01" });
      await until("both Deployments Available in multi-namespace01", 90, () => deployments().join(" ") === "multi-namespace01/vdu1=1 multi-namespace01/vdu2=1");
    });

    it("destroy leaves none of its Deployments or Namespaces", async () => {
      await mns.destroy({ color: "never" });
      expect(deployments()).toEqual([]);
      await until("its Namespaces gone", 90, () => namespaces().length === 0);
    });
  });

  /**
   * A Helm CNF (issue 25): the fixture's chart (test/fixtures/packages/helm-cnf) named by Tacker's
   * helm_chart_path, rendered by the kubernetes provider's helm.v4.Chart (no helm binary), its
   * helm_parameters applied, scaled through helm_value_names, one pod healed.
   */
  describe("a Helm CNF (helm_chart_path, helm_parameters, helm_value_names)", () => {
    const HELM_STACK = "it-cnf-helm";
    let helm: Stack;
    let pkg = "";
    const web = (jsonpath: string) => kubectl("get", "deployment", "web", "-o", `jsonpath=${jsonpath}`);
    const webPods = () =>
      kubectl("get", "pods", "-l", "app=web", "-o", 'jsonpath={range .items[*]}{.metadata.name} {.status.phase}{"\\n"}{end}')
        .split("\n")
        .filter(Boolean)
        .map((l) => l.split(" "));
    beforeAll(async () => {
      pkg = helmCnfPackage();
      helm = await openTestStack(local, HELM_STACK);
      await helm.setConfig("pulumi-nfv:vims.lab.file", { value: vimConfig }, true);
      await helm.setConfig("pulumi-nfv:vnfs.helm.vim", { value: "lab" }, true);
      await helm.setConfig("pulumi-nfv:vnfs.helm.package", { value: pkg }, true);
      await helm.setConfig("pulumi-nfv:vnfs.helm.instantiate_request", { value: path.join(HELM_CNF_FIXTURE, "instantiate-request.json") }, true);
    }, 600_000);
    afterAll(async () => {
      await removeTestStack(helm);
      if (pkg) rmSync(pkg, { recursive: true, force: true });
    }, 600_000);

    it("up: the chart's Deployment with helm_parameters' image tag, the instance label on it and its pods, Available", async () => {
      expect((await helm.up({ color: "never" })).summary.result).toBe("succeeded");
      expect(web("{.spec.template.spec.containers[0].image}")).toBe("registry.example/web:1.2.4");
      expect(web("{.metadata.labels.tacker_vnf_instance_id}")).toMatch(/^[0-9a-f-]{36}$/);
      expect(web("{.spec.template.metadata.labels.tacker_vnf_instance_id}")).toBe(web("{.metadata.labels.tacker_vnf_instance_id}"));
      await until("web Available", 90, () => web("{.status.availableReplicas}") === "1");
    });

    it("nfv scale out of web_aspect sets the chart's replicaCount: 2 replicas, as the API reports them", async () => {
      const r = await nfv("scale", "--stack", HELM_STACK, "--vnf", "helm", "--aspect", "web_aspect", "--steps", "1", "--type", "out");
      expect(r.code, r.out).toBe(0);
      expect(web("{.spec.replicas}")).toBe("2");
      await until("2 web pods Running", 90, () => webPods().length === 2 && webPods().every(([, phase]) => phase === "Running"));
    });

    it("nfv heal --vnfc deletes that pod; the chart's ReplicaSet makes a new one", async () => {
      const [before] = webPods()
        .map(([name]) => name)
        .sort();
      const r = await nfv("heal", "--stack", HELM_STACK, "--vnf", "helm", "--vnfc", before);
      expect(r.code, r.out).toBe(0);
      await until(
        "a new web pod",
        90,
        () => webPods().length === 2 && !webPods().some(([name]) => name === before) && webPods().every(([, phase]) => phase === "Running"),
      );
    });

    it("a second up changes nothing; destroy removes the chart's objects", async () => {
      const again = await helm.up({ color: "never" });
      expect(Object.entries(again.summary.resourceChanges ?? {}).filter(([op, n]) => op !== "same" && (n ?? 0) > 0)).toEqual([]);
      await helm.destroy({ color: "never" });
      await until("web gone", 90, () =>
        kubectl("get", "deployments", "-o", "name")
          .split("\n")
          .every((l) => l !== "deployment.apps/web"),
      );
    });
  });

  describe("VIM variants on the same API server", () => {
    const SECRET_KEYS = ["bearer_token", "extra.helm_info"];
    async function useVim(vim: Record<string, string>): Promise<void> {
      await stack.removeConfig("pulumi-nfv:vims");
      for (const [k, v] of Object.entries(vim)) {
        // A secret on stdin, never on pulumi's command line (the Automation API's setConfig puts it there).
        if (SECRET_KEYS.includes(k)) await setSecretConfig(stack, `pulumi-nfv:vims.lab.${k}`, v);
        else await stack.setConfig(`pulumi-nfv:vims.lab.${k}`, { value: v }, true);
      }
    }

    it("ssl_ca_cert None: deploys without verifying TLS, and says so", async () => {
      // Tacker's helm_info carries the masters' SSH password: a canary, which the scan must find nowhere (the record masks it).
      const helmInfo = `{'masternode_ip': ['127.0.0.1'], 'masternode_username': 'helm', 'masternode_password': '${canary("helm-masternode-password")}'}`;
      await useVim({ type: "kubernetes", auth_url: "https://127.0.0.1:6443", bearer_token: token(), ssl_ca_cert: "None", "extra.helm_info": helmInfo });
      const up = await stack.up({ color: "never" });
      expect(up.summary.result).toBe("succeeded");
      expect(up.stdout).toContain("VIM 'lab': ssl_ca_cert is None, so TLS to https://127.0.0.1:6443 is NOT verified");
      expect(up.outputs.vims.value.lab).toMatchObject({ extra: { helm_info: "***" } });
      await stack.destroy({ color: "never" });
    });

    it("a wrong bearer token fails the deployment with an error that names the VIM", async () => {
      await useVim({ type: "kubernetes", auth_url: "https://127.0.0.1:6443", bearer_token: canary("wrong-bearer-token"), ssl_ca_cert: "None" });
      const error = await stack.up({ color: "never" }).then(
        () => undefined,
        (e: Error) => e.message,
      );
      expect(error).toBeDefined();
      expect(error).toMatch(/lab-provider/);
      expect(error).toMatch(/Unauthorized|401/i);
    });

    it("a CA that did not sign the server's certificate fails with an error that names the VIM", async () => {
      const otherCa = readFileSync(path.join(ROOT, "test/fixtures/pki/ca-a.crt"), "utf8");
      await useVim({ type: "kubernetes", auth_url: "https://127.0.0.1:6443", bearer_token: token(), ssl_ca_cert: otherCa });
      const error = await stack.up({ color: "never" }).then(
        () => undefined,
        (e: Error) => e.message,
      );
      expect(error).toBeDefined();
      expect(error).toMatch(/lab-provider/);
      expect(error).toMatch(/certificate signed by unknown authority|x509/i);
      expect(kubectl("get", "all,configmap", "-l", "tacker_vnf_instance_id", "-o", "name")).toBe("");
    });
  });

  // Its registry VNF needs the lab OpenStack and so the openstack provider plugin.
  describe.skipIf(!openstackLabEnabled())("the shipped local stack (stacks/Pulumi.local.yaml, as lab/local/up deploys it)", () => {
    let shipped: LocalStack;
    let facts: LabFacts = {};
    const registryServers = () => openstackCli<{ Name: string }[]>(facts, ["server", "list"]).filter((x) => x.Name.startsWith("registry-"));
    beforeAll(async () => {
      await stack.destroy({ color: "never" });
      // The lab OpenStack of the registry VNF, with the key pair and request file its up writes.
      facts = labUp();
      shipped = await openLocalStack({ stackName: "local" });
    }, 1_800_000);

    afterAll(async () => {
      await shipped?.stack.destroy({ color: "never" }).catch(() => undefined);
      shipped?.dispose();
    }, 600_000);

    it("up deploys the sample CNF to the lab API (VIM from lab/k8s's vim-config.yaml) and the registry VNF on the lab OpenStack", async () => {
      const up = await shipped.stack.up({ color: "never" });
      expect(up.summary.result).toBe("succeeded");
      expect(up.outputs.vims.value["local-k8s"]).toMatchObject({ type: "kubernetes", vim_project: { name: "default" }, auth_cred: { bearer_token: "***" } });
      expect(up.stdout).not.toContain("NOT verified");
      expect(kubectl("get", "deployment", "vdu2", "-o", "jsonpath={.status.availableReplicas}")).toBe("1");
      expect(kubectl("get", "pod", "vdu1", "-o", "jsonpath={.status.phase}")).toBe("Running");
      expect(up.outputs.vnfs.value.registry).toMatchObject({ component: "private-registry", vim: "local-os", endpoint: "10.10.0.5:5000" });
      expect((await fetch("http://10.10.0.5:5000/v2/")).status).toBe(200);
      expect(registryServers().map((x) => x.Name)).toEqual(["registry-vnf-PrivateRegistryVDU-0"]);
    });

    it("the lab's bearer token is nowhere in the state", () => {
      const exported = execFileSync("pulumi", ["stack", "export", "--stack", "local"], { cwd: ROOT, env: shipped.env, encoding: "utf8" });
      expect(token().length).toBeGreaterThan(20);
      expect(exported.includes(token())).toBe(false);
    });

    it("destroy leaves none of its objects, in either lab", async () => {
      await shipped.stack.destroy({ color: "never" });
      expect(kubectl("get", "all,configmap", "-l", "tacker_vnf_instance_id", "-o", "name")).toBe("");
      expect(registryServers()).toEqual([]);
    });
  });
});
