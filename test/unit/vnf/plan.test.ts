/**
 * planVmVnf on small hand-built flavours: affinity rules, several instances with per-instance
 * fixed addresses, an existing port, a handed-over network; and the server-group hint under mocks.
 */
import * as openstack from "@pulumi/openstack";
import { afterEach, beforeAll, describe, expect, it } from "vitest";
import { settle, type Registered } from "../helpers/pulumi-mocks";
import type { ComputeVdu, Flavour } from "../../../translators/tosca/model";
import type { InstantiateVnfRequest } from "../../../translators/tacker/instantiate-request";
import { installVnfMocks } from "./vnf-mocks";

let registered: Registered[];
let vnf: typeof import("../../../components/vnf");

beforeAll(async () => {
  ({ registered } = installVnfMocks());
  vnf = await import("../../../components/vnf");
});
afterEach(async () => {
  await settle();
  registered.length = 0;
});

const vdu = (id: string, n: number, extra: Partial<ComputeVdu> = {}): ComputeVdu => ({
  kind: "compute",
  id,
  name: id,
  minInstances: 1,
  maxInstances: 3,
  initialInstances: n,
  instancesByLevel: {},
  scaling: [],
  virtualCompute: { memoryMib: 2048, numCpus: 2, localStorageGib: [20], requestedFlavorNames: ["m1.small"] },
  swImage: { name: "ubuntu-22.04", version: "22.04" },
  storageIds: [],
  ...extra,
});

const flavour = (): Flavour => ({
  id: "ha",
  description: "",
  file: "Definitions/x.yaml",
  vdus: [vdu("master", 3), vdu("worker", 1)],
  storages: [],
  cps: [
    { id: "master_CP1", vduId: "master", layerProtocols: ["ipv4"], order: 0, externalRequirement: "ext" },
    { id: "master_CP2", vduId: "master", layerProtocols: ["ipv4"], order: 1, virtualLinkId: "mgmt" },
    { id: "worker_CP1", vduId: "worker", layerProtocols: ["ipv4"], order: 0, externalRequirement: "ext2" },
  ],
  vls: [{ id: "mgmt", layerProtocols: ["ipv4"], bitrateByLevel: {}, ipVersion: "ipv4" }],
  aspects: [],
  instantiationLevels: [],
  placementGroups: [],
  affinityRules: [{ id: "master_anti", kind: "anti-affinity", scope: "nfvi_node", targets: ["master"], vduIds: ["master"] }],
  lcmHooks: [],
  defaultLcmOperations: [],
  externalLinks: [],
});

const fixed = (ip: string) => ({
  cpProtocolData: [
    { layerProtocol: "IP_OVER_ETHERNET", ipOverEthernet: { ipAddresses: [{ type: "IPV4" as const, fixedAddresses: [ip], subnetId: "sub-ext" }] } },
  ],
});
const req = (): InstantiateVnfRequest => ({
  flavourId: "ha",
  extVirtualLinks: [
    { id: "ext", resourceId: "net-ext", extCps: [{ cpdId: "master_CP1", cpConfig: [fixed("192.0.2.11"), fixed("192.0.2.12"), fixed("192.0.2.13")] }] },
    { id: "ext2", resourceId: "net-ext2", extCps: [{ cpdId: "worker_CP1", cpConfig: [{ linkPortId: "port-existing" }] }] },
  ],
  extManagedVirtualLinks: [{ id: "m", vnfVirtualLinkDescId: "mgmt", resourceId: "net-mgmt" }],
});

describe("planVmVnf", () => {
  it("cpConfig[i] gives instance i its fixed address; VIPs go to every port of the CP; anti-affinity group", () => {
    const plan = vnf.planVmVnf([flavour()], req(), { allowedAddressPairs: { master_CP1: ["192.0.2.10"] } });
    expect(
      plan.vnfcs.map((v) => [
        v.id,
        v.ports.map((p) => [p.cpId, p.networkId, p.fixedAddresses.join(","), p.allowedAddressPairs.join(",")]),
        v.serverGroup ?? null,
      ]),
    ).toEqual([
      [
        "master-0",
        [
          ["master_CP1", "ext", "192.0.2.11", "192.0.2.10"],
          ["master_CP2", "mgmt", "", ""],
        ],
        "master_anti",
      ],
      [
        "master-1",
        [
          ["master_CP1", "ext", "192.0.2.12", "192.0.2.10"],
          ["master_CP2", "mgmt", "", ""],
        ],
        "master_anti",
      ],
      [
        "master-2",
        [
          ["master_CP1", "ext", "192.0.2.13", "192.0.2.10"],
          ["master_CP2", "mgmt", "", ""],
        ],
        "master_anti",
      ],
      ["worker-0", [["worker_CP1", "ext2", "", ""]], null],
    ]);
    expect(plan.vnfcs[3].ports[0].linkPortId).toBe("port-existing");
    expect(plan.networks).toEqual([
      { id: "mgmt", external: true, resourceId: "net-mgmt", ipVersion: 4, dhcpEnabled: true },
      { id: "ext", external: true, resourceId: "net-ext", ipVersion: 4, dhcpEnabled: true },
      { id: "ext2", external: true, resourceId: "net-ext2", ipVersion: 4, dhcpEnabled: true },
    ]);
    expect(plan.serverGroups).toEqual([{ ruleId: "master_anti", policy: "anti-affinity" }]);
  });

  it("collects every problem: VL without CIDR, duplicate address, unconnected external CP, zone scope", () => {
    const f = flavour();
    f.affinityRules[0].scope = "zone";
    const r = req();
    r.extManagedVirtualLinks = [];
    r.extVirtualLinks![0].extCps[0].cpConfig[1] = fixed("192.0.2.11");
    r.extVirtualLinks!.pop();
    try {
      vnf.planVmVnf([f], r);
      expect.fail("no error");
    } catch (e) {
      expect((e as { diagnostics: { code: string }[] }).diagnostics.map((d) => d.code).sort()).toEqual([
        "VNF_AFFINITY_SCOPE",
        "VNF_CP_UNCONNECTED",
        "VNF_DUPLICATE_ADDRESS",
        "VNF_VL_NO_CIDR",
      ]);
    }
  });

  it("serverGroupPolicies: a group per VDU the VNFD leaves out, with the given policy; a VDU in a rule too, an unknown VDU or policy is refused", () => {
    const plan = vnf.planVmVnf([flavour()], req(), { serverGroupPolicies: { worker: "soft-anti-affinity" } });
    expect(plan.serverGroups).toEqual([
      { ruleId: "master_anti", policy: "anti-affinity" },
      { ruleId: "worker_server_group", policy: "soft-anti-affinity" },
    ]);
    expect(plan.vnfcs.find((v) => v.id === "worker-0")!.serverGroup).toBe("worker_server_group");
    try {
      vnf.planVmVnf([flavour()], req(), { serverGroupPolicies: { master: "anti-affinity", nope: "affinity", worker: "spread" as never } });
      expect.fail("no error");
    } catch (e) {
      expect((e as { diagnostics: { code: string; message: string }[] }).diagnostics.map((d) => d.code).sort()).toEqual([
        "VNF_AFFINITY_TWICE",
        "VNF_SERVER_GROUP_POLICY",
        "VNF_UNKNOWN_VDU",
      ]);
    }
  });

  it("VmVnf: the server group is a scheduler hint of each member; an existing port is used, not created; the requested flavor name is used", async () => {
    const provider = new openstack.Provider("vim-provider", { authUrl: "http://192.0.2.10/identity" });
    new vnf.VmVnf("k8s", { flavours: [flavour()], request: req(), provider, allowedAddressPairs: { master_CP1: ["192.0.2.10"] } });
    await settle();
    const sg = registered.find((r) => r.name === "k8s-master_anti")!;
    expect(sg.type).toBe("openstack:compute/serverGroup:ServerGroup");
    expect(sg.inputs).toEqual({ name: "k8s-master_anti", policies: ["anti-affinity"] });
    for (const i of [0, 1, 2]) expect(registered.find((r) => r.name === `k8s-master-${i}`)!.inputs.schedulerHints).toEqual([{ group: "k8s-master_anti-id" }]);
    const worker = registered.find((r) => r.name === "k8s-worker-0")!;
    expect(worker.inputs.schedulerHints).toBeUndefined();
    expect(worker.inputs.networks).toEqual([{ port: "port-existing" }]);
    expect(worker.inputs.flavorName).toBe("m1.small");
    expect(
      registered
        .filter((r) => r.type === "openstack:networking/port:Port")
        .map((r) => r.name)
        .sort(),
    ).toEqual([
      "k8s-master-0-master_CP1",
      "k8s-master-0-master_CP2",
      "k8s-master-1-master_CP1",
      "k8s-master-1-master_CP2",
      "k8s-master-2-master_CP1",
      "k8s-master-2-master_CP2",
    ]);
    expect(registered.find((r) => r.name === "k8s-master-1-master_CP1")!.inputs).toMatchObject({
      networkId: "net-ext",
      fixedIps: [{ subnetId: "sub-ext", ipAddress: "192.0.2.12" }],
      allowedAddressPairs: [{ ipAddress: "192.0.2.10" }],
    });
    expect(registered.filter((r) => r.type === "openstack:networking/network:Network")).toEqual([]);
  });
});
