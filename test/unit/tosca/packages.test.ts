/**
 * Every real package under ../shared/vnf-packages validates without error and translates (but
 * kubernetes_vnf_package, which today's Tacker refuses as published: it is read with upstream
 * Tacker's one-line fix, test/fixtures/kubernetes-package.ts); the expected numbers were read from
 * the YAML by hand (comments name the file).
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import type { ComputeVdu, Flavour, VnfModel } from "../../../translators/tosca/model";
import { translatePackage } from "../../../translators/tosca/translate";
import { KUBERNETES_FIX, KUBERNETES_TYPES_FILE, kubernetesPackage, PUBLISHED_KUBERNETES_PACKAGE } from "../../fixtures/kubernetes-package";
import { positionOf, SHARED_PACKAGES } from "./helpers";

/** A package of ../shared/vnf-packages by name, or any package by absolute path. */
async function model(path: string): Promise<VnfModel> {
  const result = await translatePackage(path.startsWith("/") ? path : join(SHARED_PACKAGES, path));
  expect(result.diagnostics.filter((d) => d.severity === "error")).toEqual([]);
  expect(result.model).toBeDefined();
  return result.model!;
}

function flavour(m: VnfModel, id: string): Flavour {
  const f = m.flavours.find((x) => x.id === id);
  if (!f) throw new Error(`no flavour ${id}; have ${m.flavours.map((x) => x.id).join(", ")}`);
  return f;
}

const counts = (f: Flavour) => ({ vdus: f.vdus.length, cps: f.cps.length, vls: f.vls.length, storages: f.storages.length });

describe("helloworld3 (helloworld3_df_simple.yaml)", () => {
  it("reads the VNF, VDUs, CPs, VL, storage and levels", async () => {
    const m = await model("helloworld3");
    expect(m.vnf).toMatchObject({
      descriptorId: "b1bb0ce7-ebca-4fa7-95ed-4840d70a1177",
      provider: "Company",
      productName: "Sample VNF",
      softwareVersion: "1.0",
      descriptorVersion: "1.0",
      vnfmInfo: ["Tacker"],
    });
    expect(m.flavours.map((f) => f.id)).toEqual(["simple"]);
    const f = flavour(m, "simple");
    expect(counts(f)).toEqual({ vdus: 2, cps: 3, vls: 1, storages: 1 });
    const [vdu1, vdu2] = f.vdus as ComputeVdu[];
    expect(vdu1).toMatchObject({ id: "VDU1", kind: "compute", minInstances: 1, maxInstances: 1, initialInstances: 1 });
    expect(vdu1.virtualCompute).toEqual({ memoryMib: 512, numCpus: 1, localStorageGib: [3], requestedFlavorNames: [] });
    expect(vdu1.swImage).toMatchObject({
      name: "Software of VDU1",
      version: "0.5.2",
      diskFormat: "qcow2",
      minDiskGib: 1,
      sizeGib: 1,
      artifactFile: "Files/images/cirros-0.5.2-x86_64-disk.img",
    });
    expect(vdu2).toMatchObject({ minInstances: 1, maxInstances: 3, initialDelta: 1, storageIds: ["VirtualStorage"] });
    expect(vdu2.instancesByLevel).toEqual({ instantiation_level_1: 1, instantiation_level_2: 3 });
    expect(vdu2.scaling).toEqual([{ aspectId: "worker_instance", stepDeltas: [1, 1], instancesByScaleLevel: [1, 2, 3] }]);
    expect(f.cps.map((c) => [c.id, c.vduId, c.virtualLinkId ?? null, c.externalRequirement ?? null, c.order])).toEqual([
      ["CP1", "VDU1", null, "virtual_link_external", 0],
      ["CP2", "VDU1", "internalVL2", null, 1],
      ["CP3", "VDU2", "internalVL2", null, 2],
    ]);
    expect(f.vls[0]).toMatchObject({ id: "internalVL2", cidr: "11.11.0.0/24", ipVersion: "ipv4", maxBitrate: { root: 1048576, leaf: 1048576 } });
    expect(f.vls[0].bitrateByLevel.instantiation_level_2).toEqual({ root: 1048576, leaf: 1048576 });
    expect(f.storages[0]).toMatchObject({ id: "VirtualStorage", sizeGib: 3, rdmaEnabled: true });
    expect(f.defaultInstantiationLevelId).toBe("instantiation_level_1");
    expect(f.lcmHooks).toEqual([]);
    expect(f.defaultLcmOperations).toContain("instantiate");
    expect(f.defaultLcmOperations).toHaveLength(9);
  });
});

describe("kubernetes_vnf_package (sample_kubernetes_df_*.yaml)", () => {
  it("has the three flavours with their instance numbers and the Mgmt Driver hooks", async () => {
    const m = await model(kubernetesPackage());
    expect(m.vnf.descriptorId).toBe("b1db0ce7-ebca-1fb7-95ed-4840d70a1163");
    expect(m.flavours.map((f) => f.id).sort()).toEqual(["complex", "podaffinity", "simple"]);
    const expected = {
      simple: {
        master: [1, 3, { instantiation_level_1: 1, instantiation_level_2: 3 }],
        worker: [2, 4, { instantiation_level_1: 2, instantiation_level_2: 4 }],
      },
      complex: {
        master: [3, 5, { instantiation_level_1: 3, instantiation_level_2: 5 }],
        worker: [2, 4, { instantiation_level_1: 2, instantiation_level_2: 4 }],
      },
      podaffinity: {
        master: [3, 5, { instantiation_level_1: 3, instantiation_level_2: 5 }],
        worker: [2, 4, { instantiation_level_1: 2, instantiation_level_2: 4 }],
      },
    } as const;
    for (const [id, e] of Object.entries(expected)) {
      const f = flavour(m, id);
      expect(counts(f)).toEqual({ vdus: 2, cps: 2, vls: 0, storages: 0 });
      const [master, worker] = f.vdus as ComputeVdu[];
      expect([master.minInstances, master.maxInstances, master.instancesByLevel]).toEqual(e.master);
      expect([worker.minInstances, worker.maxInstances, worker.instancesByLevel]).toEqual(e.worker);
      expect(master.initialInstances).toBe(e.master[0]);
      expect(master.virtualCompute).toEqual({ memoryMib: 4096, numCpus: 2, localStorageGib: [45], requestedFlavorNames: ["m1.medium"] });
      expect(f.externalLinks).toEqual([
        { name: "virtual_link_external1_1", cpId: "masterNode_CP1", requirement: "virtual_link" },
        { name: "virtual_link_external1_2", cpId: "workerNode_CP2", requirement: "virtual_link" },
      ]);
      expect(Object.fromEntries(f.lcmHooks.map((h) => [h.operation, h.file]))).toEqual({
        instantiate_end: "Scripts/kubernetes_mgmt.py",
        terminate_end: "Scripts/kubernetes_mgmt.py",
        heal_start: "Scripts/kubernetes_mgmt.py",
        heal_end: "Scripts/kubernetes_mgmt.py",
        scale_start: "Scripts/kubernetes_mgmt.py",
        scale_end: "Scripts/kubernetes_mgmt.py",
      });
      expect(f.aspects.map((a) => [a.id, a.maxScaleLevel, a.vduIds])).toEqual([
        ["master_instance", 2, ["masterNode"]],
        ["worker_instance", 2, ["workerNode"]],
      ]);
    }
    expect(flavour(m, "simple").description).toBe("A simple flavour");
  });

  it("as published, is refused as today's Tacker refuses it: virtual_link_internal of the VNF type, given 0 times, located at the entry's VNF template, naming the fix", async () => {
    const top = "Definitions/sample_kubernetes_top.vnfd.yaml";
    const result = await translatePackage(PUBLISHED_KUBERNETES_PACKAGE);
    expect(result.model).toBeUndefined();
    const errors = result.diagnostics.filter((d) => d.severity === "error");
    expect(errors.map((d) => [d.code, d.file, d.line, d.column])).toEqual([
      [
        "TEMPLATE_REQUIREMENT_OCCURRENCES",
        join(PUBLISHED_KUBERNETES_PACKAGE, top),
        positionOf(readFileSync(join(PUBLISHED_KUBERNETES_PACKAGE, top), "utf8"), "    VNF:\n").line,
        5,
      ],
    ]);
    const [e] = errors;
    expect(e.message).toContain("node template `VNF` gives requirement `virtual_link_internal` 0 time(s), outside its occurrences [1, UNBOUNDED]");
    expect(e.message).toContain("node type `company.provider.VNF` (Definitions/sample_kubernetes_types.yaml)");
    expect(e.message).toContain('"Relationship "virtual_link_internal" in template "VNF" has a wrong number of occurrences"');
    expect(e.message).toContain("`occurrences: [ 0, 1 ]` on `virtual_link_internal` in the requirements of `company.provider.VNF`");
    // The same with --strict: no leniency is involved.
    expect(
      (await translatePackage(PUBLISHED_KUBERNETES_PACKAGE, { strict: true })).diagnostics.filter((d) => d.severity === "error").map((d) => d.code),
    ).toEqual(["TEMPLATE_REQUIREMENT_OCCURRENCES"]);
  });

  it("with upstream Tacker's fix, is accepted: only the three warnings that the Mgmt Driver script is not shipped", async () => {
    const dir = kubernetesPackage();
    expect(readFileSync(join(dir, KUBERNETES_TYPES_FILE), "utf8")).toContain(
      `      - virtual_link_internal:\n          capability: tosca.capabilities.nfv.VirtualLinkable\n${KUBERNETES_FIX}`,
    );
    expect(kubernetesPackage()).toBe(dir);
    const result = await translatePackage(dir);
    expect(result.model).toBeDefined();
    expect(result.diagnostics.map((d) => [d.severity, d.code, d.line])).toEqual([
      ["warning", "ARTIFACT_FILE_MISSING", 66],
      ["warning", "ARTIFACT_FILE_MISSING", 66],
      ["warning", "ARTIFACT_FILE_MISSING", 66],
    ]);
  });
});

describe("private_registry_vnf_package (sample_vnfd_df_simple.yaml)", () => {
  it("has one VDU, one external CP and two hooks", async () => {
    const m = await model("private_registry_vnf_package");
    // Today's Tacker accepts it: its one requirement without `occurrences`, virtual_link_external,
    // is given once by sample_vnfd_df_simple.yaml's substitution_mappings.
    const result = await translatePackage(join(SHARED_PACKAGES, "private_registry_vnf_package"));
    expect(result.diagnostics.map((d) => [d.severity, d.code])).toEqual([["warning", "ARTIFACT_FILE_MISSING"]]);
    expect(m.vnf.productName).toBe("Sample Private registry VNF");
    const f = flavour(m, "simple");
    expect(counts(f)).toEqual({ vdus: 1, cps: 1, vls: 0, storages: 0 });
    // No policies: one instance, the vdu_profile minimum.
    expect(f.vdus[0]).toMatchObject({ id: "PrivateRegistryVDU", minInstances: 1, maxInstances: 1, initialInstances: 1, instancesByLevel: {} });
    expect(f.instantiationLevels).toEqual([]);
    expect(f.lcmHooks.map((h) => [h.operation, h.artifact, h.file])).toEqual([
      ["instantiate_end", "mgmt-drivers-private-registry", "Scripts/private_registry_mgmt.py"],
      ["heal_end", "mgmt-drivers-private-registry", "Scripts/private_registry_mgmt.py"],
    ]);
  });
});

describe("test_cnf (helloworld3_df_simple.yaml, helloworld3_df_vdumap.yaml)", () => {
  it("has container VDUs joined to manifests by name, and every hashed manifest", async () => {
    const m = await model("test_cnf");
    expect(m.flavours.map((f) => f.id)).toEqual(["simple", "vdumap"]);
    const simple = flavour(m, "simple");
    expect(simple.vdus.map((v) => [v.id, v.name, v.kind, v.initialInstances, v.maxInstances])).toEqual([
      ["VDU1", "vdu1", "container", 1, 1],
      ["VDU2", "vdu2", "container", 1, 3],
    ]);
    expect(simple.vdus[1].instancesByLevel).toEqual({ instantiation_level_1: 1, instantiation_level_2: 3 });
    const vdumap = flavour(m, "vdumap");
    expect(vdumap.vdus.map((v) => [v.id, v.name, v.maxInstances])).toEqual([["VDU1", "VDU1", 3]]);
    expect(m.kubernetesManifests).toHaveLength(30);
    expect(m.kubernetesManifests).toContain("Files/kubernetes/deployment.yaml");
  });

  it("accepts the vdumap flavour that the VNF type's valid_values omit, with a warning (L9)", async () => {
    const result = await translatePackage(join(SHARED_PACKAGES, "test_cnf"));
    expect(result.diagnostics.map((d) => [d.code, d.file?.endsWith("helloworld3_df_vdumap.yaml"), d.line])).toEqual([["SUBSTITUTION_CONSTRAINT", true, 34]]);
  });
});

describe("legacy-containerized", () => {
  it("one container per VDU, with ConfigMap data and an HPA", async () => {
    const m = await model("legacy-containerized/tosca-vnfd-containerized.yaml");
    expect(m.format).toBe("tacker-legacy");
    const vdu = m.flavours[0].vdus[0];
    expect(vdu).toMatchObject({
      id: "VDU1",
      kind: "container",
      namespace: "default",
      serviceType: "ClusterIP",
      labels: { app: "webserver" },
      servicePorts: [{ port: 80, targetPort: 80 }],
      autoscaling: { minReplicas: 1, maxReplicas: 10, targetCpuUtilizationPercentage: 50 },
      minInstances: 1,
      maxInstances: 10,
      initialInstances: 1,
    });
    expect(vdu.kind === "container" && vdu.containers).toEqual([
      { name: "web_server", image: "k8s.gcr.io/hpa-example", cpu: 0.2, memoryBytes: 100e6, ports: [80], config: { param0: "key1", param1: "key2" } },
    ]);
  });

  it("two containers in one VDU", async () => {
    const m = await model("legacy-containerized/tosca-vnfd-containerized-two-containers.yaml");
    const vdu = m.flavours[0].vdus[0];
    expect(vdu.kind === "container" && vdu.containers.map((c) => [c.name, c.image, c.ports, c.memoryBytes])).toEqual([
      ["front_end", "nginx", [80], 512e6],
      ["rss_reader", "nickchase/rss-php-nginx:v1", [88], 512e6],
    ]);
    expect(vdu).toMatchObject({
      serviceType: "NodePort",
      servicePorts: [
        { port: 80, targetPort: 80 },
        { port: 88, targetPort: 88 },
      ],
      maxInstances: 3,
    });
  });
});
