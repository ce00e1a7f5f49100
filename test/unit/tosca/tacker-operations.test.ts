/**
 * What Tacker onboards but refuses when an operation needs it: instance counts outside
 * `vdu_profile` (INSTANCES_OUT_OF_RANGE) and a missing step delta (L14). Validation warns; the
 * instantiate or scale that reaches the problem is refused, located where the VNFD sets it.
 */
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { planScale } from "../../../ops/vm/scale";
import { DiagnosticError } from "../../../translators/diagnostics";
import { planComponentGraph } from "../../../translators/graph/to-component-graph";
import type { Flavour } from "../../../translators/tosca/model";
import { translatePackage, translateSource } from "../../../translators/tosca/translate";
import { baseFiles, edit, memory, positionOf, writePackage } from "./helpers";

const VNFD = "Definitions/vnfd.yaml";
const base = baseFiles();
// VDU1: vdu_profile [1, 2]; level `large` (scale level 2 of vdu1_aspect) gives it 3 instances.
const narrow = edit(base, VNFD, "          max_number_of_instances: 3", "          max_number_of_instances: 2");

function flavourOf(files: Map<string, string>): Flavour {
  const result = translateSource(memory(files));
  expect(result.diagnostics.filter((d) => d.severity === "error")).toEqual([]);
  return result.model!.flavours[0];
}

function scaleError(flavour: Flavour, steps: number): DiagnosticError {
  try {
    planScale({ flavour, currentLevels: {}, aspectId: "vdu1_aspect", steps, type: "out" });
  } catch (e) {
    if (e instanceof DiagnosticError) return e;
    throw e;
  }
  throw new Error("the scale was planned");
}

describe("instances outside vdu_profile", () => {
  it("are warnings at validation, located at the policy that sets them", () => {
    const result = translateSource(memory(narrow));
    expect(result.model).toBeDefined();
    const warnings = result.diagnostics.filter((d) => d.code === "INSTANCES_OUT_OF_RANGE");
    expect(warnings.map((d) => d.severity)).toEqual(["warning", "warning"]);
    // In file order: the VDU (the level has no VduInstantiationLevels entry), then the deltas policy.
    expect(warnings.map((d) => d.message)).toEqual([
      expect.stringContaining("3 instance(s) at instantiation level `large`"),
      expect.stringContaining("3 instance(s) at scale level 2 of aspect `vdu1_aspect`"),
    ]);
    expect(warnings.map((d) => d.line)).toEqual([
      positionOf(narrow.get(VNFD)!, "    VDU1:").line,
      positionOf(narrow.get(VNFD)!, "    - VDU1_scaling_aspect_deltas:").line + 1,
    ]);
  });

  it("refuse the instantiation at that level, not at the default one", () => {
    const model = translateSource(memory(narrow)).model!;
    // The counts only: this package's VDUs have no image, which the graph refuses too (VNF_NO_IMAGE).
    const counts = (levelId: string) =>
      planComponentGraph(model, "simple", { flavourId: "simple", instantiationLevelId: levelId }).diagnostics.filter((d) => d.code.startsWith("INSTANCES_"));
    expect(counts("large")).toEqual([
      expect.objectContaining({
        severity: "error",
        code: "INSTANCES_OUT_OF_RANGE",
        file: `pkg/${VNFD}`,
        line: positionOf(narrow.get(VNFD)!, "    VDU1:").line,
        message: "cannot instantiate: VDU `VDU1` would have 3 instance(s) at instantiation level `large`, outside vdu_profile [1, 2]",
      }),
    ]);
    expect(counts("small")).toEqual([]);
  });

  it("refuse the scale that reaches them, located; one step less is planned", () => {
    const flavour = flavourOf(narrow);
    const [d] = scaleError(flavour, 2).diagnostics;
    expect(d).toMatchObject({
      code: "SCALE_OUT_OF_PROFILE",
      file: `pkg/${VNFD}`,
      line: positionOf(narrow.get(VNFD)!, "    - VDU1_scaling_aspect_deltas:").line + 1,
    });
    expect(d.message).toContain("3 instances at scale level 2 of `vdu1_aspect`");
    expect(planScale({ flavour, currentLevels: {}, aspectId: "vdu1_aspect", steps: 1, type: "out" }).instances).toEqual({ VDU1: { from: 1, to: 2 } });
  });
});

describe("a missing step delta (L14)", () => {
  it("refuses every scale of the aspect, located at the deltas", () => {
    const files = edit(base, VNFD, "          deltas:\n            delta_1:", "          deltas:\n            delta_2:");
    const [d] = scaleError(flavourOf(files), 1).diagnostics;
    expect(d).toMatchObject({ code: "SCALE_NO_DELTA", file: `pkg/${VNFD}`, line: positionOf(files.get(VNFD)!, "            delta_2:").line });
    expect(d.message).toContain("step delta `delta_1` of `vdu1_aspect`");
  });
});

describe("a single VNFD file", () => {
  it("is validated alone: a broken flavour file next to it is not read", async () => {
    const dir = writePackage(
      new Map(base).set(
        "Definitions/broken_df.yaml",
        "tosca_definitions_version: tosca_simple_yaml_1_2\ntopology_template:\n  substitution_mappings: {node_type: x, x: 1, x: 2}\n",
      ),
    );
    const alone = await translatePackage(join(dir, VNFD));
    expect(alone.diagnostics.filter((d) => d.severity === "error")).toEqual([]);
    expect(alone.diagnostics.map((d) => d.file ?? "")).not.toContainEqual(expect.stringContaining("broken_df.yaml"));
    // As a package, the flavour file is loaded (L6) and its problems reported.
    const whole = await translatePackage(dir);
    expect(whole.diagnostics.map((d) => d.file ?? "")).toContainEqual(expect.stringContaining("broken_df.yaml"));
  });
});

describe("flavours Tacker looks for", () => {
  it("a substitution mapping [VnfExtCp, external_virtual_link] is an external link, not SOL001_BAD_TARGET", () => {
    const extCp =
      "    ExtCP:\n      type: tosca.nodes.nfv.VnfExtCp\n      properties:\n        layer_protocols: [ ipv4 ]\n      requirements:\n        - internal_virtual_link: VL1\n\n    VDU1:\n";
    const flavour = edit(
      edit(base, VNFD, "    VDU1:\n", extCp),
      VNFD,
      "virtual_link_external: [ CP1, virtual_link ]",
      "virtual_link_external: [ ExtCP, external_virtual_link ]",
    );
    // In a flavour file, as Tacker's packages have it: in the entry file, tosca-parser ≥ 2.13 would
    // refuse ExtCP for giving `external_virtual_link` (no `occurrences`: [1, UNBOUNDED]) 0 times.
    const files = new Map(flavour)
      .set("Definitions/df.yaml", flavour.get(VNFD)!)
      .set(
        VNFD,
        "tosca_definitions_version: tosca_simple_yaml_1_2\nimports:\n  - etsi_nfv_sol001_common_types.yaml\n  - etsi_nfv_sol001_vnfd_types.yaml\n  - df.yaml\n",
      );
    expect(
      translateSource(memory(flavour))
        .diagnostics.filter((d) => d.severity === "error")
        .map((d) => [d.code, d.path]),
    ).toEqual([["TEMPLATE_REQUIREMENT_OCCURRENCES", "topology_template.node_templates.ExtCP"]]);
    const result = translateSource(memory(files));
    expect(result.diagnostics.filter((d) => d.severity === "error")).toEqual([]);
    expect(result.model?.flavours[0].externalLinks).toEqual([{ name: "virtual_link_external", cpId: "ExtCP", requirement: "external_virtual_link" }]);
    // A node of another kind is still refused.
    const vl = translateSource(memory(edit(base, VNFD, "virtual_link_external: [ CP1, virtual_link ]", "virtual_link_external: [ VL1, virtual_link ]")));
    expect(vl.diagnostics.filter((d) => d.severity === "error").map((d) => d.code)).toEqual(["SOL001_BAD_TARGET"]);
  });

  it("flavours only in files the entry does not import: `No VNF flavours are available`, as Tacker refuses", () => {
    const files = new Map(base);
    files.set("Definitions/df.yaml", base.get(VNFD)!);
    const entry = "tosca_definitions_version: tosca_simple_yaml_1_2\nimports:\n  - etsi_nfv_sol001_common_types.yaml\n  - etsi_nfv_sol001_vnfd_types.yaml\n";
    files.set(VNFD, entry);
    const errors = translateSource(memory(files)).diagnostics.filter((d) => d.severity === "error");
    expect(errors).toEqual([
      expect.objectContaining({ code: "SOL001_NO_FLAVOUR", file: `pkg/${VNFD}`, line: 3, message: expect.stringContaining("No VNF flavours are available") }),
    ]);
    // Imported, the same flavour file is found.
    files.set(VNFD, entry.replace("imports:\n", "imports:\n  - df.yaml\n"));
    expect(translateSource(memory(files)).diagnostics.filter((d) => d.severity === "error")).toEqual([]);
  });
});
