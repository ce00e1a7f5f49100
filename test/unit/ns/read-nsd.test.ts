/** The NSD reader: the example NS as a model, and each bad NSD refused where the mistake is. */
import { describe, expect, it } from "vitest";
import type { Diagnostic } from "../../../translators/diagnostics";
import { translateSource } from "../../../translators/tosca/translate";
import { edit, memory, positionOf, type Files } from "../tosca/helpers";
import { examplePackage } from "./helpers";

const NSD = "Definitions/hybrid_ns.yaml";

function errorOf(diagnostics: Diagnostic[], code: string): Diagnostic {
  const match = diagnostics.find((d) => d.severity === "error" && d.code === code);
  if (!match) throw new Error(`expected ${code}, got:\n${diagnostics.map((d) => `${d.code} ${d.message}`).join("\n")}`);
  return match;
}

/** `below`: the problem is at a node template, located at its first line, one below the marker (the node's name). */
function refused(files: Files, code: string, marker: string, below = 0): Diagnostic {
  const result = translateSource(memory(files), { expect: "ns" });
  expect(result.ns).toBeUndefined();
  const d = errorOf(result.diagnostics, code);
  expect(d.file).toBe(`pkg/${NSD}`);
  expect(d.line).toBe(positionOf(files.get(NSD)!, marker).line + below);
  return d;
}

describe("NSD reader", () => {
  it("reads the example NS: two VNFs in dependency order, one NS virtual link with its subnet, one level", () => {
    const result = translateSource(memory(examplePackage("ns")), { expect: "ns" });
    expect(result.diagnostics.filter((d) => d.severity === "error").map((d) => `${d.line} ${d.code} ${d.message}`)).toEqual([]);
    const ns = result.ns!;
    expect(ns.ns).toMatchObject({
      descriptorId: "7f3a4c1e-2b6d-4e8f-9a01-5c2d3e4f5a6b",
      name: "hybrid-ns",
      designer: "pulumi-nfv",
      nodeType: "pulumi_nfv.examples.HybridNs",
    });
    expect(ns.flavours.map((f) => f.id)).toEqual(["simple"]);
    const [flavour] = ns.flavours;
    // client depends on server: server is deployed first although the file names client first.
    expect(flavour.vnfs.map((v) => v.id)).toEqual(["server", "client"]);
    const client = flavour.vnfs[1];
    expect(client).toMatchObject({
      descriptorId: "4c0e7b52-9d1a-4f3e-8b6c-2a5d7e9f1b3c",
      flavourId: "simple",
      minInstances: 1,
      maxInstances: 1,
      dependsOn: ["server"],
    });
    expect(client.links.map((l) => [l.requirement, l.virtualLinkId])).toEqual([["virtual_link_service", "service_link"]]);
    expect(client.at).toMatchObject({ file: `pkg/${NSD}`, line: positionOf(examplePackage("ns").get(NSD)!, "    client:\n").line + 1 });
    expect(flavour.virtualLinks).toMatchObject([{ id: "service_link", layerProtocols: ["ipv4"], ipVersion: "ipv4", cidr: "10.30.0.0/24", dhcpEnabled: true }]);
    expect(flavour.levels).toEqual([{ id: "default", description: "one client, one server", vnfInstances: { client: 1, server: 1 } }]);
    expect(flavour.defaultLevelId).toBe("default");
  });

  it("a VNF package is not an NS (PKG_IS_VNFD), an NS package is not a VNF (PKG_IS_NSD)", () => {
    expect(errorOf(translateSource(memory(examplePackage("client-vnf")), { expect: "ns" }).diagnostics, "PKG_IS_VNFD").file).toBe(
      "pkg/Definitions/client_vnf.yaml",
    );
    const asVnf = translateSource(memory(examplePackage("ns")));
    expect(asVnf.model).toBeUndefined();
    expect(errorOf(asVnf.diagnostics, "PKG_IS_NSD").file).toBe(`pkg/${NSD}`);
  });

  it("a virtual link requirement naming a node that is not there: TEMPLATE_DANGLING_REQUIREMENT at the requirement", () => {
    const files = edit(
      examplePackage("ns"),
      NSD,
      "        - virtual_link_service: service_link\n        - dependency: server",
      "        - virtual_link_service: service_lnk\n        - dependency: server",
    );
    refused(files, "TEMPLATE_DANGLING_REQUIREMENT", "service_lnk");
  });

  it("a virtual link requirement naming a VNF: NS_NOT_A_VIRTUAL_LINK", () => {
    const files = edit(
      examplePackage("ns"),
      NSD,
      "        - virtual_link_service: service_link\n        - dependency: server",
      "        - virtual_link_service: server\n        - dependency: server",
    );
    refused(files, "NS_NOT_A_VIRTUAL_LINK", "virtual_link_service: server");
  });

  it("an NS virtual link no VNF names: NS_DANGLING_VIRTUAL_LINK at the link", () => {
    let files = edit(
      examplePackage("ns"),
      NSD,
      "        - virtual_link_service: service_link\n        - dependency: server",
      "        - virtual_link_service: service_link_2\n        - dependency: server",
    );
    files = edit(files, NSD, "        - virtual_link_service: service_link\n\n", "        - virtual_link_service: service_link_2\n\n");
    files = edit(
      files,
      NSD,
      "    service_link:\n",
      "    service_link_2:\n      type: tosca.nodes.nfv.NsVirtualLink\n      properties:\n        connectivity_type: { layer_protocols: [ipv4] }\n        vl_profile: { max_bitrate_requirements: { root: 1 }, min_bitrate_requirements: { root: 1 } }\n    service_link:\n",
    );
    refused(files, "NS_DANGLING_VIRTUAL_LINK", "    service_link:\n", 1);
  });

  it("a dependency cycle: NS_DEPENDENCY_CYCLE naming the cycle, at the requirement that closes it", () => {
    const files = edit(
      examplePackage("ns"),
      NSD,
      "        - virtual_link_service: service_link\n\n",
      "        - virtual_link_service: service_link\n        - dependency: client\n\n",
    );
    const d = refused(files, "NS_DEPENDENCY_CYCLE", "dependency: client");
    expect(d.message).toContain("client → server → client");
  });

  it("a dependency on a virtual link: NS_BAD_DEPENDENCY", () => {
    const files = edit(examplePackage("ns"), NSD, "        - dependency: server", "        - dependency: service_link");
    refused(files, "NS_BAD_DEPENDENCY", "dependency: service_link");
  });

  it("a level that gives more instances than the vnf_profile allows: NS_INSTANCES_OUT_OF_RANGE", () => {
    const files = edit(examplePackage("ns"), NSD, "            default: 1\n        targets: [server]", "            default: 3\n        targets: [server]");
    refused(files, "NS_INSTANCES_OUT_OF_RANGE", "default: 3");
  });

  it("a VnfToLevelMapping on an unknown level, and a default level that is not a level: NS_UNKNOWN_LEVEL", () => {
    refused(
      edit(examplePackage("ns"), NSD, "            default: 1\n        targets: [client]", "            big: 1\n        targets: [client]"),
      "NS_UNKNOWN_LEVEL",
      "big: 1",
    );
    refused(edit(examplePackage("ns"), NSD, "default_level: default", "default_level: huge"), "NS_UNKNOWN_LEVEL", "default_level: huge");
  });

  it("a VnfToLevelMapping targeting the virtual link: NS_BAD_TARGET at the targets", () => {
    refused(edit(examplePackage("ns"), NSD, "targets: [server]", "targets: [service_link]"), "NS_BAD_TARGET", "targets: [service_link]");
  });
});
