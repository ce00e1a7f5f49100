/**
 * Where we accept input that strict TOSCA 1.2 would refuse, because ETSI's own SOL001 type files or
 * Tacker's published samples need it. Each entry names the code that applies it (search for the
 * id, e.g. `L3:`) and is covered by a test in `test/unit/tosca/leniencies.test.ts`. Anything not
 * listed here is validated strictly. From L10 on, the input breaks a rule of SOL001, SOL004 or
 * YAML that Tacker does not enforce: it is a warning naming the rule (`Problems.tolerated`) and an
 * error under `nfv validate --strict`.
 */
export interface Leniency {
  id: string;
  rule: string;
  /** Which published file needs it. */
  because: string;
}

export const LENIENCIES: readonly Leniency[] = [
  {
    id: "L1",
    rule: "An import given as a URL is resolved to the file of the same base name next to the importing file; URLs are never downloaded.",
    because: "etsi_nfv_sol001_vnfd_types.yaml (helloworld3) imports the common types from forge.etsi.org.",
  },
  {
    id: "L2",
    rule: "A `version` value may be a YAML number (`1.0`).",
    because: "Tacker's `*_types.yaml` declare `version: {type: version, default: 1.0}`.",
  },
  {
    id: "L3",
    rule: "A `string` value may be a YAML number or boolean; constraints compare its text.",
    because: "Unquoted values such as `version: 1.0` or `20.04` in samples (Puccini's `etsinfv` quirk `permissive strings`).",
  },
  {
    id: "L4",
    rule: "`requirements:` left empty (every entry commented out, YAML null) means no requirements.",
    because: "Every Tacker `*_top.vnfd.yaml` VNF node.",
  },
  {
    id: "L5",
    rule: "`substitution_mappings.requirements` may use names the node type does not declare, and `name: []` means the requirement is not mapped.",
    because: "kubernetes_vnf_package (`virtual_link_external1_1`) and test_cnf (`virtual_link_external: []`).",
  },
  {
    id: "L6",
    rule: "YAML files next to the entry definitions that hold `substitution_mappings` are loaded as flavours even if the entry does not import them.",
    because: "Tacker v2 loads every file in Definitions/ and picks flavours by substitution_mappings.",
  },
  {
    id: "L7",
    rule: "An interface operation written as `[]` or null is declared without implementation (the VNFM's default behaviour).",
    because: "helloworld3 `Vnflcm: {instantiate: [], …}`.",
  },
  {
    id: "L8",
    rule: "A derived type may redefine an inherited property with a different definition; the derived one wins.",
    because: "`company.provider.VNF` replaces the `vnfm_info` pattern of tosca.nodes.nfv.VNF with `valid_values: [Tacker]`.",
  },
  {
    id: "L9",
    rule: "A `substitution_mappings.properties` value that violates a constraint of the substituted type's property is a warning (SUBSTITUTION_CONSTRAINT), not an error.",
    because: "test_cnf maps flavour `vdumap` while helloworld3_types.yaml lists `flavour_id` valid_values `[simple]`.",
  },
  {
    id: "L10",
    rule: "A group may omit a required property (TEMPLATE_MISSING_PROPERTY, warning); SOL001 2.6.1 requires `PlacementGroup.description`.",
    because: "tosca-parser never checks the required properties of groups; Tacker's v2 functional packages (basic_lcms_max, scale_ng, …) onboard without it.",
  },
  {
    id: "L11",
    rule: "A CSAR without TOSCA.meta whose root holds one YAML file and no `.mf` of the same name has that file as its entry (PKG_NO_ENTRY_DEFINITIONS, warning); SOL004 requires TOSCA.meta or the manifest.",
    because: "tosca-parser's CSAR reader takes the only root YAML as the entry; Tacker onboards sample_vnfpkg_no_meta_single_vnfd.",
  },
  {
    id: "L12",
    rule: "An artifact listed with a hash in the manifest (`.mf`) but absent from the package is a warning (PKG_ARTIFACT_MISSING); one listed in TOSCA.meta stays an error.",
    because:
      "Tacker refuses sample_vnf_package_csar_in_meta_and_manifest_false_source (TOSCA.meta) and onboards csar_in_meta_and_manifest and vnfpkgm3, whose manifests list an image the package lacks.",
  },
  {
    id: "L13",
    rule: "A duplicate key in a YAML map is a warning (YAML_DUPLICATE_KEY); the last value wins. YAML 1.2 requires unique keys.",
    because: "PyYAML, which Tacker and tosca-parser use, keeps the last value; legacy samples (sample-tosca-vnfd-multi-vdu-monitoring.yaml) repeat keys.",
  },
  {
    id: "L14",
    rule: "VduScalingAspectDeltas may lack a step delta of its aspect (POLICY_DELTA_MISSING, warning: `nfv scale` of that aspect is refused, SCALE_NO_DELTA) or carry keys that are not step deltas (POLICY_UNKNOWN_DELTA, warning, ignored).",
    because:
      "Tacker reads `deltas[<step delta>]` only when it scales, and fails then; it onboards vnfpkgm2 (`delta_2` for an aspect whose step_deltas are `[delta_1]`).",
  },
  {
    id: "L15",
    rule: "A type under `node_types` deriving from a data, capability or other non-node type is read as a type of its parent's category (TYPE_WRONG_SECTION, one warning per file).",
    because:
      "tosca-parser keeps all custom types in one dictionary; Tacker onboards the single-file VNFDs vnfpkgm3 and sample_vnfpkg_no_meta_single_vnfd, which declare ~100 data and capability types under node_types.",
  },
  {
    id: "L16",
    rule: "A property definition inside a type whose data type (or entry_schema type) is unknown is a warning (TYPE_UNKNOWN); the property is then unusable and a template value for it is refused.",
    because:
      "tosca-parser resolves a property's data type only when a template gives it a value; vnfpkgm3 declares properties of the undeclared IpAllocationPool, L2ProtocolData and Qos, and Tacker refuses test_csar_utils_data/sample_vnfpkg_no_meta_single_vnfd, whose levels use the undeclared ScaleInfo.",
  },
  {
    id: "L17",
    rule: "An input whose default is `get_input` is an input without a default (FUNCTION_SYNTAX, warning).",
    because: "Tacker's single-file samples write `selected_flavour: {default: {get_input: selected_flavour}}`; tosca-parser does not evaluate it.",
  },
  {
    id: "L18",
    rule: "A node template's artifact may have an undeclared artifact type (TEMPLATE_UNKNOWN_TYPE, warning); it is matched by name.",
    because: "tosca-parser does not look up artifact types of node templates; vnfpkgm3 uses `tosca.artifacts.nfv.SwImage` without declaring it.",
  },
  {
    id: "L19",
    rule: "InstantiationLevels with several levels and no `default_level` is a warning (POLICY_DEFAULT_LEVEL_MISSING); the request names the level, else the initial deltas apply.",
    because: "SOL001 requires default_level only in a comment, tosca-parser cannot check it, and Tacker instantiates at the request's instantiationLevelId.",
  },
  {
    id: "L20",
    rule: "A substitution requirement naming no node template is a warning (TEMPLATE_DANGLING_REQUIREMENT) and is ignored.",
    because: "tosca-parser does not resolve substitution_mappings requirements; Tacker onboards such a flavour (free5gc's sample_free5gc_vnf_package).",
  },
];
