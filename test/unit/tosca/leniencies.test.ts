/** One test per documented leniency (translators/tosca/leniencies.ts): accepted here, and why. */
import { describe, expect, it } from "vitest";
import { LENIENCIES } from "../../../translators/tosca/leniencies";
import { translateSource, type TranslateResult } from "../../../translators/tosca/translate";
import { baseFiles, edit, memory, positionOf, type Files } from "./helpers";

const VNFD = "Definitions/vnfd.yaml";
const base = baseFiles();
const errorsOf = (files: Files) => translateSource(memory(files)).diagnostics.filter((d) => d.severity === "error");

/**
 * A leniency from L10 on: by default exactly one warning, `code`, naming the leniency, at the line
 * of `at` in `file`, and a model; with --strict the same problem is an error and there is no model.
 */
function expectTolerated(files: Files, leniency: string, code: string, at: string, file = VNFD): TranslateResult {
  const result = translateSource(memory(files));
  expect(result.diagnostics.map((d) => [d.severity, d.code])).toEqual([["warning", code]]);
  const [d] = result.diagnostics;
  expect(d.message).toContain(`${leniency}: Tacker accepts this`);
  expect(d.file).toBe(`pkg/${file}`);
  expect(d.line).toBe(positionOf(files.get(file)!, at).line);
  expect(d.column).toBeGreaterThanOrEqual(1);
  expect(result.model).toBeDefined();
  const strict = translateSource(memory(files), { strict: true });
  expect(strict.diagnostics.filter((x) => x.severity === "error").map((x) => x.code)).toEqual([code]);
  expect(strict.model).toBeUndefined();
  return result;
}

describe("leniencies", () => {
  it("L1: a URL import uses the same-named file next to the importer", () => {
    const files = edit(
      base,
      VNFD,
      "  - etsi_nfv_sol001_common_types.yaml\n",
      "  - https://forge.etsi.org/rep/nfv/SOL001/raw/v2.6.1/etsi_nfv_sol001_common_types.yaml\n",
    );
    expect(errorsOf(files)).toEqual([]);
    const missing = edit(base, VNFD, "  - etsi_nfv_sol001_common_types.yaml\n", "  - https://example.com/other_types.yaml\n");
    expect(errorsOf(missing).map((d) => d.code)).toContain("IMPORT_NOT_FOUND");
  });

  it("L2: a version may be a YAML number", () => {
    const files = edit(
      base,
      VNFD,
      "topology_template:\n",
      "node_types:\n  my.VNF:\n    derived_from: tosca.nodes.nfv.VNF\n    properties:\n      version:\n        type: version\n        default: 1.0\n\ntopology_template:\n",
    );
    expect(errorsOf(files)).toEqual([]);
    const bad = edit(files, VNFD, "default: 1.0", "default: one");
    expect(errorsOf(bad).map((d) => d.code)).toEqual(["VALUE_TYPE"]);
  });

  it("L3: a string may be a YAML number, compared as text", () => {
    expect(errorsOf(edit(base, VNFD, "software_version: '1.0'", "software_version: 1.5"))).toEqual([]);
    const files = edit(base, VNFD, "vnfm_info: [ 'etsivnfm:v2.6.1' ]", "vnfm_info: [ 1.5 ]");
    // The entry_schema pattern still applies to the text `1.5`.
    expect(errorsOf(files).map((d) => d.code)).toEqual(["VALUE_CONSTRAINT"]);
  });

  it("L4: `requirements:` with every entry commented out is no requirement", () => {
    expect(
      errorsOf(edit(base, VNFD, "      requirements:\n        - virtual_storage: Storage1\n", "      requirements:\n        # - virtual_storage: Storage1\n")),
    ).toEqual([]);
  });

  it("L5: undeclared substitution requirement names and `[]` are accepted", () => {
    expect(errorsOf(edit(base, VNFD, "virtual_link_external: [ CP1, virtual_link ]", "virtual_link_external1_1: [ CP1, virtual_link ]"))).toEqual([]);
    expect(errorsOf(edit(base, VNFD, "virtual_link_external: [ CP1, virtual_link ]", "virtual_link_external: []"))).toEqual([]);
  });

  it("L6: a flavour file the entry does not import is loaded from the entry's directory", () => {
    const files = new Map(base);
    files.set("Definitions/other_flavour.yaml", base.get(VNFD)!.replace("flavour_id: simple", "flavour_id: other"));
    const result = translateSource(memory(files));
    expect(result.model?.flavours.map((f) => f.id)).toEqual(["simple", "other"]);
  });

  it("L7: an operation written as [] is declared without implementation", () => {
    const result = translateSource(
      memory(edit(base, VNFD, "          instantiate_end:\n            implementation: hook\n", "          instantiate_end: []\n")),
    );
    expect(result.diagnostics).toEqual([]);
    expect(result.model?.flavours[0].defaultLcmOperations).toEqual(["instantiate_end"]);
    expect(result.model?.flavours[0].lcmHooks).toEqual([]);
  });

  it("L8: a derived type's property definition replaces the inherited one", () => {
    const files = edit(
      base,
      VNFD,
      "topology_template:\n",
      "node_types:\n  my.VNF:\n    derived_from: tosca.nodes.nfv.VNF\n    properties:\n      vnfm_info:\n        type: list\n        entry_schema:\n          type: string\n          constraints: [ valid_values: [ Tacker ] ]\n\ntopology_template:\n",
    );
    const derived = edit(
      edit(files, VNFD, "      type: tosca.nodes.nfv.VNF\n", "      type: my.VNF\n"),
      VNFD,
      "vnfm_info: [ 'etsivnfm:v2.6.1' ]",
      "vnfm_info: [ Tacker ]",
    );
    expect(errorsOf(derived)).toEqual([]);
    // Tacker does not match the ETSI pattern of the base type.
    expect(errorsOf(edit(base, VNFD, "vnfm_info: [ 'etsivnfm:v2.6.1' ]", "vnfm_info: [ Tacker ]")).map((d) => d.code)).toEqual(["VALUE_CONSTRAINT"]);
  });

  it("L9: a substitution property violating the type's constraint is a warning", () => {
    const files = edit(base, VNFD, "      flavour_id: simple\n", "      flavour_id: 'has space'\n");
    const withType = edit(
      files,
      VNFD,
      "topology_template:\n",
      "node_types:\n  my.VNF:\n    derived_from: tosca.nodes.nfv.VNF\n    properties:\n      flavour_id:\n        type: string\n        constraints: [ valid_values: [ simple ] ]\n\ntopology_template:\n",
    );
    const result = translateSource(memory(edit(withType, VNFD, "    node_type: tosca.nodes.nfv.VNF", "    node_type: my.VNF")));
    expect(result.diagnostics.map((d) => [d.severity, d.code])).toEqual([["warning", "SUBSTITUTION_CONSTRAINT"]]);
  });

  it("L10: a group without a required property is a warning; an error with --strict", () => {
    const files = edit(base, VNFD, "      properties:\n        description: VDUs kept apart\n", "");
    expectTolerated(files, "L10", "TEMPLATE_MISSING_PROPERTY", "      type: tosca.groups.nfv.PlacementGroup");
  });

  it("L11: the only root YAML of a package without TOSCA.meta or .mf is the entry", () => {
    const files: Files = new Map([...base].filter(([f]) => f !== "TOSCA-Metadata/TOSCA.meta" && f !== VNFD));
    // Moved to the root: imports and artifact paths are relative to the file.
    const vnfd = base
      .get(VNFD)!
      .replace(/^( {2}- )(etsi_nfv_sol001_\w+\.yaml)$/gm, "$1Definitions/$2")
      .replace("../Scripts/hook.py", "Scripts/hook.py");
    files.set("vnfd.yaml", vnfd);
    const result = expectTolerated(files, "L11", "PKG_NO_ENTRY_DEFINITIONS", "tosca_definitions_version", "vnfd.yaml");
    expect(result.model?.flavours.map((f) => f.id)).toEqual(["simple"]);
    files.set("other.yaml", vnfd);
    expect(errorsOf(files).map((d) => d.code)).toEqual(["PKG_NO_ENTRY_DEFINITIONS"]);
  });

  it("L12: an artifact missing from the package is a warning when only the manifest lists it", () => {
    const meta = "TOSCA-Meta-File-Version: 1.0\nCSAR-Version: 1.1\nCreated-by: t\nEntry-Definitions: Definitions/vnfd.yaml\nETSI-Entry-Manifest: vnf.mf\n";
    const files = new Map(base).set("TOSCA-Metadata/TOSCA.meta", meta).set("vnf.mf", "Source: Files/images/absent.img\nAlgorithm: SHA-256\nHash: 00\n");
    expectTolerated(files, "L12", "PKG_ARTIFACT_MISSING", "Source: Files/images/absent.img", "vnf.mf");
    const inMeta = new Map(base).set("TOSCA-Metadata/TOSCA.meta", base.get("TOSCA-Metadata/TOSCA.meta")!.replace("Scripts/hook.py", "Scripts/absent.py"));
    expect(errorsOf(inMeta).map((d) => d.code)).toEqual(["PKG_ARTIFACT_MISSING"]);
  });

  it("L13: a duplicate key is a warning and the last value wins, as in PyYAML", () => {
    const files = edit(base, VNFD, "        name: vdu2\n", "        name: first\n        name: vdu2\n");
    const result = expectTolerated(files, "L13", "YAML_DUPLICATE_KEY", "        name: vdu2");
    expect(result.model?.flavours[0].vdus.map((v) => v.name)).toContain("vdu2");
    // Other problems of the file keep their positions.
    const broken = translateSource(memory(edit(files, VNFD, "        order: 1\n", "        order: -1\n")));
    expect(broken.diagnostics.find((d) => d.code === "VALUE_CONSTRAINT")?.line).toBe(positionOf(files.get(VNFD)!, "        order: 1").line);
  });

  it("L14: deltas that are not step deltas, or a missing step delta, are warnings", () => {
    expectTolerated(
      edit(
        base,
        VNFD,
        "          deltas:\n            delta_1:",
        "          deltas:\n            delta_1:\n              number_of_instances: 1\n            delta_9:",
      ),
      "L14",
      "POLICY_UNKNOWN_DELTA",
      "delta_9:",
    );
    const missing = edit(base, VNFD, "          deltas:\n            delta_1:", "          deltas:\n            delta_2:");
    const result = translateSource(memory(missing));
    expect(result.diagnostics.filter((d) => d.severity === "error")).toEqual([]);
    expect(result.diagnostics.map((d) => d.code).sort()).toEqual(["POLICY_DELTA_MISSING", "POLICY_UNKNOWN_DELTA"]);
  });

  it("L15: data and capability types declared under node_types are read as such, one warning per file", () => {
    const types =
      "node_types:\n  my.datatypes.Port:\n    derived_from: tosca.datatypes.Root\n    properties:\n      number: {type: integer}\n  my.datatypes.Ports:\n    derived_from: my.datatypes.Port\n  my.capabilities.Socket:\n    derived_from: tosca.capabilities.Root\n\ntopology_template:\n";
    const files = edit(base, VNFD, "topology_template:\n", types);
    const result = expectTolerated(files, "L15", "TYPE_WRONG_SECTION", "  my.datatypes.Port:");
    expect(result.diagnostics[0].message).toContain("`my.datatypes.Port` and 2 more (my.datatypes.Ports, my.capabilities.Socket)");
  });

  it("L16: an unknown data type in a type's property definition is refused only when a value is given", () => {
    const types =
      "data_types:\n  my.Data:\n    derived_from: tosca.datatypes.Root\n    properties:\n      pool: {type: my.Undeclared, required: false}\n\ntopology_template:\n";
    expectTolerated(edit(base, VNFD, "topology_template:\n", types), "L16", "TYPE_UNKNOWN", "my.Undeclared");
    const inputType = edit(base, VNFD, "  inputs:\n", "  inputs:\n    x: {type: my.Undeclared}\n");
    expect(errorsOf(inputType).map((d) => d.code)).toEqual(["TYPE_UNKNOWN"]);
  });

  it("L17: an input whose default is get_input has no default", () => {
    const files = edit(base, VNFD, "      default: simple\n", "      default: { get_input: selected_flavour }\n");
    expectTolerated(files, "L17", "FUNCTION_SYNTAX", "default: { get_input");
    // Deeper inside a default it is not the sample's idiom: an error that does not deny the input exists.
    const nested = edit(
      base,
      VNFD,
      "  inputs:\n",
      "  inputs:\n    other:\n      type: list\n      entry_schema: { type: string }\n      default: [ { get_input: selected_flavour } ]\n",
    );
    expect(errorsOf(nested).map((d) => [d.code, d.message])).toEqual([["FUNCTION_SYNTAX", expect.stringContaining("not evaluated here")]]);
  });

  it("L18: an artifact of an undeclared type in a node template is a warning", () => {
    const files = edit(
      base,
      VNFD,
      "    VDU1:\n",
      "    VDU1:\n      artifacts:\n        extra:\n          type: my.artifacts.Undeclared\n          file: ../Scripts/hook.py\n",
    );
    expectTolerated(files, "L18", "TEMPLATE_UNKNOWN_TYPE", "my.artifacts.Undeclared");
  });

  it("L19: several levels without default_level: no default level, the request names one", () => {
    const result = expectTolerated(edit(base, VNFD, "          default_level: small\n", ""), "L19", "POLICY_DEFAULT_LEVEL_MISSING", "          levels:");
    expect(result.model?.flavours[0].defaultInstantiationLevelId).toBeUndefined();
  });

  it("L20: a substitution requirement naming no node template is ignored", () => {
    const result = expectTolerated(
      edit(base, VNFD, "virtual_link_external: [ CP1, virtual_link ]", "virtual_link_external: [ CP9, virtual_link ]"),
      "L20",
      "TEMPLATE_DANGLING_REQUIREMENT",
      "CP9",
    );
    expect(result.model?.flavours[0].externalLinks).toEqual([]);
  });

  it("the list and the tests agree", () => {
    expect(LENIENCIES.map((l) => l.id)).toEqual([
      "L1",
      "L2",
      "L3",
      "L4",
      "L5",
      "L6",
      "L7",
      "L8",
      "L9",
      "L10",
      "L11",
      "L12",
      "L13",
      "L14",
      "L15",
      "L16",
      "L17",
      "L18",
      "L19",
      "L20",
    ]);
  });
});
