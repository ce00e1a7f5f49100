/**
 * Tacker's legacy NSD (test/fixtures/legacy-nsd/nsd.yaml, the shape of Tacker's nsd_usage_guide)
 * with the two legacy VNFDs of Tacker's samples/tosca-templates/nsd (tacker-corpus): read, planned
 * with VNFs matched by node type, each bad NSD located, and deployed by NetworkService under
 * mocks on the existing networks its VLs name.
 */
import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import * as pulumi from "@pulumi/pulumi";
import { beforeAll, describe, expect, it } from "vitest";
import { loadNsPackage } from "../../../translators/load-ns-package";
import { loadVnfPackage } from "../../../translators/load-vnf-package";
import { openPackage } from "../../../translators/tosca/phase1-read/read-package";
import { translateRead } from "../../../translators/tosca/translate";
import { REPO, SHARED_PACKAGES } from "../tosca/helpers";

const NSD = join(REPO, "test/fixtures/legacy-nsd/nsd.yaml");
const CORPUS = join(SHARED_PACKAGES, "tacker-corpus/packages");
const VNFD1 = join(CORPUS, "legacy_samples_tosca-templates_nsd_sample-tosca-vnfd1.yaml/sample-tosca-vnfd1.yaml");
const VNFD2 = join(CORPUS, "legacy_samples_tosca-templates_nsd_sample-tosca-vnfd2.yaml/sample-tosca-vnfd2.yaml");
const TEXT = readFileSync(NSD, "utf8");

/** The fixture NSD with one text replaced, as a file of its own. */
function nsdWith(from: string, to: string, file = "nsd.yaml"): string {
  if (!TEXT.includes(from)) throw new Error(`fixture has no ${from}`);
  const path = join(mkdtempSync(join(tmpdir(), "legacy-nsd-")), file);
  writeFileSync(path, TEXT.replace(from, to));
  return path;
}

const errors = (d: { severity: string; code: string; line?: number; path?: string }[]) =>
  d.filter((x) => x.severity === "error").map((x) => `${x.code} ${x.line}:${x.path}`);
const both = { VNF1: { packagePath: VNFD1 }, VNF2: { packagePath: VNFD2 } };

describe("Tacker's legacy NSD", () => {
  it("reads as an NS of one flavour: VNFs by node type, VLs as existing networks by name (get_input's default)", async () => {
    const { ns, diagnostics } = translateRead(await openPackage(NSD), { expect: "ns" });
    expect(diagnostics).toEqual([]);
    expect(ns!.ns.descriptorId).toBe("legacy-ns");
    const [flavour] = ns!.flavours;
    expect(flavour.id).toBe("default");
    expect(flavour.vnfs.map((v) => [v.id, v.nodeType, v.links.map((l) => `${l.requirement}→${l.virtualLinkId}`)])).toEqual([
      ["VNF1", "tosca.nodes.nfv.VNF1", ["virtualLink1→VL1", "virtualLink2→VL2"]],
      ["VNF2", "tosca.nodes.nfv.VNF2", []],
    ]);
    expect(flavour.virtualLinks.map((l) => [l.id, l.networkName])).toEqual([
      ["VL1", "net_mgmt"],
      ["VL2", "net0"],
    ]);
  });

  it("a legacy VNFD's substitution_mappings: its node type and the CPs its requirements expose", async () => {
    const { model } = await loadVnfPackage(VNFD1);
    expect(model!.vnf.nodeType).toBe("tosca.nodes.nfv.VNF1");
    expect(model!.flavours[0].externalLinks).toEqual([
      { name: "virtualLink1", cpId: "CP11", requirement: "virtualLink" },
      { name: "virtualLink2", cpId: "CP14", requirement: "virtualLink" },
    ]);
  });

  it("plans with the VNFDs: VNF1's CP11 and CP14 on the NSD's VLs, both VM VNFs on OpenStack", async () => {
    const loaded = await loadNsPackage(NSD, both);
    expect(errors(loaded.diagnostics)).toEqual([]);
    expect(loaded.plan!.vnfs.map((v) => [v.id, v.component, v.vimKind, v.extLinks.map((l) => `${l.cpId}→${l.virtualLinkId}`)])).toEqual([
      ["VNF1", "vm-vnf", "openstack", ["CP11→VL1", "CP14→VL2"]],
      ["VNF2", "vm-vnf", "openstack", []],
    ]);
    expect(loaded.plan!.virtualLinks.map((l) => l.networkName)).toEqual(["net_mgmt", "net0"]);
  });

  it("a package that substitutes another node type is refused at the VNF node", async () => {
    const loaded = await loadNsPackage(NSD, { VNF1: { packagePath: VNFD2 }, VNF2: { packagePath: VNFD2 } });
    const e = loaded.diagnostics.filter((d) => d.severity === "error");
    expect(e.map((d) => [d.code, d.line, d.message])).toEqual([
      [
        "NS_UNKNOWN_VNF_DESCRIPTOR",
        15,
        "`VNF1` has type tosca.nodes.nfv.VNF1, but the package given for it substitutes tosca.nodes.nfv.VNF2 (its substitution_mappings.node_type)",
      ],
    ]);
    expect(loaded.plan).toBeUndefined();
  });

  it("bad NSDs: each located, nothing planned", async () => {
    const refused = async (path: string) => {
      const loaded = await loadNsPackage(path, both);
      expect(loaded.plan).toBeUndefined();
      return errors(loaded.diagnostics);
    };
    expect(await refused(nsdWith("network_name: net0", "vendor2: x"))).toEqual(["LEGACY_NO_NETWORK 29:topology_template.node_templates.VL2.properties"]);
    expect(await refused(nsdWith("- virtualLink2: VL2", "- virtualLink2: VNF2"))).toEqual([
      "NS_NOT_A_VIRTUAL_LINK 18:topology_template.node_templates.VNF1.requirements[1].virtualLink2",
    ]);
    expect(await refused(nsdWith("- virtualLink2: VL2", "- virtualLink9: VL2"))).toEqual([
      "NS_UNKNOWN_REQUIREMENT 18:topology_template.node_templates.VNF1.requirements[1].virtualLink9",
    ]);
    expect(await refused(nsdWith("    VNF2:\n      type: tosca.nodes.nfv.VNF2", "    Forwarding_path1:\n      type: tosca.nodes.nfv.FP.TackerV2"))).toEqual([
      "LEGACY_NSD_VNFFG 20:topology_template.node_templates.Forwarding_path1.type",
    ]);
  });

  it("is an NSD, not a VNFD: a VNF entry naming it is refused", async () => {
    const loaded = await loadVnfPackage(NSD);
    expect(loaded.diagnostics.filter((d) => d.severity === "error").map((d) => d.code)).toEqual(["PKG_IS_NSD"]);
  });
});

describe("NetworkService of a legacy NSD (mocks)", () => {
  const invokes: { token: string; name: unknown }[] = [];
  const ports: { name: string; networkId: unknown }[] = [];
  beforeAll(() => {
    pulumi.runtime.setMocks(
      {
        newResource(args) {
          if (args.type === "openstack:networking/port:Port") ports.push({ name: args.name, networkId: args.inputs.networkId });
          return { id: `${args.name}-id`, state: args.inputs };
        },
        call(args) {
          invokes.push({ token: args.token, name: args.inputs.name });
          return args.token === "openstack:networking/getNetwork:getNetwork" ? { ...args.inputs, id: `id-of-${args.inputs.name}` } : args.inputs;
        },
      },
      "pulumi-nfv",
      "test",
      false,
    );
  });

  it("puts VNF1's exposed CPs on the existing networks its VLs name, looked up by name; creates no network", async () => {
    const loaded = await loadNsPackage(NSD, both);
    const { NetworkService } = await import("../../../components/ns");
    const vm = (id: "VNF1" | "VNF2") => ({ flavours: loaded.vnfs[id].model!.flavours, request: { flavourId: "default" } });
    const service = new NetworkService("legacy", { plan: loaded.plan!, vmVnfs: { VNF1: vm("VNF1"), VNF2: vm("VNF2") } });
    const ids = await new Promise((resolve) => service.linkNetworkIds.apply(resolve));
    expect(ids).toEqual({ VL1: "id-of-net_mgmt", VL2: "id-of-net0" });
    for (let i = 0; i < 5; i++) await new Promise((r) => setTimeout(r, 10));
    expect(invokes.filter((c) => c.token === "openstack:networking/getNetwork:getNetwork").map((c) => c.name)).toEqual(
      expect.arrayContaining(["net_mgmt", "net0"]),
    );
    expect(Object.keys(service.networks)).toEqual([]);
    const on = (port: string) => ports.find((p) => p.name === port)?.networkId;
    expect([on("legacy-VNF1-VDU1-0-CP11"), on("legacy-VNF1-VDU2-0-CP14")]).toEqual(["id-of-net_mgmt", "id-of-net0"]);
  });
});
