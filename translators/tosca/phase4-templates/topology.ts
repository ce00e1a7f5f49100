/** The checked form of one `topology_template`, as later phases read it. */
import type { TypeDef } from "../phase3-types/type-system";
import type { ToscaFile } from "../phase2-load/load-documents";

export const TT = "topology_template";

export interface Topology {
  file: string;
  tosca: ToscaFile;
  /** Input name → default value (absent when the input has none). */
  inputs: Map<string, { default?: unknown }>;
  nodes: Map<string, NodeTemplate>;
  groups: Map<string, GroupTemplate>;
  policies: PolicyTemplate[];
  substitution?: SubstitutionMappings;
}

export interface NodeTemplate {
  name: string;
  typeName: string;
  type?: TypeDef;
  /** Properties with type defaults applied and `get_input` replaced by input defaults. */
  properties: Record<string, unknown>;
  /** Capability name → its properties (defaults applied). */
  capabilities: Record<string, Record<string, unknown>>;
  /** Requirement assignments in order, null entries dropped. */
  requirements: RequirementAssignment[];
  artifacts: ReadonlyMap<string, ArtifactAssignment>;
  /** Interface name → operation name → implementation (undefined when declared without one). */
  interfaces: ReadonlyMap<string, ReadonlyMap<string, OperationAssignment>>;
}

export interface RequirementAssignment {
  name: string;
  node: string;
  /** Index in the `requirements` list, for messages. */
  index: number;
}

export interface ArtifactAssignment {
  name: string;
  type?: string;
  /** Path as written, relative to the file that declares the artifact. */
  file: string;
  /** Package-relative path. */
  resolved: string;
}

export interface OperationAssignment {
  implementation?: string;
  dependencies: string[];
}

export interface GroupTemplate {
  name: string;
  typeName: string;
  type?: TypeDef;
  properties: Record<string, unknown>;
  members: string[];
}

export interface PolicyTemplate {
  name: string;
  typeName: string;
  type?: TypeDef;
  properties: Record<string, unknown>;
  targets: string[];
  /** Index in the `policies` list: the YAML path is `topology_template.policies[index].<name>`. */
  index: number;
}

export interface SubstitutionMappings {
  nodeType: string;
  properties: Record<string, unknown>;
  /** Requirement name → [node template, requirement]. */
  requirements: Map<string, [string, string]>;
}

export function nodePath(name: string): (string | number)[] {
  return [TT, "node_templates", name];
}

export function policyPath(p: PolicyTemplate): (string | number)[] {
  return [TT, "policies", p.index, p.name];
}
