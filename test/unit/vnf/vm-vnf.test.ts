/**
 * VmVnf against Pulumi mocks, on the real helloworld3 package (translated by translators/tosca).
 * Proves which resources are asked for, with which inputs, options and provider; not that a
 * cloud accepts them (the lab issue does that).
 */
import * as path from "node:path";
import * as openstack from "@pulumi/openstack";
import * as pulumi from "@pulumi/pulumi";
import { afterEach, beforeAll, describe, expect, it } from "vitest";
import { settle, valueOf, type Registered } from "../helpers/pulumi-mocks";
import type { VnfModel } from "../../../translators/tosca/model";
import { forget, graph, request, vnfTestBed, type Invoked } from "./vnf-mocks";

let registered: Registered[];
let invoked: Invoked[];
let vnf: typeof import("../../../components/vnf");
let hw3: VnfModel;
let provider: openstack.Provider;

beforeAll(async () => {
  ({ registered, invoked, vnf, hw3, provider } = await vnfTestBed());
});
afterEach(() => forget(registered, invoked));

const named = (name: string) => {
  const r = registered.filter((x) => x.name === name);
  expect(r, name).toHaveLength(1);
  return r[0];
};
const children = () => registered.filter((r) => r.type.startsWith("openstack:"));

const LEVEL1 = [
  "nfv:vnf:VmVnf hw",
  "openstack:blockstorage/volume:Volume hw-VDU2-0-VirtualStorage",
  "openstack:compute/flavor:Flavor hw-VDU1-flavor",
  "openstack:compute/flavor:Flavor hw-VDU2-flavor",
  "openstack:compute/instance:Instance hw-VDU1-0",
  "openstack:compute/instance:Instance hw-VDU2-0",
  "openstack:networking/network:Network hw-internalVL2",
  "openstack:networking/port:Port hw-VDU1-0-CP1",
  "openstack:networking/port:Port hw-VDU1-0-CP2",
  "openstack:networking/port:Port hw-VDU2-0-CP3",
  "openstack:networking/subnet:Subnet hw-internalVL2-subnet",
];

describe("VmVnf on helloworld3 (two VDUs, boot volume, internal and external VLs)", () => {
  it("instantiation_level_1: exact resource graph, on the VIM provider", async () => {
    const v = new vnf.VmVnf("hw", { flavours: hw3.flavours, request: request("helloworld3_level1.json"), provider });
    const vnfcs = await valueOf(v.vnfcs);
    await settle();
    expect(
      graph(registered)
        .filter((g) => !g.startsWith("pulumi:providers"))
        .sort(),
    ).toEqual(LEVEL1);
    for (const r of children()) expect(r.provider, r.name).toMatch(/::vim-provider::/);
    expect(Object.keys(vnfcs).sort()).toEqual(["VDU1-0", "VDU2-0"]);
    expect(await valueOf(v.scaleLevels)).toEqual({ worker_instance: 0 });
    // Lookups go to the VIM too: images by sw_image_data.name.
    expect(invoked.map((i) => [i.token, i.inputs.name])).toEqual([
      ["openstack:images/getImage:getImage", "Software of VDU1"],
      ["openstack:images/getImage:getImage", "VirtualStorage"],
    ]);
  });

  it("ports: fixed IP from cpConfig on the external network, DHCP on the internal subnet; servers on pre-created ports", async () => {
    const v = new vnf.VmVnf("hw", {
      flavours: hw3.flavours,
      request: request("helloworld3_level1.json"),
      provider,
      allowedAddressPairs: { CP1: ["192.0.2.100"] },
      securityGroupIds: { CP1: ["sg-ssh"] },
    });
    const vnfcs = await valueOf(v.vnfcs);
    await settle();
    expect(named("hw-VDU1-0-CP1").inputs).toEqual({
      name: "hw-VDU1-0-CP1",
      adminStateUp: true,
      networkId: "0f3e6a46-6a37-4d0f-9c51-1a8d0e2f7a11",
      fixedIps: [{ subnetId: "5c1b7c1e-8f0e-4f43-9a53-3b1d2f6d9e01", ipAddress: "192.0.2.21" }],
      allowedAddressPairs: [{ ipAddress: "192.0.2.100" }],
      securityGroupIds: ["sg-ssh"],
      tags: ["nfv-vnfc-id=VDU1-0", "nfv-cp-id=CP1"],
    });
    expect(named("hw-VDU1-0-CP2").inputs).toEqual({
      name: "hw-VDU1-0-CP2",
      adminStateUp: true,
      networkId: "hw-internalVL2-id",
      fixedIps: [{ subnetId: "hw-internalVL2-subnet-id" }],
      tags: ["nfv-vnfc-id=VDU1-0", "nfv-cp-id=CP2"],
    });
    expect(named("hw-internalVL2-subnet").inputs).toEqual({
      name: "hw-internalVL2",
      networkId: "hw-internalVL2-id",
      cidr: "11.11.0.0/24",
      ipVersion: 4,
      enableDhcp: true,
    });
    expect(named("hw-VDU1-0").inputs).toEqual({
      name: "hw-VDU1-0",
      flavorId: "hw-VDU1-flavor-id",
      imageId: "image-Software of VDU1",
      networks: [{ port: "hw-VDU1-0-CP1-id" }, { port: "hw-VDU1-0-CP2-id" }],
      metadata: { "nfv-vnfc-id": "VDU1-0", "nfv-vdu-id": "VDU1", "nfv-vnf": "hw" },
    });
    // VDU2 has no image of its own: it boots from its VirtualStorage volume, kept as a separate resource.
    expect(named("hw-VDU2-0").inputs.blockDevices).toEqual([
      { uuid: "hw-VDU2-0-VirtualStorage-id", sourceType: "volume", destinationType: "volume", bootIndex: 0, deleteOnTermination: false },
    ]);
    expect(named("hw-VDU2-0").inputs.imageId).toBeUndefined();
    expect(named("hw-VDU2-0-VirtualStorage").inputs).toEqual({ name: "hw-VDU2-0-VirtualStorage", size: 3, imageId: "image-VirtualStorage" });
    expect(named("hw-VDU1-flavor").inputs).toEqual({ name: "hw-VDU1", ram: 512, vcpus: 1, disk: 3, isPublic: false });
    expect(vnfcs["VDU1-0"]).toEqual({
      vdu: "VDU1",
      index: 0,
      serverId: "hw-VDU1-0-id",
      serverUrn: "urn:pulumi:test::pulumi-nfv::nfv:vnf:VmVnf$openstack:compute/instance:Instance::hw-VDU1-0",
      ports: {
        CP1: {
          portId: "hw-VDU1-0-CP1-id",
          portUrn: "urn:pulumi:test::pulumi-nfv::nfv:vnf:VmVnf$openstack:networking/port:Port::hw-VDU1-0-CP1",
          ips: ["192.0.2.21"],
        },
        CP2: {
          portId: "hw-VDU1-0-CP2-id",
          portUrn: "urn:pulumi:test::pulumi-nfv::nfv:vnf:VmVnf$openstack:networking/port:Port::hw-VDU1-0-CP2",
          ips: [expect.stringMatching(/^10\.0\.0\./)],
        },
      },
      ips: ["192.0.2.21", expect.stringMatching(/^10\.0\.0\./)],
      volumeUrns: [],
    });
    expect(vnfcs["VDU2-0"].volumeUrns).toEqual(["urn:pulumi:test::pulumi-nfv::nfv:vnf:VmVnf$openstack:blockstorage/volume:Volume::hw-VDU2-0-VirtualStorage"]);
  });

  it("servers are replaced delete-before-replace (they sit on pre-created ports)", async () => {
    const { VmVnf } = vnf;
    const seen: string[] = [];
    // Options are not visible to mocks; a transformation sees them.
    new VmVnf(
      "hw",
      { flavours: hw3.flavours, request: request("helloworld3_level1.json"), provider },
      {
        transformations: [
          (a) => {
            if (a.type === "openstack:compute/instance:Instance" && (a.opts as pulumi.CustomResourceOptions).deleteBeforeReplace) seen.push(a.name);
            return undefined;
          },
        ],
      },
    );
    await settle();
    expect(seen.sort()).toEqual(["hw-VDU1-0", "hw-VDU2-0"]);
  });

  it("instantiation_level_2: three VDU2 VNFCs, each with its port and boot volume; still one network", async () => {
    const v = new vnf.VmVnf("hw", { flavours: hw3.flavours, request: request("helloworld3_level2.json"), provider });
    const vnfcs = await valueOf(v.vnfcs);
    await settle();
    const extra = [1, 2].flatMap((i) => [
      `openstack:blockstorage/volume:Volume hw-VDU2-${i}-VirtualStorage`,
      `openstack:compute/instance:Instance hw-VDU2-${i}`,
      `openstack:networking/port:Port hw-VDU2-${i}-CP3`,
    ]);
    expect(
      graph(registered)
        .filter((g) => !g.startsWith("pulumi:providers"))
        .sort(),
    ).toEqual([...LEVEL1, ...extra].sort());
    expect(Object.keys(vnfcs).sort()).toEqual(["VDU1-0", "VDU2-0", "VDU2-1", "VDU2-2"]);
    expect(await valueOf(v.scaleLevels)).toEqual({ worker_instance: 2 });
    expect(v.plan.vnfcs.map((c) => [c.id, c.scaledOut])).toEqual([
      ["VDU1-0", false],
      ["VDU2-0", false],
      ["VDU2-1", false],
      ["VDU2-2", false],
    ]);
  });

  it("scale level from stack config: level 1 + worker_instance=1 adds VDU2-1, marked as scaled out", async () => {
    const v = new vnf.VmVnf("hw", { flavours: hw3.flavours, request: request("helloworld3_level1.json"), provider, scaleLevels: { worker_instance: 1 } });
    await settle();
    expect(v.plan.vnfcs.map((c) => [c.id, c.scaledOut])).toEqual([
      ["VDU1-0", false],
      ["VDU2-0", false],
      ["VDU2-1", true],
    ]);
    expect(
      registered
        .filter((r) => r.type === "openstack:compute/instance:Instance")
        .map((r) => r.name)
        .sort(),
    ).toEqual(["hw-VDU1-0", "hw-VDU2-0", "hw-VDU2-1"]);
  });

  it("a flavor name from the config wins over sizing; upload takes the image from the package", async () => {
    const dir = path.resolve(__dirname, "../../fixtures/vnf/pkg-with-image");
    new vnf.VmVnf("hw", {
      flavours: hw3.flavours,
      request: request("helloworld3_level1.json"),
      provider,
      flavorNames: { VDU1: "m1.tiny", VDU2: "m1.small" },
      images: "upload",
      packageDir: dir,
    });
    await settle();
    expect(registered.filter((r) => r.type === "openstack:compute/flavor:Flavor")).toEqual([]);
    expect(named("hw-VDU1-0").inputs.flavorName).toBe("m1.tiny");
    expect(named("hw-image-software-of-vdu1").inputs).toEqual({
      name: "Software of VDU1",
      containerFormat: "bare",
      diskFormat: "qcow2",
      localFilePath: `${dir}/Files/images/cirros-0.5.2-x86_64-disk.img`,
      visibility: "private",
      minDiskGb: 1,
    });
    expect(invoked).toEqual([]);
  });
});
