/**
 * A legacy VM VNFD (Tacker's tosca-vnfd-hello-world.yaml, test/fixtures/legacy-vm) through the
 * translator, the component graph and VmVnf against Pulumi mocks: the same path as a SOL001
 * package. Proves the resources asked for and their inputs, not that Nova boots them (that is
 * test/integration/legacy-vm-on-openstack-lab.test.ts, not run here).
 */
import * as path from "node:path";
import { join } from "node:path";
import * as openstack from "@pulumi/openstack";
import { afterEach, beforeAll, describe, expect, it } from "vitest";
import { settle, valueOf, type Registered } from "../helpers/pulumi-mocks";
import { planComponentGraph } from "../../../translators/graph/to-component-graph";
import type { ComputeVdu, VnfModel } from "../../../translators/tosca/model";
import { translatePackage } from "../../../translators/tosca/translate";
import { writePackage } from "../tosca/helpers";
import { forget, graph, installVnfMocks, type Invoked } from "./vnf-mocks";

const HELLO = path.join(__dirname, "../../fixtures/legacy-vm/tosca-vnfd-hello-world.yaml");

let registered: Registered[];
let invoked: Invoked[];
let vnf: typeof import("../../../components/vnf");
let hello: VnfModel;
let provider: openstack.Provider;

beforeAll(async () => {
  ({ registered, invoked } = installVnfMocks());
  vnf = await import("../../../components/vnf");
  const result = await translatePackage(HELLO);
  if (!result.model) throw new Error(JSON.stringify(result.diagnostics));
  hello = result.model;
  provider = new openstack.Provider("vim-provider", { authUrl: "http://192.0.2.10/identity" });
  await settle();
});
afterEach(() => forget(registered, invoked));

/** A legacy VNFD file (lines 1-4 are this header, then `body`), validated as a single file. */
function legacy(body: string) {
  const text = `tosca_definitions_version: tosca_simple_profile_for_nfv_1_0_0\nmetadata:\n  template_name: t\ntopology_template:\n${body}`;
  return translatePackage(join(writePackage(new Map([["vnfd.yaml", text]])), "vnfd.yaml"));
}

describe("tosca-vnfd-hello-world.yaml", () => {
  it("is a compute VDU with three ports on existing networks; what is not honoured is warned, located", async () => {
    const result = await translatePackage(HELLO);
    expect(result.diagnostics.map((d) => [d.severity, d.code, d.line])).toEqual([
      ["warning", "LEGACY_NOT_HONOURED", 20], // availability_zone
      ["warning", "LEGACY_NOT_HONOURED", 22], // config
    ]);
    const f = hello.flavours[0];
    const vdu = f.vdus[0] as ComputeVdu;
    expect(vdu).toMatchObject({ id: "VDU1", kind: "compute", initialInstances: 1, swImage: { name: "cirros-0.5.2-x86_64-disk" } });
    expect(vdu.virtualCompute).toEqual({ memoryMib: 512, numCpus: 1, localStorageGib: [1], requestedFlavorNames: [] });
    expect(f.cps.map((c) => [c.id, c.virtualLinkId, c.order])).toEqual([
      ["CP1", "VL1", 0],
      ["CP2", "VL2", 1],
      ["CP3", "VL3", 2],
    ]);
    expect(f.vls.map((v) => [v.id, v.networkName])).toEqual([
      ["VL1", "net_mgmt"],
      ["VL2", "net0"],
      ["VL3", "net1"],
    ]);
  });

  it("plans a vm-vnf whose networks exist, by name", () => {
    const { graph: g, diagnostics } = planComponentGraph(hello, "default");
    expect(diagnostics).toEqual([]);
    expect(g!.nodes[0]).toMatchObject({ kind: "component", component: "vm-vnf" });
    expect(g!.nodes.filter((n) => n.kind === "network").map((n) => n.kind === "network" && [n.networkId, n.external, n.resourceName])).toEqual([
      ["VL1", true, "net_mgmt"],
      ["VL2", true, "net0"],
      ["VL3", true, "net1"],
    ]);
  });

  it("becomes a VmVnf: a sized flavor, the image and networks looked up by name, three ports, one server", async () => {
    const v = new vnf.VmVnf("hello", { flavours: hello.flavours, request: { flavourId: "default" }, provider });
    expect(Object.keys(await valueOf(v.vnfcs))).toEqual(["VDU1-0"]);
    await settle();
    expect(
      graph(registered)
        .filter((g) => g.startsWith("openstack:"))
        .sort(),
    ).toEqual([
      "openstack:compute/flavor:Flavor hello-VDU1-flavor",
      "openstack:compute/instance:Instance hello-VDU1-0",
      "openstack:networking/port:Port hello-VDU1-0-CP1",
      "openstack:networking/port:Port hello-VDU1-0-CP2",
      "openstack:networking/port:Port hello-VDU1-0-CP3",
    ]);
    expect(registered.find((r) => r.name === "hello-VDU1-flavor")!.inputs).toMatchObject({ ram: 512, vcpus: 1, disk: 1 });
    expect(registered.filter((r) => r.type === "openstack:networking/port:Port").map((r) => r.inputs.networkId)).toEqual([
      "network-net_mgmt",
      "network-net0",
      "network-net1",
    ]);
    expect(invoked.map((i) => [i.token, i.inputs.name]).sort()).toEqual([
      ["openstack:images/getImage:getImage", "cirros-0.5.2-x86_64-disk"],
      ["openstack:networking/getNetwork:getNetwork", "net0"],
      ["openstack:networking/getNetwork:getNetwork", "net1"],
      ["openstack:networking/getNetwork:getNetwork", "net_mgmt"],
    ]);
    expect(registered.filter((r) => r.type.startsWith("openstack:")).every((r) => /::vim-provider::/.test(r.provider ?? ""))).toBe(true);
  });
});

describe("legacy VM VNFDs: flavor, key_name, user_data, policies", () => {
  const node =
    "  node_templates:\n    VDU1:\n      type: tosca.nodes.nfv.VDU.Tacker\n      properties:\n        image: cirros\n        flavor: m1.tiny\n        key_name: userKey\n        user_data_format: RAW\n        user_data: |\n          #!/bin/sh\n          echo hi\n";
  const policy = (text: string) => legacy(`${node}  policies:\n${text}`);

  it("a named flavor, key pair and user data reach the server", async () => {
    const result = await legacy(node);
    expect(result.diagnostics).toEqual([]);
    const v = new vnf.VmVnf("kv", { flavours: result.model!.flavours, request: { flavourId: "default" }, provider });
    await valueOf(v.vnfcs);
    await settle();
    expect(registered.filter((r) => r.type === "openstack:compute/flavor:Flavor")).toEqual([]);
    expect(registered.find((r) => r.name === "kv-VDU1-0")!.inputs).toMatchObject({
      flavorName: "m1.tiny",
      keyPair: "userKey",
      userData: "#!/bin/sh\necho hi\n",
    });
  });

  it("Scaling sets the instance counts, with a warning that scale actions are not available", async () => {
    const result = await policy(
      "    - SP1:\n        type: tosca.policies.tacker.Scaling\n        properties:\n          targets: [VDU1]\n          increment: 1\n          min_instances: 1\n          max_instances: 3\n          default_instances: 2\n",
    );
    expect(result.model!.flavours[0].vdus[0]).toMatchObject({ minInstances: 1, maxInstances: 3, initialInstances: 2 });
    expect(result.diagnostics.map((d) => [d.severity, d.code, d.line])).toEqual([["warning", "LEGACY_NOT_HONOURED", 17]]);
  });

  it("Placement becomes an anti-affinity server group; an invalid policy is refused as Tacker refuses it", async () => {
    const placement = (p: string) =>
      policy(
        `    - P1:\n        type: tosca.policies.tacker.Placement\n        properties:\n          policy: ${p}\n          strict: true\n        targets: [ VDU1 ]\n`,
      );
    expect((await placement("anti-affinity")).model!.flavours[0].affinityRules).toEqual([
      { id: "P1", kind: "anti-affinity", scope: "nfvi_node", targets: ["VDU1"], vduIds: ["VDU1"] },
    ]);
    const invalid = await placement("invalid");
    expect(invalid.model).toBeUndefined();
    expect(invalid.diagnostics.map((d) => [d.code, d.line])).toEqual([["VALUE_CONSTRAINT", 20]]);
  });

  it("an Alarming policy is warned as not honoured; a trigger key Tacker does not know (`actions`) is refused", async () => {
    const alarm = (key: string) =>
      policy(
        `    - A1:\n        type: tosca.policies.tacker.Alarming\n        triggers:\n          t1:\n            metric: cpu_util\n            ${key}: [respawn]\n`,
      );
    expect((await alarm("action")).diagnostics.map((d) => [d.severity, d.code])).toEqual([["warning", "LEGACY_NOT_HONOURED"]]);
    expect((await alarm("actions")).diagnostics.filter((d) => d.severity === "error").map((d) => [d.code, d.line])).toEqual([
      ["TEMPLATE_UNKNOWN_PROPERTY", 22],
    ]);
  });

  it("a VDU without image or flavor, and a Reservation policy, are refused, located", async () => {
    const bare = await legacy("  node_templates:\n    VDU1:\n      type: tosca.nodes.nfv.VDU.Tacker\n      properties:\n        mgmt_driver: noop\n");
    expect(bare.diagnostics.map((d) => [d.code, d.line])).toEqual([
      ["LEGACY_NO_FLAVOR", 9],
      ["LEGACY_NO_IMAGE", 9],
    ]);
    const rsv = await policy("    - RSV:\n        type: tosca.policies.tacker.Reservation\n");
    expect(rsv.diagnostics.filter((d) => d.severity === "error").map((d) => [d.code, d.line])).toEqual([["TEMPLATE_UNKNOWN_TYPE", 18]]);
  });
});
