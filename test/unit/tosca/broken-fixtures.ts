/**
 * The broken packages: the `base` fixture with one change each, the error code it must produce,
 * and the text in the edited file where the error must point.
 */
import { baseFiles, edit, type Files } from "./helpers";

const VNFD = "Definitions/vnfd.yaml";
const META = "TOSCA-Metadata/TOSCA.meta";

export interface Broken {
  name: string;
  files: () => Files;
  code: string;
  file: string;
  /** Text whose first occurrence (in the edited file) is where the error must point; its line is checked. */
  at: string;
  /** An error only under `--strict` (Tacker accepts it: a leniency from L10 on, tested as such). */
  strict?: true;
}

const base = baseFiles();
const vnfd = (from: string, to: string) => () => edit(base, VNFD, from, to);

export const BROKEN: Broken[] = [
  { name: "YAML syntax error", files: vnfd("    VDU2:\n", "    VDU2: [unclosed\n"), code: "YAML_SYNTAX", file: VNFD, at: "    VDU2: [unclosed" },
  {
    name: "duplicate key",
    files: vnfd("        name: vdu2\n", "        name: vdu2\n        name: again\n"),
    code: "YAML_DUPLICATE_KEY",
    file: VNFD,
    at: "name: again",
    strict: true,
  },
  {
    name: "alias bomb",
    files: vnfd(
      "description: Minimal",
      "a: &a [x, x, x, x, x, x, x, x, x, x]\nb: &b [*a, *a, *a, *a, *a, *a, *a, *a, *a, *a]\nc: &c [*b, *b, *b, *b, *b, *b, *b, *b, *b, *b]\nd: &d [*c, *c, *c, *c, *c, *c, *c, *c, *c, *c]\ndescription: Minimal",
    ),
    code: "YAML_ALIAS_LIMIT",
    file: VNFD,
    at: "*a",
  },
  {
    name: "missing import",
    files: vnfd("  - etsi_nfv_sol001_vnfd_types.yaml\n", "  - etsi_nfv_sol001_vnfd_types.yaml\n  - no_such_types.yaml\n"),
    code: "IMPORT_NOT_FOUND",
    file: VNFD,
    at: "  - no_such_types.yaml",
  },
  {
    name: "import cycle",
    files: () => {
      const f = edit(base, VNFD, "  - etsi_nfv_sol001_vnfd_types.yaml\n", "  - etsi_nfv_sol001_vnfd_types.yaml\n  - a.yaml\n");
      f.set("Definitions/a.yaml", "tosca_definitions_version: tosca_simple_yaml_1_2\nimports:\n  - b.yaml\n");
      f.set("Definitions/b.yaml", "tosca_definitions_version: tosca_simple_yaml_1_2\nimports:\n  - a.yaml\n");
      return f;
    },
    code: "IMPORT_CYCLE",
    file: "Definitions/b.yaml",
    at: "  - a.yaml",
  },
  {
    name: "derived_from cycle",
    files: vnfd("topology_template:\n", "node_types:\n  my.A:\n    derived_from: my.B\n  my.B:\n    derived_from: my.A\n\ntopology_template:\n"),
    code: "TYPE_DERIVED_CYCLE",
    file: VNFD,
    at: "derived_from: my.A",
  },
  {
    name: "unknown node type",
    files: vnfd("    VDU2:\n      type: tosca.nodes.nfv.Vdu.Compute", "    VDU2:\n      type: tosca.nodes.nfv.Vdu.Computer"),
    code: "TEMPLATE_UNKNOWN_TYPE",
    file: VNFD,
    at: "tosca.nodes.nfv.Vdu.Computer",
  },
  {
    name: "missing required property",
    files: vnfd("        description: second VDU\n", ""),
    code: "TEMPLATE_MISSING_PROPERTY",
    file: VNFD,
    at: "        name: vdu2",
  },
  { name: "constraint violation", files: vnfd("        order: 1\n", "        order: -1\n"), code: "VALUE_CONSTRAINT", file: VNFD, at: "-1" },
  { name: "bad scalar unit", files: vnfd("virtual_mem_size: 1 GB", "virtual_mem_size: 1 GG"), code: "VALUE_BAD_SCALAR", file: VNFD, at: "1 GG" },
  {
    name: "dangling requirement",
    files: vnfd("        - virtual_binding: VDU2\n        - virtual_link: VL1", "        - virtual_binding: VDU2\n        - virtual_link: VL9"),
    code: "TEMPLATE_DANGLING_REQUIREMENT",
    file: VNFD,
    at: "VL9",
  },
  {
    name: "policy target missing",
    files: vnfd(
      "initial_delta:\n            number_of_instances: 1\n        targets: [ VDU1 ]",
      "initial_delta:\n            number_of_instances: 1\n        targets: [ VDU7 ]",
    ),
    code: "POLICY_TARGET_MISSING",
    file: VNFD,
    at: "VDU7",
  },
  {
    name: "default_level missing from levels",
    files: vnfd("default_level: small", "default_level: medium"),
    code: "POLICY_DEFAULT_LEVEL_MISSING",
    file: VNFD,
    at: "medium",
  },
  {
    name: "delta not declared by the aspect",
    files: vnfd("          deltas:\n            delta_1:", "          deltas:\n            delta_2:"),
    code: "POLICY_UNKNOWN_DELTA",
    file: VNFD,
    at: "delta_2:",
    strict: true,
  },
  {
    name: "unknown property",
    files: vnfd("        name: vdu2\n", "        name: vdu2\n        colour: red\n"),
    code: "TEMPLATE_UNKNOWN_PROPERTY",
    file: VNFD,
    at: "colour",
  },
  { name: "LCM hook names no artifact", files: vnfd("implementation: hook", "implementation: hooks"), code: "LCM_UNKNOWN_ARTIFACT", file: VNFD, at: "hooks" },
  {
    name: "hash mismatch",
    files: () => new Map(base).set("Scripts/hook.py", "print('tampered')\n"),
    code: "PKG_HASH_MISMATCH",
    file: META,
    at: "Name: Scripts/hook.py",
  },
  {
    name: "missing Entry-Definitions",
    files: () => edit(base, META, "Entry-Definitions: Definitions/vnfd.yaml\n", ""),
    code: "PKG_NO_ENTRY_DEFINITIONS",
    file: META,
    at: "TOSCA-Meta-File-Version",
  },
  {
    name: "requirement given fewer times than its occurrences (tosca-parser ≥ 2.13)",
    files: () =>
      edit(
        vnfd(
          "topology_template:\n",
          "node_types:\n  my.VNF:\n    derived_from: tosca.nodes.nfv.VNF\n    requirements:\n      - virtual_link_internal:\n          capability: tosca.capabilities.nfv.VirtualLinkable\n\ntopology_template:\n",
        )(),
        VNFD,
        "      type: tosca.nodes.nfv.VNF\n",
        "      type: my.VNF\n",
      ),
    code: "TEMPLATE_REQUIREMENT_OCCURRENCES",
    file: VNFD,
    at: "    VNF:\n",
  },
  {
    name: "nesting too deep",
    files: vnfd("description: Minimal", `deep: ${"[".repeat(150)}${"]".repeat(150)}\ndescription: Minimal`),
    code: "YAML_TOO_DEEP",
    file: VNFD,
    at: "[[[",
  },
];
