/** An NS planned with its constituents (loadNsPackage): the example NS, and each mismatch located at the NSD. */
import { describe, expect, it } from "vitest";
import type { Diagnostic } from "../../../translators/diagnostics";
import { loadNsPackage, type ConstituentSource } from "../../../translators/load-ns-package";
import { edit, positionOf, writePackage, type Files } from "../tosca/helpers";
import { examplePackage } from "./helpers";

const NSD = "Definitions/hybrid_ns.yaml";

function sources(client: Files = examplePackage("client-vnf"), server: Files = examplePackage("server-cnf")): Record<string, ConstituentSource> {
  return { client: { packagePath: writePackage(client), vimKind: "openstack" }, server: { packagePath: writePackage(server), vimKind: "kubernetes" } };
}

function errorsOf(diagnostics: Diagnostic[]): Diagnostic[] {
  return diagnostics.filter((d) => d.severity === "error");
}

async function refusedAt(ns: Files, given: Record<string, ConstituentSource>, code: string, marker: string): Promise<Diagnostic> {
  const dir = writePackage(ns);
  const loaded = await loadNsPackage(dir, given);
  expect(loaded.plan).toBeUndefined();
  const errors = errorsOf(loaded.diagnostics);
  expect(errors.map((d) => d.code)).toEqual([code]);
  expect(errors[0].file).toBe(`${dir}/${NSD}`);
  // A node template's place is its first line, one below its name.
  expect(errors[0].line).toBe(positionOf(ns.get(NSD)!, marker).line + (marker.endsWith(":\n") ? 1 : 0));
  return errors[0];
}

describe("planNetworkService", () => {
  it("plans the example NS: the server CNF on Kubernetes first, then the client VM VNF on OpenStack, both CPs on the one link", async () => {
    const loaded = await loadNsPackage(writePackage(examplePackage("ns")), sources());
    expect(errorsOf(loaded.diagnostics)).toEqual([]);
    expect(loaded.plan).toMatchObject({
      flavourId: "simple",
      levelId: "default",
      virtualLinks: [{ id: "service_link", cidr: "10.30.0.0/24" }],
      vnfs: [
        {
          id: "server",
          component: "container-vnf",
          vimKind: "kubernetes",
          dependsOn: [],
          extLinks: [{ virtualLinkId: "service_link", requirement: "virtual_link_service", cpId: "serverCp" }],
        },
        {
          id: "client",
          component: "vm-vnf",
          vimKind: "openstack",
          dependsOn: ["server"],
          extLinks: [{ virtualLinkId: "service_link", requirement: "virtual_link_service", cpId: "clientCp" }],
        },
      ],
    });
    expect(loaded.vnfs.client.graph?.flavourId).toBe("simple");
  });

  it("a VM VNF put on a Kubernetes VIM: NS_VIM_KIND_MISMATCH at its NSD node", async () => {
    const given = sources();
    given.client.vimKind = "kubernetes";
    const d = await refusedAt(examplePackage("ns"), given, "NS_VIM_KIND_MISMATCH", "    client:\n");
    expect(d.message).toBe("`client` is deployed by vm-vnf, which needs an OpenStack VIM; the stack config puts it on a Kubernetes VIM");
  });

  it("the package of another VNFD given for a VNF: NS_UNKNOWN_VNF_DESCRIPTOR", async () => {
    const given = sources(examplePackage("server-cnf"));
    given.client.vimKind = "kubernetes";
    const d = await refusedAt(examplePackage("ns"), given, "NS_UNKNOWN_VNF_DESCRIPTOR", "    client:\n");
    expect(d.message).toContain("9b8e1d2c-3f4a-4b5c-8d6e-7f0a1b2c3d4e");
  });

  it("no package for a VNF: NS_VNF_PACKAGE_MISSING; a package for a VNF the NSD lacks: NS_UNKNOWN_VNF", async () => {
    const { server } = sources();
    await refusedAt(examplePackage("ns"), { server }, "NS_VNF_PACKAGE_MISSING", "    client:\n");
    const dir = writePackage(examplePackage("ns"));
    const loaded = await loadNsPackage(dir, { ...sources(), proxy: sources().server });
    expect(errorsOf(loaded.diagnostics)).toMatchObject([{ code: "NS_UNKNOWN_VNF", file: `${dir}/${NSD}`, message: expect.stringContaining("`proxy`") }]);
  });

  it("an NSD requirement the VNFD does not expose: NS_UNKNOWN_REQUIREMENT at the requirement", async () => {
    const client = edit(
      examplePackage("client-vnf"),
      "Definitions/client_vnf.yaml",
      "      virtual_link_service: [clientCp, virtual_link]",
      "      virtual_link_other: [clientCp, virtual_link]",
    );
    await refusedAt(examplePackage("ns"), sources(client), "NS_UNKNOWN_REQUIREMENT", "virtual_link_service: service_link\n        - dependency");
  });

  it("a VNF flavour the VNFD lacks: NS_UNKNOWN_VNF_FLAVOUR", async () => {
    const ns = edit(
      examplePackage("ns"),
      NSD,
      "        flavour_id: simple\n        flavour_description: one client VM",
      "        flavour_id: large\n        flavour_description: one client VM",
    );
    await refusedAt(ns, sources(), "NS_UNKNOWN_VNF_FLAVOUR", "    client:\n");
  });

  it("a level with two instances of a VNF (profile allows it): NS_INSTANCES_UNSUPPORTED", async () => {
    let ns = edit(examplePackage("ns"), NSD, "            default: 1\n        targets: [client]", "            default: 2\n        targets: [client]");
    ns = edit(
      ns,
      NSD,
      "          max_number_of_instances: 1\n      requirements:\n        - virtual_link_service: service_link\n        - dependency",
      "          max_number_of_instances: 2\n      requirements:\n        - virtual_link_service: service_link\n        - dependency",
    );
    await refusedAt(ns, sources(), "NS_INSTANCES_UNSUPPORTED", "    client:\n");
  });

  it("a level with no server: the server is left out, the client no longer waits for it", async () => {
    const ns = edit(examplePackage("ns"), NSD, "            default: 1\n        targets: [server]", "            default: 0\n        targets: [server]");
    const edited = edit(
      ns,
      NSD,
      "          min_number_of_instances: 1\n          max_number_of_instances: 1\n      requirements:\n        - virtual_link_service: service_link\n\n",
      "          min_number_of_instances: 0\n          max_number_of_instances: 1\n      requirements:\n        - virtual_link_service: service_link\n\n",
    );
    const loaded = await loadNsPackage(writePackage(edited), sources());
    expect(errorsOf(loaded.diagnostics)).toEqual([]);
    expect(loaded.plan?.vnfs.map((v) => [v.id, v.dependsOn])).toEqual([["client", []]]);
  });
});
