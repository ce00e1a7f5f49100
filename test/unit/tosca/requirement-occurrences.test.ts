/**
 * TEMPLATE_REQUIREMENT_OCCURRENCES (translators/tosca/phase4-templates/check-occurrences.ts): how
 * many times each node template of the entry file gives each requirement of its type, counted and
 * bounded as tosca-parser ≥ 2.13 (today's Tacker) does it. An error in every mode.
 */
import { describe, expect, it } from "vitest";
import type { Diagnostic } from "../../../translators/diagnostics";
import { translateSource } from "../../../translators/tosca/translate";
import { baseFiles, edit, memory, positionOf, type Files } from "./helpers";

const CODE = "TEMPLATE_REQUIREMENT_OCCURRENCES";
const VNFD = "Definitions/vnfd.yaml";
const TOP = "Definitions/top.yaml";
const TYPES = "Definitions/types.yaml";
const DF = "Definitions/df.yaml";
const base = baseFiles();

function occurrenceErrors(files: Files, strict = false): Diagnostic[] {
  const result = translateSource(memory(files), { strict });
  const errors = result.diagnostics.filter((d) => d.severity === "error");
  expect(errors.filter((d) => d.code !== CODE)).toEqual([]);
  if (errors.length === 0) expect(result.model).toBeDefined();
  return errors;
}

/** Only `CODE`, at the key of node template `node` in `file`, for requirement `requirement`. */
function expectRefused(files: Files, file: string, node: string, requirement: string): Diagnostic {
  const errors = occurrenceErrors(files);
  expect(errors.map((d) => [d.code, d.file, d.line, d.column])).toEqual([[CODE, `pkg/${file}`, positionOf(files.get(file)!, `    ${node}:\n`).line, 5]]);
  expect(errors[0].message).toContain(`node template \`${node}\` gives requirement \`${requirement}\``);
  expect(errors[0].message).toContain(`"Relationship "${requirement}" in template "${node}" has a wrong number of occurrences"`);
  // Not a leniency: --strict says the same.
  expect(occurrenceErrors(files, true).map((d) => d.message)).toEqual([errors[0].message]);
  return errors[0];
}

/** The single-file base fixture with its VNF node of `my.VNF`, which adds `requirement` (YAML lines under the requirement's name). */
function singleFile(requirement: string): Files {
  const types = `node_types:\n  my.VNF:\n    derived_from: tosca.nodes.nfv.VNF\n    requirements:\n      - virtual_link_internal:\n${requirement}\ntopology_template:\n`;
  return edit(edit(base, VNFD, "topology_template:\n", types), VNFD, "      type: tosca.nodes.nfv.VNF\n", "      type: my.VNF\n");
}
const LINKABLE = "          capability: tosca.capabilities.nfv.VirtualLinkable\n";

/**
 * Tacker's layout: an entry `top.yaml` with the VNF node and no requirements, `types.yaml` with
 * `my.VNF` (requirement `virtual_link_external`, no `occurrences`), and the base fixture as flavour
 * file `df.yaml`, imported by the entry, substituting `my.VNF` and mapping `virtual_link_external`.
 */
function flavoured(): Files {
  const files = new Map(base);
  const vnfd = files.get(VNFD)!;
  files.delete(VNFD);
  files.set(
    "TOSCA-Metadata/TOSCA.meta",
    files.get("TOSCA-Metadata/TOSCA.meta")!.replace("Entry-Definitions: Definitions/vnfd.yaml", `Entry-Definitions: ${TOP}`),
  );
  files.set(
    TYPES,
    [
      "tosca_definitions_version: tosca_simple_yaml_1_2",
      "imports:",
      "  - etsi_nfv_sol001_common_types.yaml",
      "  - etsi_nfv_sol001_vnfd_types.yaml",
      "node_types:",
      "  my.VNF:",
      "    derived_from: tosca.nodes.nfv.VNF",
      "    requirements:",
      "      - virtual_link_external:",
      "          capability: tosca.capabilities.nfv.VirtualLinkable",
      "",
    ].join("\n"),
  );
  files.set(
    DF,
    vnfd
      .replace("  - etsi_nfv_sol001_vnfd_types.yaml\n", "  - etsi_nfv_sol001_vnfd_types.yaml\n  - types.yaml\n")
      .replace("    node_type: tosca.nodes.nfv.VNF\n", "    node_type: my.VNF\n")
      .replace("      type: tosca.nodes.nfv.VNF\n", "      type: my.VNF\n"),
  );
  files.set(
    TOP,
    [
      "tosca_definitions_version: tosca_simple_yaml_1_2",
      "imports:",
      "  - etsi_nfv_sol001_common_types.yaml",
      "  - etsi_nfv_sol001_vnfd_types.yaml",
      "  - types.yaml",
      "  - df.yaml",
      "topology_template:",
      "  inputs:",
      "    selected_flavour:",
      "      type: string",
      "  node_templates:",
      "    VNF:",
      "      type: my.VNF",
      "      properties:",
      "        flavour_id: { get_input: selected_flavour }",
      "        descriptor_id: 0c1e0f4e-2d0b-4c43-8d2a-6d1f3a5b7c90",
      "        descriptor_version: '1.0'",
      "        provider: Fixture",
      "        product_name: Fixture VNF",
      "        software_version: '1.0'",
      "        vnfm_info: [ 'etsivnfm:v2.6.1' ]",
      "        flavour_description: top",
      "      requirements:",
      "        # - virtual_link_external: mapped in the flavour",
      "",
    ].join("\n"),
  );
  return files;
}

describe("requirement occurrences (tosca-parser ≥ 2.13)", () => {
  it("refuses a requirement given 0 times when its definition has no `occurrences` (default [1, UNBOUNDED]), naming Tacker's fix", () => {
    const e = expectRefused(singleFile(LINKABLE), VNFD, "VNF", "virtual_link_internal");
    expect(e.message).toContain(
      "0 time(s), outside its occurrences [1, UNBOUNDED] (the default: its definition in node type `my.VNF` (Definitions/vnfd.yaml) gives none)",
    );
    expect(e.message).toContain("`occurrences: [ 0, 1 ]` on `virtual_link_internal` in the requirements of `my.VNF`");
  });

  it("accepts it with `occurrences: [ 0, 1 ]`, as Tacker's samples now write it", () => {
    expect(translateSource(memory(singleFile(`${LINKABLE}          occurrences: [ 0, 1 ]\n`))).diagnostics).toEqual([]);
  });

  it("refuses a requirement given more times than its upper bound", () => {
    const files = edit(
      base,
      VNFD,
      "        - virtual_binding: VDU1\n        - virtual_link: VL1\n",
      "        - virtual_binding: VDU1\n        - virtual_link: VL1\n        - virtual_link: VL1\n",
    );
    const e = expectRefused(files, VNFD, "CP2", "virtual_link");
    expect(e.message).toContain(
      "gives requirement `virtual_link` 2 time(s), outside its occurrences [0, 1] (in node type `tosca.nodes.nfv.VduCp` (Definitions/etsi_nfv_sol001_vnfd_types.yaml))",
    );
    expect(e.message).toContain("Give it at most 1 time(s)");
  });

  it("checks the requirements a type inherits, and an inherited entry a redefinition does not equal", () => {
    const derived = edit(
      edit(singleFile(LINKABLE), VNFD, "\ntopology_template:\n", "  my.SubVNF:\n    derived_from: my.VNF\n\ntopology_template:\n"),
      VNFD,
      "      type: my.VNF\n",
      "      type: my.SubVNF\n",
    );
    expect(expectRefused(derived, VNFD, "VNF", "virtual_link_internal").message).toContain("its definition in node type `my.VNF`");
    // my.SubVNF's own [0, 1] does not replace my.VNF's entry: tosca-parser checks both.
    const redefined = edit(
      derived,
      VNFD,
      "    derived_from: my.VNF\n",
      `    derived_from: my.VNF\n    requirements:\n      - virtual_link_internal:\n${LINKABLE}          occurrences: [ 0, 1 ]\n`,
    );
    expect(expectRefused(redefined, VNFD, "VNF", "virtual_link_internal").message).toContain("[1, UNBOUNDED]");
  });

  it("counts the flavour's substitution_mappings.requirements: Tacker's layout is accepted", () => {
    expect(occurrenceErrors(flavoured())).toEqual([]);
  });

  it("without that mapping, refuses the entry's VNF template and names the flavour file that substitutes it", () => {
    const files = edit(flavoured(), DF, "    requirements:\n      virtual_link_external: [ CP1, virtual_link ]\n", "");
    const e = expectRefused(files, TOP, "VNF", "virtual_link_external");
    expect(e.message).toContain("as flavour file `Definitions/df.yaml` substitutes it");
  });

  it("counts the requirements of the flavour's first node template of the same type", () => {
    const unmapped = edit(flavoured(), DF, "    requirements:\n      virtual_link_external: [ CP1, virtual_link ]\n", "");
    const given = edit(
      unmapped,
      DF,
      "        flavour_description: base fixture flavour\n",
      "        flavour_description: base fixture flavour\n      requirements:\n        - virtual_link_external: CP1\n",
    );
    expect(occurrenceErrors(given)).toEqual([]);
  });

  it("does not check node templates of flavour files (tosca-parser checks the entry's only)", () => {
    // df.yaml's own VNF node gives virtual_link_external 0 times; only the entry's node is counted, with the mapping.
    const extra = edit(flavoured(), DF, "    VDU2:\n", "    VNF2:\n      type: my.Unlinked\n    VDU2:\n");
    const types = edit(
      extra,
      TYPES,
      "node_types:\n",
      "node_types:\n  my.Unlinked:\n    derived_from: tosca.nodes.Root\n    requirements:\n      - link:\n          capability: tosca.capabilities.nfv.VirtualLinkable\n",
    );
    expect(occurrenceErrors(types)).toEqual([]);
  });

  it("a template with interface operations of its own is not substituted, so the mapping does not count", () => {
    const files = edit(flavoured(), TOP, "      requirements:\n", "      interfaces:\n        Vnflcm:\n          instantiate: []\n      requirements:\n");
    expect(expectRefused(files, TOP, "VNF", "virtual_link_external").message).toContain("counted: the template's own `requirements`.");
  });

  it("when several flavour files substitute the template, the last imported one counts", () => {
    const files = flavoured();
    files.set(
      "Definitions/df2.yaml",
      edit(files, DF, "    requirements:\n      virtual_link_external: [ CP1, virtual_link ]\n", "")
        .get(DF)!
        .replace("flavour_id: simple", "flavour_id: other"),
    );
    const last = edit(files, TOP, "  - df.yaml\n", "  - df.yaml\n  - df2.yaml\n");
    expect(expectRefused(last, TOP, "VNF", "virtual_link_external").message).toContain("as flavour file `Definitions/df2.yaml` substitutes it");
    expect(occurrenceErrors(edit(files, TOP, "  - df.yaml\n", "  - df2.yaml\n  - df.yaml\n"))).toEqual([]);
  });
});
