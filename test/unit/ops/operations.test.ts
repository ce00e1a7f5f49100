import * as path from "node:path";
import { describe, expect, it } from "vitest";
import { planHealOperation, planScaleOperation } from "../../../ops/operations";
import { DiagnosticBag } from "../../../translators/diagnostics";
import { prepareVnfs, type PreparedVnf, type VnfEntry } from "../../../stacks/vnfs";

const ROOT = path.join(__dirname, "../../..");
const SHARED = path.join(ROOT, "../shared/vnf-packages");

async function prepare(entries: VnfEntry[]): Promise<PreparedVnf[]> {
  const bag = new DiagnosticBag();
  const prepared = await prepareVnfs(entries, bag);
  expect(bag.errors()).toEqual([]);
  return prepared;
}

const hw = (extra: Partial<VnfEntry> = {}): VnfEntry => ({
  name: "hw",
  vim: "core",
  packagePath: path.join(SHARED, "helloworld3"),
  requestPath: path.join(ROOT, "test/fixtures/vnf/helloworld3_level1.json"),
  vnfInstanceId: "0b1f0d1e-9c5a-4e8e-8d5a-2f6b7d0c1a11",
  ...extra,
});
const cnf = (extra: Partial<VnfEntry> = {}): VnfEntry => ({
  name: "cnf",
  vim: "edge",
  packagePath: path.join(SHARED, "test_cnf"),
  requestPath: path.join(ROOT, "lab/requests/test-cnf-simple.json"),
  vnfInstanceId: "6a1b1a52-7f5c-4c1f-a1d3-0f0e6c5d4b3a",
  ...extra,
});

// A VNFC map as VmVnf exports it (URNs shortened: only their identity matters here).
const VNFCS = {
  "VDU1-0": { vdu: "VDU1", index: 0, serverUrn: "urn:s1", ports: { CP1: { portUrn: "urn:p1" } }, volumeUrns: [] },
  "VDU2-0": { vdu: "VDU2", index: 0, serverUrn: "urn:s2", ports: { CP3: { portUrn: "urn:p3" } }, volumeUrns: ["urn:v2"] },
};

describe("nfv scale plans", () => {
  it("VM VNF: one step out raises the aspect's level in stack config and adds the next VNFC", async () => {
    const op = planScaleOperation(await prepare([hw()]), { aspectId: "worker_instance", steps: 1, type: "out" });
    expect(op.configChanges).toEqual([{ key: "pulumi-nfv:vnfs.hw.scale_levels.worker_instance", value: "1" }]);
    expect(op.summary).toEqual(["aspect worker_instance: scale level 0 → 1", "+ VNFC VDU2-1"]);
    expect(op.replace).toEqual([]);
  });

  it("VM VNF: scale-in removes the highest index first, from the level in config", async () => {
    const op = planScaleOperation(await prepare([hw({ scaleLevels: { worker_instance: 2 } })]), { aspectId: "worker_instance", steps: 1, type: "in" });
    expect(op.summary).toEqual(["aspect worker_instance: scale level 2 → 1", "- VNFC VDU2-2"]);
  });

  it("VM VNF: with no scale level in config, starts from the instantiation level's (as VmVnf deploys it)", async () => {
    // helloworld3's instantiation_level_2: worker_instance at scale level 2, three VDU2s
    const prepared = await prepare([hw({ requestPath: path.join(ROOT, "test/fixtures/vnf/helloworld3_level2.json") })]);
    const op = planScaleOperation(prepared, { aspectId: "worker_instance", steps: 1, type: "in" });
    expect(op.summary).toEqual(["aspect worker_instance: scale level 2 → 1", "- VNFC VDU2-2"]);
    expect(op.configChanges).toEqual([{ key: "pulumi-nfv:vnfs.hw.scale_levels.worker_instance", value: "1" }]);
    expect(() => planScaleOperation(prepared, { aspectId: "worker_instance", steps: 1, type: "out" })).toThrow(/beyond max_scale_level 2/);
  });

  it("refuses an aspect no VNF has", () => {
    expect(() => planScaleOperation([] as PreparedVnf[], { aspectId: "x", steps: 1, type: "out" })).toThrow("no VNF of the stack has aspect 'x'");
  });

  it("refuses a scale beyond max_scale_level", async () => {
    const prepared = await prepare([hw({ scaleLevels: { worker_instance: 2 } })]);
    expect(() => planScaleOperation(prepared, { aspectId: "worker_instance", steps: 1, type: "out" })).toThrow(/max_scale_level|maximum/i);
  });

  it("CNF: changes the Deployment's replicas", async () => {
    const op = planScaleOperation(await prepare([cnf()]), { aspectId: "vdu2_aspect", steps: 1, type: "out" });
    expect(op.configChanges).toEqual([{ key: "pulumi-nfv:vnfs.cnf.scale_levels.vdu2_aspect", value: "1" }]);
    expect(op.summary).toEqual(["Deployment vdu2: replicas 1 → 2"]);
  });

  it("asks which VNF when several have the aspect", async () => {
    const prepared = await prepare([hw(), hw({ name: "hw2" })]);
    expect(() => planScaleOperation(prepared, { aspectId: "worker_instance", steps: 1, type: "out" })).toThrow(
      "several VNFs have aspect 'worker_instance' (hw, hw2); pass --vnf",
    );
    expect(planScaleOperation(prepared, { vnf: "hw2", aspectId: "worker_instance", steps: 1, type: "out" }).vnf).toBe("hw2");
  });
});

describe("nfv heal plans", () => {
  it("VM VNF, one VNFC: replaces exactly its server and raises its heal generation", async () => {
    const op = planHealOperation(await prepare([hw()]), { hw: { vnfcs: VNFCS } }, { vnfcIds: ["VDU2-0"] });
    expect(op.replace).toEqual(["urn:s2"]);
    expect(op.configChanges).toEqual([{ key: "pulumi-nfv:vnfs.hw.heal_generations.VDU2-0", value: "1" }]);
  });

  it("VM VNF, whole: every server, no port or volume", async () => {
    const op = planHealOperation(await prepare([hw({ healGenerations: { "VDU1-0": 3 } })]), { hw: { vnfcs: VNFCS } }, { vnfcIds: [] });
    expect(op.replace).toEqual(["urn:s1", "urn:s2"]);
    expect(op.replace.some((u) => u.startsWith("urn:p") || u.startsWith("urn:v"))).toBe(false);
    expect(op.configChanges).toEqual([
      { key: "pulumi-nfv:vnfs.hw.heal_generations.VDU1-0", value: "4" },
      { key: "pulumi-nfv:vnfs.hw.heal_generations.VDU2-0", value: "1" },
    ]);
  });

  it("refuses a VNFC that does not exist", async () => {
    expect(() => planHealOperation([...[]], {}, { vnfcIds: ["x"] })).toThrow("no VNF of the stack has VNFCs");
  });

  it("registry on an existing host: raises the host's heal generation (the install runs again); other VNFC ids refused", async () => {
    const registry: VnfEntry = {
      name: "registry",
      host: { address: "10.254.0.10", user: "root" },
      vnfInstanceId: "1d1c0f9e-3b7a-4e0a-9a55-6f1e2d3c4b5a",
      healGenerations: { host: 2 },
    };
    const prepared = await prepare([registry]);
    const op = planHealOperation(prepared, {}, { vnfcIds: ["host"] });
    expect(op.configChanges).toEqual([{ key: "pulumi-nfv:vnfs.registry.heal_generations.host", value: "3" }]);
    expect(op.replace).toEqual([]);
    expect(planHealOperation(prepared, {}, { vnfcIds: [] }).configChanges[0].value).toBe("3");
    expect(() => planHealOperation(prepared, {}, { vnfcIds: ["VDU1-0"] })).toThrow("VNFC `VDU1-0` does not exist (VNFCs: host)");
  });

  it("CNF, whole: raises the heal generation, replacing every workload on up", async () => {
    const op = planHealOperation(await prepare([cnf({ healGeneration: 1 })]), {}, { vnfcIds: [] });
    expect(op.configChanges).toEqual([{ key: "pulumi-nfv:vnfs.cnf.heal_generation", value: "2" }]);
  });

  it("CNF, one pod of the Deployment: deleted through the API, no up", async () => {
    const pod = {
      metadata: {
        name: "vdu2-5d8f7c9b4-x2x7k",
        namespace: "default",
        labels: { selector: "curry-probe-test001", tacker_vnf_instance_id: "6a1b1a52-7f5c-4c1f-a1d3-0f0e6c5d4b3a" },
        ownerReferences: [{ kind: "ReplicaSet", name: "vdu2-5d8f7c9b4", controller: true }],
      },
    };
    const op = planHealOperation(await prepare([cnf()]), {}, { vnfcIds: [pod.metadata.name] }, [pod]);
    expect(op.podDeletions).toEqual([expect.objectContaining({ name: "vdu2-5d8f7c9b4-x2x7k", vduId: "VDU2", namespace: "default" })]);
    expect(op.replace).toEqual([]);
    expect(op.configChanges).toEqual([]);
  });
});
