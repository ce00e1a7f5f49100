/**
 * planHeal and planScale: pure planning. The heal tests feed planHeal the VNFC map a real VmVnf
 * exports (under mocks), then build the VmVnf with the planned heal generations to show which
 * hook commands appear. Proves the plan; `nfv heal` running it is the lead's CLI.
 */
import * as path from "node:path";
import * as openstack from "@pulumi/openstack";
import { afterEach, beforeAll, describe, expect, it } from "vitest";
import { settle, valueOf, type Registered } from "../helpers/pulumi-mocks";
import type { VnfModel } from "../../../translators/tosca/model";
import { forget, request, vnfTestBed } from "../vnf/vnf-mocks";

let registered: Registered[];
let vnf: typeof import("../../../components/vnf");
let ops: typeof import("../../../ops/vm");
let hw3: VnfModel;
let provider: openstack.Provider;
const NOOP = path.resolve(__dirname, "../../fixtures/vnf/hooks/noop.sh");
const U = "urn:pulumi:test::pulumi-nfv::nfv:vnf:VmVnf$";

beforeAll(async () => {
  ({ registered, vnf, hw3, provider } = await vnfTestBed());
  ops = await import("../../../ops/vm");
});
afterEach(() => forget(registered));

const args = (healGenerations?: Record<string, number>) => ({
  flavours: hw3.flavours,
  request: request("helloworld3_level2.json"),
  provider,
  healGenerations,
  hooks: [
    { operation: "heal_start" as const, script: NOOP },
    { operation: "heal_end" as const, script: NOOP },
  ],
  ssh: { cpId: ["CP1", "CP3"], user: "ubuntu", privateKey: "K" },
});

describe("planHeal", () => {
  it("single VNFC: exactly one server replaced, its port and volume kept, its two hook commands", async () => {
    const v = new vnf.VmVnf("hw", args());
    const vnfcs = await valueOf(v.vnfcs);
    await settle();
    const plan = ops.planHeal({ vnfcs, vnfcIds: ["VDU2-1"], hookOperations: ["heal_start", "heal_end"] });
    expect(plan).toEqual({
      kind: "vnfc",
      vnfcIds: ["VDU2-1"],
      replace: [`${U}openstack:compute/instance:Instance::hw-VDU2-1`],
      keep: [`${U}openstack:networking/port:Port::hw-VDU2-1-CP3`, `${U}openstack:blockstorage/volume:Volume::hw-VDU2-1-VirtualStorage`],
      hooks: [
        { vnfcId: "VDU2-1", operation: "heal_start" },
        { vnfcId: "VDU2-1", operation: "heal_end" },
      ],
      healGenerations: { "VDU2-1": 1 },
      hookUrns: [`${U}command:remote:Command::hw-VDU2-1-heal_start`, `${U}command:remote:Command::hw-VDU2-1-heal_end`],
    });
    registered.length = 0;
    // The next `up` with the planned config: the hook commands are exactly those, with the URNs the plan names.
    const healed = new vnf.VmVnf("hw", args(plan.healGenerations));
    await settle();
    expect(
      registered
        .filter((r) => /heal_(start|end)$/.test(r.name))
        .map((r) => r.name)
        .sort(),
    ).toEqual(["hw-VDU2-1-heal_end", "hw-VDU2-1-heal_start"]);
    const urns = await Promise.all(["hw-VDU2-1-heal_start", "hw-VDU2-1-heal_end"].map((n) => valueOf(healed.hookCommands.get(n)!.urn)));
    expect(urns).toEqual(plan.hookUrns);
  });

  it("whole VNF: every server replaced, no port or volume; generations bumped from the current ones", async () => {
    const v = new vnf.VmVnf("hw", args({ "VDU1-0": 3 }));
    const vnfcs = await valueOf(v.vnfcs);
    const plan = ops.planHeal({ vnfcs, healGenerations: { "VDU1-0": 3 }, hookOperations: ["heal_end"] });
    expect(plan.kind).toBe("whole");
    expect(plan.replace).toEqual(["VDU1-0", "VDU2-0", "VDU2-1", "VDU2-2"].map((id) => `${U}openstack:compute/instance:Instance::hw-${id}`));
    expect(plan.replace.filter((u) => /Port|Volume|Network|Subnet/.test(u))).toEqual([]);
    expect(plan.keep).toHaveLength(5 + 3); // VDU1: 2 ports; VDU2 ×3: 1 port + 1 volume each
    expect(plan.healGenerations).toEqual({ "VDU1-0": 4, "VDU2-0": 1, "VDU2-1": 1, "VDU2-2": 1 });
    expect(plan.hooks.map((h) => `${h.vnfcId}:${h.operation}`)).toEqual(["VDU1-0:heal_end", "VDU2-0:heal_end", "VDU2-1:heal_end", "VDU2-2:heal_end"]);
  });

  it("duplicate ids heal once; no hooks when the VNFD has none", () => {
    const vnfcs = { "A-0": { vdu: "A", index: 0, serverUrn: `${U}openstack:compute/instance:Instance::x-A-0`, ports: {}, volumeUrns: [] } };
    const plan = ops.planHeal({ vnfcs, vnfcIds: ["A-0", "A-0"] });
    expect(plan.replace).toEqual([`${U}openstack:compute/instance:Instance::x-A-0`]);
    expect(plan.hooks).toEqual([]);
    expect(plan.healGenerations).toEqual({ "A-0": 1 });
  });
});

describe("planScale", () => {
  it("scale out by 2 from level 0: VDU2-1 and VDU2-2 added, level 2", () => {
    const plan = ops.planScale({ flavour: hw3.flavours[0], currentLevels: { worker_instance: 0 }, aspectId: "worker_instance", steps: 2, type: "out" });
    expect(plan).toEqual({
      aspectId: "worker_instance",
      from: 0,
      to: 2,
      scaleLevels: { worker_instance: 2 },
      instances: { VDU2: { from: 1, to: 3 } },
      added: ["VDU2-1", "VDU2-2"],
      removed: [],
      hooks: [
        { vnfcId: "VDU2-1", operation: "scale_end" },
        { vnfcId: "VDU2-2", operation: "scale_end" },
      ],
    });
  });

  it("scale in removes the highest index first", () => {
    const plan = ops.planScale({ flavour: hw3.flavours[0], currentLevels: { worker_instance: 2 }, aspectId: "worker_instance", steps: 2, type: "in" });
    expect(plan.removed).toEqual(["VDU2-2", "VDU2-1"]);
    expect(plan.hooks).toEqual([
      { vnfcId: "VDU2-2", operation: "scale_start" },
      { vnfcId: "VDU2-1", operation: "scale_start" },
    ]);
    expect(plan.scaleLevels).toEqual({ worker_instance: 0 });
  });

  it("the planned level gives the VmVnf those VNFCs", async () => {
    const plan = ops.planScale({ flavour: hw3.flavours[0], currentLevels: {}, aspectId: "worker_instance", steps: 1, type: "out" });
    const v = new vnf.VmVnf("hw", { flavours: hw3.flavours, request: request("helloworld3_level1.json"), provider, scaleLevels: plan.scaleLevels });
    expect(v.plan.vnfcs.map((c) => c.id)).toEqual(["VDU1-0", "VDU2-0", ...plan.added]);
  });

  it("bounds: below 0, unknown aspect, bad steps", () => {
    const f = hw3.flavours[0];
    expect(() => ops.planScale({ flavour: f, currentLevels: { worker_instance: 0 }, aspectId: "worker_instance", steps: 1, type: "in" })).toThrow(
      /SCALE_BELOW_ZERO/,
    );
    expect(() => ops.planScale({ flavour: f, currentLevels: {}, aspectId: "master", steps: 1, type: "out" })).toThrow(
      /SCALE_UNKNOWN_ASPECT.*aspects: worker_instance/,
    );
    expect(() => ops.planScale({ flavour: f, currentLevels: {}, aspectId: "worker_instance", steps: 0, type: "out" })).toThrow(/SCALE_STEPS/);
  });
});

describe("hookUrn", () => {
  it("keeps the parent-type chain and swaps the type", () => {
    expect(
      ops.hookUrn("urn:pulumi:prod::pulumi-nfv::nfv:registry:PrivateRegistry$nfv:vnf:VmVnf$openstack:compute/instance:Instance::reg-vnf-X-0", "heal_end"),
    ).toBe("urn:pulumi:prod::pulumi-nfv::nfv:registry:PrivateRegistry$nfv:vnf:VmVnf$command:remote:Command::reg-vnf-X-0-heal_end");
    expect(ops.hookUrn("urn:pulumi:s::p::openstack:compute/instance:Instance::top", "heal_start")).toBe(
      "urn:pulumi:s::p::command:remote:Command::top-heal_start",
    );
  });
});
