/**
 * `loadVnfPackage`: the package, the Tacker request (a file or an object, with ext-conn changes)
 * and the component graph in one call, every problem a located diagnostic and nothing thrown.
 */
import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import * as path from "node:path";
import { describe, expect, it } from "vitest";
import { loadVnfPackage } from "../../translators/load-vnf-package";
import { readInstantiateRequest } from "../../translators/tacker/instantiate-request";
import { FIXTURES, PACKAGES } from "./vnf/vnf-mocks";

const HW3 = path.join(PACKAGES, "helloworld3");
const LEVEL1 = path.join(FIXTURES, "helloworld3_level1.json");
const VALID_ZIP = path.join(__dirname, "../fixtures/packages/valid.zip");

function file(name: string, text: string): string {
  const f = path.join(mkdtempSync(path.join(tmpdir(), "load-vnf-package-")), name);
  writeFileSync(f, text);
  return f;
}

describe("loadVnfPackage", () => {
  it("a package and its request file: model, request, graph at the request's level, the component, no problem", async () => {
    const loaded = await loadVnfPackage(HW3, LEVEL1);
    expect(loaded.diagnostics).toEqual([]);
    expect(loaded.model?.flavours.map((f) => f.id)).toEqual(["simple"]);
    expect(loaded.request?.instantiationLevelId).toBe("instantiation_level_1");
    expect(loaded.graph).toMatchObject({ flavourId: "simple", instantiationLevelId: "instantiation_level_1" });
    expect(loaded.component).toBe("vm-vnf");
    expect(loaded.pkg.source.read("TOSCA-Metadata/TOSCA.meta")).toBeDefined();
  });

  it("the request as an object plans as the same file does", async () => {
    const { request } = readInstantiateRequest(readFileSync(LEVEL1, "utf8"), LEVEL1);
    const [fromObject, fromFile] = await Promise.all([loadVnfPackage(HW3, request), loadVnfPackage(HW3, LEVEL1)]);
    expect(fromObject).toMatchObject({ component: "vm-vnf", request, diagnostics: [] });
    expect(fromObject.graph).toEqual(fromFile.graph);
  });

  it("no request: the first flavour at its default level; options.flavourId picks another", async () => {
    expect((await loadVnfPackage(VALID_ZIP)).graph?.flavourId).toBe("simple");
    const other = await loadVnfPackage(VALID_ZIP, undefined, { flavourId: "nope" });
    expect(other.graph).toBeUndefined();
    expect(other.diagnostics.map((d) => d.code)).toEqual(["VNF_UNKNOWN_FLAVOUR"]);
  });

  it("a plan problem that names no file is located in the request file", async () => {
    const bad = file(
      "req.json",
      JSON.stringify({
        flavourId: "simple",
        instantiationLevelId: "instantiation_level_1",
        extVirtualLinks: [{ id: "x", resourceId: "r", extCps: [{ cpdId: "NOPE", cpConfig: [] }] }],
      }),
    );
    const loaded = await loadVnfPackage(HW3, bad);
    expect(loaded.diagnostics.filter((d) => d.severity === "error")).toEqual([expect.objectContaining({ code: "VNF_UNKNOWN_CP", file: bad })]);
  });

  it("a plan problem in a package file is located at its line and column there, the file as the package prints it", async () => {
    const TEST_CNF = path.join(PACKAGES, "test_cnf");
    // VDU2's Deployment only: VDU1 (a node template of the flavour file, line 44) has no workload.
    const req = file(
      "req.json",
      JSON.stringify({ flavourId: "simple", additionalParams: { "lcm-kubernetes-def-files": ["Files/kubernetes/deployment.yaml"] } }),
    );
    const loaded = await loadVnfPackage(TEST_CNF, req);
    expect(loaded.diagnostics.filter((d) => d.severity === "error")).toEqual([
      expect.objectContaining({
        code: "CNF_VDU_NO_WORKLOAD",
        file: path.join(TEST_CNF, "Definitions/helloworld3_df_simple.yaml"),
        line: 45,
        column: 7,
        path: "topology_template.node_templates.VDU1",
      }),
    ]);
  });

  it("an unusable request plans nothing: its errors, located, are the answer", async () => {
    const broken = file("req.json", '{"flavourId": 3}');
    const loaded = await loadVnfPackage(HW3, broken);
    expect(loaded.model).toBeDefined();
    expect(loaded.graph).toBeUndefined();
    expect(loaded.diagnostics.every((d) => d.file === broken && d.line !== undefined)).toBe(true);
    const missing = await loadVnfPackage(HW3, "/nonexistent/req.json");
    expect(missing.diagnostics).toEqual([expect.objectContaining({ severity: "error", code: "REQUEST_UNREADABLE", file: "/nonexistent/req.json" })]);
  });

  it("a broken package: no model, its errors, nothing thrown", async () => {
    const loaded = await loadVnfPackage(path.join(__dirname, "../fixtures/packages/zip-path-escape.zip"), LEVEL1);
    expect(loaded.model).toBeUndefined();
    expect(loaded.diagnostics.map((d) => d.code)).toContain("PKG_ZIP_ESCAPE");
  });

  it("ext-conn changes apply to the request in order", async () => {
    const loaded = await loadVnfPackage(HW3, LEVEL1, { extConnChanges: [path.join(FIXTURES, "helloworld3_change_ext_conn.json")] });
    expect(loaded.diagnostics).toEqual([]);
    const addresses = loaded.request?.extVirtualLinks?.flatMap((l) =>
      l.extCps.flatMap((c) =>
        c.cpConfig.flatMap((k) => k.cpProtocolData?.flatMap((p) => p.ipOverEthernet?.ipAddresses?.flatMap((a) => a.fixedAddresses ?? []) ?? []) ?? []),
      ),
    );
    expect(addresses).toEqual(["192.0.2.31"]);
  });
});
