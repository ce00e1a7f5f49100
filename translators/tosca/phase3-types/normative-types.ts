/**
 * The TOSCA Simple Profile root types that ETSI's SOL001 files derive from but do not define
 * (`tosca.nodes.Root`, `tosca.datatypes.Root`, `tosca.policies.Placement`, …), reduced to what
 * matters for validation: names, parents, and the few properties and operations they declare.
 * They are data, loaded before the package's own types as if from the file `NORMATIVE_FILE`.
 */
export const NORMATIVE_FILE = "<tosca-normative-types>";

export const NORMATIVE_TYPES: Record<string, Record<string, Record<string, unknown>>> = {
  data_types: {
    "tosca.datatypes.Root": {},
    "tosca.datatypes.json": { derived_from: "string" },
    "tosca.datatypes.xml": { derived_from: "string" },
    "tosca.datatypes.Credential": {
      derived_from: "tosca.datatypes.Root",
      properties: {
        protocol: { type: "string", required: false },
        token_type: { type: "string", default: "password" },
        token: { type: "string" },
        keys: { type: "map", required: false, entry_schema: { type: "string" } },
        user: { type: "string", required: false },
      },
    },
  },
  capability_types: {
    "tosca.capabilities.Root": {},
    "tosca.capabilities.Node": { derived_from: "tosca.capabilities.Root" },
    "tosca.capabilities.Attachment": { derived_from: "tosca.capabilities.Root" },
  },
  relationship_types: {
    "tosca.relationships.Root": {},
    "tosca.relationships.DependsOn": { derived_from: "tosca.relationships.Root", valid_target_types: ["tosca.capabilities.Node"] },
    "tosca.relationships.AttachesTo": { derived_from: "tosca.relationships.Root", valid_target_types: ["tosca.capabilities.Attachment"] },
  },
  interface_types: {
    "tosca.interfaces.Root": {},
    "tosca.interfaces.node.lifecycle.Standard": {
      derived_from: "tosca.interfaces.Root",
      create: {},
      configure: {},
      start: {},
      stop: {},
      delete: {},
    },
  },
  artifact_types: {
    "tosca.artifacts.Root": {},
    "tosca.artifacts.File": { derived_from: "tosca.artifacts.Root" },
    "tosca.artifacts.Deployment": { derived_from: "tosca.artifacts.Root" },
    "tosca.artifacts.Deployment.Image": { derived_from: "tosca.artifacts.Deployment" },
    "tosca.artifacts.Deployment.Image.VM": { derived_from: "tosca.artifacts.Deployment.Image" },
    "tosca.artifacts.Implementation": { derived_from: "tosca.artifacts.Root" },
    "tosca.artifacts.Implementation.Bash": { derived_from: "tosca.artifacts.Implementation", file_ext: ["sh"] },
    "tosca.artifacts.Implementation.Python": { derived_from: "tosca.artifacts.Implementation", file_ext: ["py"] },
  },
  node_types: {
    "tosca.nodes.Root": {
      capabilities: { feature: { type: "tosca.capabilities.Node" } },
      requirements: [{ dependency: { capability: "tosca.capabilities.Node", relationship: "tosca.relationships.DependsOn", occurrences: [0, "UNBOUNDED"] } }],
      interfaces: { Standard: { type: "tosca.interfaces.node.lifecycle.Standard" } },
    },
  },
  group_types: {
    "tosca.groups.Root": {},
  },
  policy_types: {
    "tosca.policies.Root": {},
    "tosca.policies.Placement": { derived_from: "tosca.policies.Root" },
    "tosca.policies.Scaling": { derived_from: "tosca.policies.Root" },
    "tosca.policies.Update": { derived_from: "tosca.policies.Root" },
    "tosca.policies.Performance": { derived_from: "tosca.policies.Root" },
  },
};

/** Built-in value types of TOSCA; anything else must be a `data_types` entry. */
export const PRIMITIVE_TYPES = new Set([
  "string",
  "integer",
  "float",
  "boolean",
  "timestamp",
  "null",
  "version",
  "range",
  "list",
  "map",
  "scalar-unit.size",
  "scalar-unit.time",
  "scalar-unit.frequency",
  "scalar-unit.bitrate",
]);
