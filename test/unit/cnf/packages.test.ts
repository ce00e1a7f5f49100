/**
 * The shared test_cnf package end to end: the real package translator, then the CNF plan from its
 * model and its files. Also checks that the hand-built fixture model equals the translator's, so
 * the other CNF tests plan exactly what a real package gives.
 */
import { readFileSync } from "node:fs";
import * as path from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { manifestReader } from "../../../translators/kubernetes/manifests";
import { planCnf } from "../../../translators/kubernetes/plan";
import { openPackage } from "../../../translators/tosca/phase1-read/read-package";
import type { VnfModel } from "../../../translators/tosca/model";
import { MemorySource } from "../../../translators/tosca/phase1-read/package-source";
import { translateRead, translateSource } from "../../../translators/tosca/translate";
import { testCnfModel } from "../../fixtures/cnf/models";
import { defFiles, errors, kindsAndNames, TEST_CNF } from "./helpers";

let model: VnfModel;
let files: ReturnType<typeof manifestReader>;

beforeAll(async () => {
  const pkg = await openPackage(TEST_CNF);
  const r = translateRead(pkg);
  expect(r.diagnostics.filter((d) => d.severity === "error")).toEqual([]);
  model = r.model!;
  files = manifestReader(pkg.source);
});

describe("test_cnf through the package translator", () => {
  it("the fixture model is what the translator gives (flavour simple, manifests)", () => {
    const fixture = testCnfModel();
    expect(model.flavours.find((f) => f.id === "simple")).toEqual(fixture.flavours[0]);
    expect([...model.kubernetesManifests].sort()).toEqual([...fixture.kubernetesManifests].sort());
    expect(model.format).toBe("sol001");
  });

  for (const [level, replicas] of [
    ["instantiation_level_1", 1],
    ["instantiation_level_2", 3],
  ] as const) {
    it(`flavour simple, ${level}: vdu2 has ${replicas} replicas`, () => {
      const plan = planCnf({
        model,
        flavourId: "simple",
        instantiationLevelId: level,
        vnfInstanceId: "i-1",
        additionalParams: defFiles("pod.yaml", "deployment.yaml", "config-map.yaml"),
        manifests: files,
      });
      expect(errors(plan)).toEqual([]);
      expect(kindsAndNames(plan)).toEqual(["ConfigMap/curry-test001", "Pod/vdu1", "Deployment/vdu2"]);
      expect(plan.vnfcs.VDU2.replicas).toBe(replicas);
    });
  }

  it("flavour vdumap: VDU1 (name `VDU1`) needs Tacker v1's vdu_mapping; with it, level 2 gives 3 replicas", () => {
    const bare = planCnf({ model, flavourId: "vdumap", vnfInstanceId: "i-1", additionalParams: defFiles("deployment_vdumap1.yaml"), manifests: files });
    expect(errors(bare).map((d) => d.code)).toEqual(["CNF_VDU_NO_WORKLOAD"]);
    const plan = planCnf({
      model,
      flavourId: "vdumap",
      instantiationLevelId: "instantiation_level_2",
      vnfInstanceId: "i-1",
      additionalParams: { ...defFiles("deployment_vdumap1.yaml"), vdu_mapping: { VDU1: { kind: "Deployment", name: "vdumap1" } } },
      manifests: files,
    });
    expect(errors(plan)).toEqual([]);
    expect(plan.vnfcs.VDU1).toMatchObject({ kind: "Deployment", name: "vdumap1", replicas: 3 });
  });
});

describe("a container-VDU package (test/fixtures/cnf/container-vdu, with test_cnf's type files)", () => {
  function webModel(edit: (flavourFile: string) => string = (t) => t): VnfModel {
    const files = new Map<string, string>();
    for (const f of ["etsi_nfv_sol001_common_types.yaml", "etsi_nfv_sol001_vnfd_types.yaml", "helloworld3_types.yaml"])
      files.set(`Definitions/${f}`, readFileSync(path.join(TEST_CNF, "Definitions", f), "utf8"));
    for (const f of ["web_top.vnfd.yaml", "web_df_simple.yaml"]) {
      const text = readFileSync(path.join(__dirname, "../../fixtures/cnf/container-vdu", f), "utf8");
      files.set(`Definitions/${f}`, f === "web_df_simple.yaml" ? edit(text) : text);
    }
    files.set(
      "TOSCA-Metadata/TOSCA.meta",
      "TOSCA-Meta-File-Version: 1.0\nCSAR-Version: 1.1\nCreated-by: test\nEntry-Definitions: Definitions/web_top.vnfd.yaml\n",
    );
    const r = translateSource(new MemorySource("web", files));
    expect(r.diagnostics.filter((d) => d.severity === "error")).toEqual([]);
    return r.model!;
  }

  for (const [level, web] of [
    ["small", 2],
    ["large", 4],
  ] as const) {
    it(`level ${level}: web Deployment with ${web} replicas and a Service for WEB_CP1; cache owned by its HPA`, () => {
      const plan = planCnf({
        model: webModel(),
        flavourId: "simple",
        instantiationLevelId: level,
        vnfInstanceId: "i-1",
        additionalParams: { container_vdus: { WEB: { ports: ["80:8080"] } } },
      });
      expect(errors(plan)).toEqual([]);
      expect(kindsAndNames(plan)).toEqual(["Service/web", "Deployment/web", "Deployment/cache", "HorizontalPodAutoscaler/cache"]);
      expect(plan.vnfcs.WEB).toMatchObject({ kind: "Deployment", replicas: web });
      expect(plan.vnfcs.CACHE).toMatchObject({ kind: "Deployment", hpa: "cache" });
      const deployment = plan.objects[1].object as unknown as { spec: { template: { spec: { containers: unknown[] } } } };
      expect(deployment.spec.template.spec.containers).toEqual([
        {
          name: "web",
          image: "registry.example/web:1.2.3",
          ports: [{ containerPort: 8080, protocol: "TCP" }],
          resources: { requests: { cpu: "1", memory: "512Mi" }, limits: { cpu: "1", memory: "512Mi" } },
        },
      ]);
    });
  }

  it("a container VDU without virtual_compute keeps its image (a Deployment with no resource requests)", () => {
    // Drop the cache VDU's virtual_compute capability: a pure container VDU, no VM sizing at all.
    const withoutCompute = (t: string) =>
      t.replace(
        /(name: registry\.example\/cache[\s\S]*?size: 1 GB\n) {6}capabilities:\n {8}virtual_compute:\n {10}properties:\n {12}virtual_memory:\n {14}virtual_mem_size: 256 MB\n {12}virtual_cpu:\n {14}num_virtual_cpu: 1\n/,
        "$1",
      );
    const model = webModel(withoutCompute);
    const cache = model.flavours[0].vdus.find((v) => v.id === "CACHE")!;
    expect(cache).toMatchObject({ kind: "container", swImage: { name: "registry.example/cache", version: "7.2", containerFormat: "docker" } });
    const plan = planCnf({
      model,
      flavourId: "simple",
      instantiationLevelId: "small",
      vnfInstanceId: "i-1",
      additionalParams: { container_vdus: { WEB: { ports: ["80:8080"] } } },
    });
    expect(errors(plan)).toEqual([]);
    const deployment = plan.objects.find((p) => p.object.kind === "Deployment" && p.object.metadata.name === "cache")!.object as unknown as {
      spec: { template: { spec: { containers: unknown[] } } };
    };
    expect(deployment.spec.template.spec.containers).toEqual([{ name: "cache", image: "registry.example/cache:7.2" }]);
  });
});

describe("Tacker's test_cnf_multi_ns (tacker-corpus) through the package translator", () => {
  const MULTI_NS = path.join(__dirname, "../../../../shared/vnf-packages/tacker-corpus/packages/etsi_test_cnf_multi_ns");
  const all = defFiles("namespace01.yaml", "namespace02.yaml", "deployment_has_namespace.yaml", "deployment_no_namespace.yaml");

  async function multiNs(additionalParams: Record<string, unknown>) {
    const pkg = await openPackage(MULTI_NS);
    const r = translateRead(pkg);
    expect(r.diagnostics.filter((d) => d.severity === "error")).toEqual([]);
    return planCnf({ model: r.model!, flavourId: "simple", vnfInstanceId: "i-1", additionalParams, manifests: manifestReader(pkg.source) });
  }

  it("without additionalParams.namespace: the Namespaces first, vdu1 in multi-namespace02 as its manifest says, vdu2 in the VIM's", async () => {
    const plan = await multiNs(all);
    expect(errors(plan)).toEqual([]);
    expect(plan.objects.map((p) => `${p.object.kind}/${p.object.metadata.name} ${p.object.metadata.namespace ?? "-"}`)).toEqual([
      "Namespace/multi-namespace01 -",
      "Namespace/multi-namespace02 -",
      "Deployment/vdu1 multi-namespace02",
      "Deployment/vdu2 -",
    ]);
    expect([plan.vnfcs.VDU1.namespace, plan.vnfcs.VDU2.namespace]).toEqual(["multi-namespace02", undefined]);
  });

  it("with additionalParams.namespace: both Deployments there, the one that named another warned", async () => {
    const plan = await multiNs({ ...all, namespace: "multi-namespace01" });
    expect(errors(plan)).toEqual([]);
    expect(plan.objects.filter((p) => p.namespaced).map((p) => p.object.metadata.namespace)).toEqual(["multi-namespace01", "multi-namespace01"]);
    expect(plan.diagnostics.map((d) => [d.code, d.file?.endsWith("deployment_has_namespace.yaml")])).toEqual([["CNF_NAMESPACE_OVERRIDDEN", true]]);
  });
});
