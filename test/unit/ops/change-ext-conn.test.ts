/** `nfv change-ext-conn` planning: the request checked against the VNF, the config it writes. */
import { readFileSync } from "node:fs";
import * as path from "node:path";
import { describe, expect, it } from "vitest";
import { planChangeExtConnOperation } from "../../../ops/change-ext-conn";
import { planScaleOperation } from "../../../ops/operations";
import { DiagnosticBag, DiagnosticError } from "../../../translators/diagnostics";
import { prepareVnfs, type VnfEntry } from "../../../stacks/vnfs";

const ROOT = path.join(__dirname, "../../..");
const CHANGE = path.join(ROOT, "test/fixtures/vnf/helloworld3_change_ext_conn.json");
const hw: VnfEntry = {
  name: "hw",
  vim: "core",
  vnfInstanceId: "0b1f0d1e-9c5a-4e8e-8d5a-2f6b7d0c1a11",
  packagePath: path.join(ROOT, "../shared/vnf-packages/helloworld3"),
  requestPath: path.join(ROOT, "test/fixtures/vnf/helloworld3_level1.json"),
  ssh: { cpId: "CP1", user: "cirros" },
  hooks: { change_external_connectivity_start: "/x/change.sh", change_external_connectivity_end: "/x/change.sh" },
};
const deployed = {
  hw: { vnfcs: { "VDU1-0": { ports: { CP1: { ips: ["192.0.2.21"] }, CP2: { ips: ["10.0.0.5"] } } }, "VDU2-0": { ports: { CP3: { ips: ["10.0.0.6"] } } } } },
};

async function prepared(entry: VnfEntry = hw) {
  const bag = new DiagnosticBag();
  const p = await prepareVnfs([entry], bag);
  expect(bag.errors()).toEqual([]);
  return p;
}

describe("nfv change-ext-conn plans", () => {
  it("adds the request to the VNF's change list and records each VNFC's current SSH address", async () => {
    const op = planChangeExtConnOperation(await prepared(), deployed, { requestPath: CHANGE, requestText: readFileSync(CHANGE, "utf8") });
    expect(op.vnf).toBe("hw");
    expect(op.configChanges).toEqual([
      { key: "pulumi-nfv:vnfs.hw.change_ext_conn.requests[0]", value: CHANGE },
      { key: "pulumi-nfv:vnfs.hw.change_ext_conn.previous_addresses.VDU1-0", value: "192.0.2.21" },
    ]);
    expect(op.summary).toEqual([
      "port VDU1-0/CP1: link ext0 (network 0f3e6a46-6a37-4d0f-9c51-1a8d0e2f7a11), fixed 192.0.2.31",
      "change_external_connectivity_start on VDU1-0 (at their current addresses)",
      "change_external_connectivity_end on VDU1-0",
    ]);
  });

  it("the second change is appended (the first stays applied), and the program sees both", async () => {
    const entry: VnfEntry = { ...hw, extConnChange: { requestPaths: [CHANGE], generation: 1, previousAddresses: {} } };
    const p = await prepared(entry);
    // The program's request has the first change applied: CP1's fixed address is the new one.
    expect(JSON.stringify(p[0].request)).toContain("192.0.2.31");
    const op = planChangeExtConnOperation(p, deployed, { requestPath: CHANGE, requestText: readFileSync(CHANGE, "utf8") });
    expect(op.configChanges[0].key).toBe("pulumi-nfv:vnfs.hw.change_ext_conn.requests[1]");
  });

  it("refuses a CP the flavour does not have, located in the plan's terms, before anything changes", async () => {
    const text = readFileSync(CHANGE, "utf8").replace('"cpdId": "CP1"', '"cpdId": "CP7"');
    const run = async () => planChangeExtConnOperation(await prepared(), deployed, { requestPath: CHANGE, requestText: text });
    await expect(run()).rejects.toThrow(DiagnosticError);
    await expect(run()).rejects.toThrow(/CP7/);
  });

  it("refuses an invalid request file, a VNF not deployed yet, and a VNF that is not VM-based", async () => {
    await expect(async () => planChangeExtConnOperation(await prepared(), deployed, { requestPath: CHANGE, requestText: "{}" })).rejects.toThrow(
      /extVirtualLinks/,
    );
    await expect(async () =>
      planChangeExtConnOperation(await prepared(), {}, { requestPath: CHANGE, requestText: readFileSync(CHANGE, "utf8") }),
    ).rejects.toThrow(/run up first/);
    const registry: VnfEntry = { name: "reg", vnfInstanceId: "x", host: { address: "192.0.2.9", user: "root" } };
    await expect(async () => planChangeExtConnOperation(await prepared(registry), {}, { vnf: "reg", requestPath: CHANGE, requestText: "{}" })).rejects.toThrow(
      /VM-based/,
    );
  });

  it("scale-in forgets the removed VNFCs' previous addresses: added again, they run no change hook", async () => {
    const entry: VnfEntry = {
      ...hw,
      scaleLevels: { worker_instance: 1 },
      extConnChange: { requestPaths: [CHANGE], generation: 1, previousAddresses: { "VDU1-0": "192.0.2.21", "VDU2-1": "10.0.0.7" } },
    };
    const op = planScaleOperation(await prepared(entry), { aspectId: "worker_instance", steps: 1, type: "in" });
    expect(op.configChanges).toEqual([
      { key: "pulumi-nfv:vnfs.hw.scale_levels.worker_instance", value: "0" },
      { key: "pulumi-nfv:vnfs.hw.change_ext_conn.previous_addresses.VDU2-1", remove: true },
    ]);
  });
});
