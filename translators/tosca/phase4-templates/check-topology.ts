/**
 * Phase 4: one `topology_template` checked against the type system: inputs, node templates,
 * requirement targets, groups, policies (targets must exist) and `substitution_mappings`.
 */
import type { ToscaFile } from "../phase2-load/load-documents";
import type { Problems } from "../problems";
import { isMap, type TypeSystem } from "../phase3-types/type-system";
import { checkValue, functionName, type ValueContext } from "../phase3-types/values";
import { checkNode } from "./check-nodes";
import { checkProperties } from "./check-properties";
import { nodePath, TT, type GroupTemplate, type PolicyTemplate, type SubstitutionMappings, type Topology } from "./topology";

const TOPOLOGY_KEYS = new Set([
  "description",
  "metadata",
  "inputs",
  "outputs",
  "node_templates",
  "relationship_templates",
  "groups",
  "policies",
  "substitution_mappings",
  "workflows",
]);

export function checkTopology(tosca: ToscaFile, types: TypeSystem, problems: Problems): Topology | undefined {
  const raw = tosca.doc[TT];
  if (raw === undefined || raw === null) return undefined;
  const file = tosca.file;
  if (!isMap(raw)) {
    problems.error("TEMPLATE_SYNTAX", "`topology_template` must be a map", file, [TT]);
    return undefined;
  }
  for (const key of Object.keys(raw))
    if (!TOPOLOGY_KEYS.has(key)) problems.error("TEMPLATE_UNKNOWN_KEY", `unknown key \`${key}\` in topology_template`, file, [TT, key], true);
  const topo: Topology = { file, tosca, inputs: new Map(), nodes: new Map(), groups: new Map(), policies: [] };
  const ctx: ValueContext = {
    types,
    problems,
    file,
    inputs: (name) => (topo.inputs.has(name) ? { found: true, value: topo.inputs.get(name)!.default } : { found: false }),
  };
  readInputs(raw.inputs, topo, ctx);
  const nodes = raw.node_templates;
  if (nodes !== undefined && nodes !== null && !isMap(nodes)) problems.error("TEMPLATE_SYNTAX", "`node_templates` must be a map", file, [TT, "node_templates"]);
  if (isMap(nodes)) {
    for (const [name, def] of Object.entries(nodes)) {
      const node = checkNode(name, def, ctx);
      if (node) topo.nodes.set(name, node);
    }
  }
  for (const node of topo.nodes.values()) {
    for (const r of node.requirements) {
      if (!topo.nodes.has(r.node)) {
        problems.error(
          "TEMPLATE_DANGLING_REQUIREMENT",
          `requirement \`${r.name}\` of \`${node.name}\` names \`${r.node}\`, which is not a node template here`,
          file,
          [...nodePath(node.name), "requirements", r.index, r.name],
        );
      }
    }
  }
  readGroups(raw.groups, topo, ctx);
  readPolicies(raw.policies, topo, ctx);
  topo.substitution = readSubstitution(raw.substitution_mappings, topo, ctx);
  return topo;
}

function readInputs(raw: unknown, topo: Topology, ctx: ValueContext): void {
  if (raw === undefined || raw === null) return;
  if (!isMap(raw)) {
    ctx.problems.error("TEMPLATE_SYNTAX", "`inputs` must be a map", ctx.file, [TT, "inputs"]);
    return;
  }
  for (const [name, def] of Object.entries(raw)) {
    const path = [TT, "inputs", name];
    const schema = ctx.types.schema(def, ctx.file, path);
    const d = isMap(def) ? def : {};
    if (functionName(d.default) === "get_input") {
      // L17: a default that is itself `get_input` (Tacker's single-file samples write
      // `selected_flavour: {default: {get_input: selected_flavour}}`); tosca-parser never evaluates
      // it, so the input is one without a default, supplied at deployment.
      ctx.problems.tolerated(
        "L17",
        "FUNCTION_SYNTAX",
        `the default of input \`${name}\` is a \`get_input\`, which an input cannot use; read as an input without a default`,
        ctx.file,
        [...path, "default"],
      );
      topo.inputs.set(name, {});
      continue;
    }
    topo.inputs.set(name, "default" in d ? { default: d.default } : {});
    if (schema && "default" in d) {
      // Checked here without inputs: a default cannot itself be `get_input`.
      checkProperties(
        { [name]: d.default },
        new Map([[name, { ...schema, name, required: false }]]),
        { ...ctx, inputs: undefined },
        path.slice(0, -1),
        `input \`${name}\``,
      );
    }
  }
}

function readGroups(raw: unknown, topo: Topology, ctx: ValueContext): void {
  if (raw === undefined || raw === null) return;
  if (!isMap(raw)) {
    ctx.problems.error("TEMPLATE_SYNTAX", "`groups` must be a map", ctx.file, [TT, "groups"]);
    return;
  }
  for (const [name, def] of Object.entries(raw)) {
    const path = [TT, "groups", name];
    const d = isMap(def) ? def : {};
    const typeName = typeof d.type === "string" ? d.type : "";
    const type = ctx.types.get("group_types", typeName);
    if (!type) ctx.problems.error("TEMPLATE_UNKNOWN_TYPE", `group \`${name}\` has unknown group type \`${typeName}\``, ctx.file, [...path, "type"]);
    const members = stringList(d.members, ctx, [...path, "members"]);
    members.forEach((m, i) => {
      if (!topo.nodes.has(m)) ctx.problems.error("GROUP_MEMBER_MISSING", `group member \`${m}\` is not a node template`, ctx.file, [...path, "members", i]);
    });
    // L10: tosca-parser never checks required properties of groups (PlacementGroup.description).
    const properties = type ? checkProperties(d.properties, ctx.types.properties(type), ctx, [...path, "properties"], `group type \`${typeName}\``, "L10") : {};
    topo.groups.set(name, { name, typeName, type, properties, members } satisfies GroupTemplate);
  }
}

function readPolicies(raw: unknown, topo: Topology, ctx: ValueContext): void {
  if (raw === undefined || raw === null) return;
  if (!Array.isArray(raw)) {
    ctx.problems.error("TEMPLATE_SYNTAX", "`policies` must be a list of single-key maps", ctx.file, [TT, "policies"]);
    return;
  }
  raw.forEach((entry, index) => {
    if (!isMap(entry) || Object.keys(entry).length !== 1) {
      ctx.problems.error("TEMPLATE_SYNTAX", "a policy is a single-key map `- name: {type, properties, targets}`", ctx.file, [TT, "policies", index]);
      return;
    }
    const [name, def] = Object.entries(entry)[0];
    const path = [TT, "policies", index, name];
    const d = isMap(def) ? def : {};
    const typeName = typeof d.type === "string" ? d.type : "";
    const type = ctx.types.get("policy_types", typeName);
    if (!type) ctx.problems.error("TEMPLATE_UNKNOWN_TYPE", `policy \`${name}\` has unknown policy type \`${typeName}\``, ctx.file, [...path, "type"]);
    const targets = stringList(d.targets, ctx, [...path, "targets"]);
    targets.forEach((t, i) => {
      if (!topo.nodes.has(t) && !topo.groups.has(t))
        ctx.problems.error("POLICY_TARGET_MISSING", `policy target \`${t}\` is not a node template or group`, ctx.file, [...path, "targets", i]);
    });
    const properties = type ? checkProperties(d.properties, ctx.types.properties(type), ctx, [...path, "properties"], `policy type \`${typeName}\``) : {};
    topo.policies.push({ name, typeName, type, properties, targets, index } satisfies PolicyTemplate);
  });
}

function readSubstitution(raw: unknown, topo: Topology, ctx: ValueContext): SubstitutionMappings | undefined {
  if (raw === undefined || raw === null) return undefined;
  const path = [TT, "substitution_mappings"];
  if (!isMap(raw) || typeof raw.node_type !== "string") {
    ctx.problems.error("TEMPLATE_SYNTAX", "`substitution_mappings` needs a `node_type`", ctx.file, path);
    return undefined;
  }
  const nodeType = ctx.types.get("node_types", raw.node_type);
  if (!nodeType) ctx.problems.error("TEMPLATE_UNKNOWN_TYPE", `substitution node_type \`${raw.node_type}\` is unknown`, ctx.file, [...path, "node_type"]);
  const properties = isMap(raw.properties) ? raw.properties : {};
  if (nodeType) {
    const defs = ctx.types.properties(nodeType);
    for (const [k, v] of Object.entries(properties)) {
      if (!defs.has(k))
        ctx.problems.error("TEMPLATE_UNKNOWN_PROPERTY", `\`${k}\` is not a property of \`${raw.node_type}\``, ctx.file, [...path, "properties", k], true);
      else checkSubstitutedValue(v, k, defs, ctx, [...path, "properties", k]);
    }
  }
  const requirements = new Map<string, [string, string]>();
  if (isMap(raw.requirements)) {
    for (const [name, mapping] of Object.entries(raw.requirements)) {
      const at = [...path, "requirements", name];
      // L5: `virtual_link_external: []` means "not mapped"; undeclared requirement names are accepted.
      if (Array.isArray(mapping) && mapping.length === 0) continue;
      if (!Array.isArray(mapping) || mapping.length !== 2 || typeof mapping[0] !== "string" || typeof mapping[1] !== "string") {
        ctx.problems.error("TEMPLATE_SYNTAX", "a substitution requirement is `name: [node_template, requirement]`", ctx.file, at);
        continue;
      }
      if (!topo.nodes.has(mapping[0])) {
        // L20: tosca-parser does not resolve substitution requirements; Tacker onboards the flavour and the mapping maps nothing.
        ctx.problems.tolerated(
          "L20",
          "TEMPLATE_DANGLING_REQUIREMENT",
          `substitution requirement \`${name}\` names \`${mapping[0]}\`, which is not a node template here; it is ignored`,
          ctx.file,
          [...at, 0],
        );
        continue;
      }
      requirements.set(name, [mapping[0], mapping[1]]);
    }
  }
  return { nodeType: raw.node_type, properties, requirements };
}

/**
 * L9: a substitution property is checked against the type, but a constraint it violates is only a
 * warning: test_cnf maps flavour `vdumap` while its VNF type still lists `valid_values: [simple]`,
 * and Tacker, which never checks this, deploys it.
 */
function checkSubstitutedValue(value: unknown, name: string, defs: ReturnType<TypeSystem["properties"]>, ctx: ValueContext, path: (string | number)[]): void {
  const def = defs.get(name)!;
  checkValue(value, { ...def, constraints: [] }, ctx, path);
  for (const c of def.constraints) {
    if (!c.test(value))
      ctx.problems.warning(
        "SUBSTITUTION_CONSTRAINT",
        `${JSON.stringify(value)} violates \`${c.text}\` of the substituted type's \`${name}\` (accepted, as Tacker does)`,
        ctx.file,
        path,
      );
  }
}

function stringList(v: unknown, ctx: ValueContext, path: (string | number)[]): string[] {
  if (v === undefined || v === null) return [];
  if (!Array.isArray(v) || v.some((x) => typeof x !== "string")) {
    ctx.problems.error("TEMPLATE_SYNTAX", "expected a list of names", ctx.file, path);
    return [];
  }
  return v as string[];
}
