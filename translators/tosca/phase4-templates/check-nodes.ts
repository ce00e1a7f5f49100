/**
 * Node templates: type, properties, capabilities, requirements (targets must exist), artifacts
 * (short or full notation) and interface operations (implementations must name an artifact).
 * How many times a template gives each requirement is checked for the entry file's templates only,
 * once every file is read: check-occurrences.ts.
 */
import { posix } from "node:path";
import { isMap, type TypeSystem } from "../phase3-types/type-system";
import type { ValueContext } from "../phase3-types/values";
import { checkProperties } from "./check-properties";
import { nodePath, type ArtifactAssignment, type NodeTemplate, type OperationAssignment, type RequirementAssignment } from "./topology";

/** What a node without artifacts or interfaces has: most nodes, so they share one empty map. */
const NONE: ReadonlyMap<never, never> = new Map<never, never>();

const NODE_KEYS = new Set([
  "type",
  "description",
  "metadata",
  "directives",
  "properties",
  "attributes",
  "requirements",
  "capabilities",
  "interfaces",
  "artifacts",
  "node_filter",
  "copy",
]);

export function checkNode(name: string, raw: unknown, ctx: ValueContext): NodeTemplate | undefined {
  const { problems, types, file } = ctx;
  const path = nodePath(name);
  if (!isMap(raw)) {
    problems.error("TEMPLATE_SYNTAX", `node template \`${name}\` must be a map`, file, path);
    return undefined;
  }
  for (const key of Object.keys(raw))
    if (!NODE_KEYS.has(key)) problems.error("TEMPLATE_UNKNOWN_KEY", `unknown key \`${key}\` in node template \`${name}\``, file, [...path, key], true);
  const typeName = raw.type;
  if (typeof typeName !== "string") {
    problems.error("TEMPLATE_SYNTAX", `node template \`${name}\` needs a \`type\``, file, path);
    return undefined;
  }
  const type = types.get("node_types", typeName);
  if (!type) {
    problems.error("TEMPLATE_UNKNOWN_TYPE", `node template \`${name}\` has unknown node type \`${typeName}\``, file, [...path, "type"]);
    return { name, typeName, type, properties: {}, capabilities: {}, requirements: [], artifacts: NONE, interfaces: NONE };
  }
  const properties = checkProperties(raw.properties, types.properties(type), ctx, [...path, "properties"], `node type \`${typeName}\``);
  // The readers below get the node's path and extend it only when the node has that part: most
  // nodes lack most parts, and a large VNFD has thousands of nodes.
  const capabilities = checkCapabilities(raw.capabilities, typeName, type, ctx, path);
  const requirements = readRequirements(raw.requirements, types, type, typeName, ctx, path);
  const artifacts = readArtifacts(raw.artifacts, types, ctx, path);
  const interfaces = readInterfaces(raw.interfaces, types, type, ctx, path, artifacts);
  return { name, typeName, type, properties, capabilities, requirements, artifacts, interfaces };
}

function checkCapabilities(
  raw: unknown,
  typeName: string,
  type: NonNullable<NodeTemplate["type"]>,
  ctx: ValueContext,
  node: (string | number)[],
): Record<string, Record<string, unknown>> {
  const out: Record<string, Record<string, unknown>> = {};
  if (raw === undefined || raw === null) return out;
  const path = [...node, "capabilities"];
  if (!isMap(raw)) {
    ctx.problems.error("TEMPLATE_SYNTAX", "`capabilities` must be a map", ctx.file, path);
    return out;
  }
  const defs = ctx.types.capabilities(type);
  for (const [name, assignment] of Object.entries(raw)) {
    if (!defs.has(name)) {
      ctx.problems.error("TEMPLATE_UNKNOWN_CAPABILITY", `node type \`${typeName}\` has no capability \`${name}\``, ctx.file, [...path, name], true);
      continue;
    }
    const capTypeName = defs.get(name);
    const capType = capTypeName ? ctx.types.get("capability_types", capTypeName) : undefined;
    if (!capType) continue; // reported with the type definition
    const a = isMap(assignment) ? assignment : {};
    out[name] = checkProperties(a.properties, ctx.types.properties(capType), ctx, [...path, name, "properties"], `capability type \`${capTypeName}\``);
  }
  return out;
}

function readRequirements(
  raw: unknown,
  types: TypeSystem,
  type: NonNullable<NodeTemplate["type"]>,
  typeName: string,
  ctx: ValueContext,
  node: (string | number)[],
): RequirementAssignment[] {
  const out: RequirementAssignment[] = [];
  // L4: `requirements:` whose entries are all commented out is YAML null.
  if (raw === undefined || raw === null) return out;
  const path = [...node, "requirements"];
  if (!Array.isArray(raw)) {
    ctx.problems.error("TEMPLATE_SYNTAX", "`requirements` must be a list of single-key maps", ctx.file, path);
    return out;
  }
  const defs = types.requirements(type);
  raw.forEach((entry, index) => {
    if (!isMap(entry) || Object.keys(entry).length !== 1) {
      ctx.problems.error("TEMPLATE_SYNTAX", "a requirement is a single-key map, e.g. `- virtual_binding: VDU1`", ctx.file, [...path, index]);
      return;
    }
    const [name, value] = Object.entries(entry)[0];
    if (!defs.has(name)) {
      ctx.problems.error("TEMPLATE_UNKNOWN_REQUIREMENT", `node type \`${typeName}\` has no requirement \`${name}\``, ctx.file, [...path, index, name], true);
      return;
    }
    const target = typeof value === "string" ? value : isMap(value) && typeof value.node === "string" ? value.node : undefined;
    if (target === undefined) {
      ctx.problems.error("TEMPLATE_SYNTAX", `requirement \`${name}\` must name a node template`, ctx.file, [...path, index, name]);
      return;
    }
    out.push({ name, node: target, index });
  });
  return out;
}

function readArtifacts(raw: unknown, types: TypeSystem, ctx: ValueContext, node: (string | number)[]): ReadonlyMap<string, ArtifactAssignment> {
  if (raw === undefined || raw === null) return NONE;
  const path = [...node, "artifacts"];
  const out = new Map<string, ArtifactAssignment>();
  if (!isMap(raw)) {
    ctx.problems.error("TEMPLATE_SYNTAX", "`artifacts` must be a map", ctx.file, path);
    return out;
  }
  for (const [name, def] of Object.entries(raw)) {
    // Short notation: `sw_image: ../Files/images/x.img`.
    const file = typeof def === "string" ? def : isMap(def) && typeof def.file === "string" ? def.file : undefined;
    if (file === undefined) {
      ctx.problems.error("TEMPLATE_SYNTAX", `artifact \`${name}\` needs a \`file\``, ctx.file, [...path, name]);
      continue;
    }
    const type = isMap(def) && typeof def.type === "string" ? def.type : undefined;
    if (type !== undefined && !types.get("artifact_types", type)) {
      // L18: tosca-parser does not look up the artifact types of node templates; Tacker reads the type by name.
      ctx.problems.tolerated("L18", "TEMPLATE_UNKNOWN_TYPE", `artifact \`${name}\` has unknown artifact type \`${type}\``, ctx.file, [...path, name, "type"]);
    }
    const resolved = /^[a-z][a-z0-9+.-]*:\/\//i.test(file) ? file : posix.normalize(posix.join(posix.dirname(ctx.file), file));
    out.set(name, { name, type, file, resolved });
  }
  return out;
}

function readInterfaces(
  raw: unknown,
  types: TypeSystem,
  type: NonNullable<NodeTemplate["type"]>,
  ctx: ValueContext,
  node: (string | number)[],
  artifacts: ReadonlyMap<string, ArtifactAssignment>,
): ReadonlyMap<string, ReadonlyMap<string, OperationAssignment>> {
  if (raw === undefined || raw === null) return NONE;
  const path = [...node, "interfaces"];
  const out = new Map<string, Map<string, OperationAssignment>>();
  if (!isMap(raw)) {
    ctx.problems.error("TEMPLATE_SYNTAX", "`interfaces` must be a map", ctx.file, path);
    return out;
  }
  const defs = types.interfaces(type);
  for (const [name, ops] of Object.entries(raw)) {
    const ifPath = [...path, name];
    if (!defs.has(name)) {
      ctx.problems.error("TEMPLATE_UNKNOWN_INTERFACE", `node type \`${type.name}\` has no interface \`${name}\``, ctx.file, ifPath, true);
      continue;
    }
    const ifTypeName = defs.get(name);
    const ifType = ifTypeName ? types.get("interface_types", ifTypeName) : undefined;
    const known = ifType ? types.operations(ifType) : undefined;
    const map = new Map<string, OperationAssignment>();
    out.set(name, map);
    if (!isMap(ops)) continue;
    const opsMap = isMap(ops.operations) ? ops.operations : ops;
    for (const [op, impl] of Object.entries(opsMap)) {
      if (op === "inputs" || op === "type" || op === "description") continue;
      const opPath = opsMap === ops ? [...ifPath, op] : [...ifPath, "operations", op];
      if (known && !known.has(op)) {
        ctx.problems.error("TEMPLATE_UNKNOWN_OPERATION", `interface type \`${ifTypeName}\` has no operation \`${op}\``, ctx.file, opPath, true);
        continue;
      }
      map.set(op, readOperation(impl, artifacts, ctx, opPath));
    }
  }
  return out;
}

function readOperation(impl: unknown, artifacts: ReadonlyMap<string, ArtifactAssignment>, ctx: ValueContext, path: (string | number)[]): OperationAssignment {
  // L7: `instantiate: []` declares the operation with no implementation (Tacker's default LCM).
  if (impl === null || (Array.isArray(impl) && impl.length === 0)) return { dependencies: [] };
  let primary: unknown = impl;
  let dependencies: unknown = [];
  let implPath = path;
  if (isMap(impl)) {
    if (!("implementation" in impl)) return { dependencies: [] };
    primary = impl.implementation;
    implPath = [...path, "implementation"];
    if (isMap(primary)) {
      dependencies = primary.dependencies ?? [];
      primary = primary.primary;
      implPath = [...implPath, "primary"];
    }
  }
  if (typeof primary !== "string" || primary === "") {
    ctx.problems.error("LCM_NO_IMPLEMENTATION", "an operation's `implementation` must name an artifact", ctx.file, implPath);
    return { dependencies: [] };
  }
  const deps = Array.isArray(dependencies) ? dependencies.filter((d): d is string => typeof d === "string") : [];
  for (const name of [primary, ...deps]) {
    if (!artifacts.has(name))
      ctx.problems.error("LCM_UNKNOWN_ARTIFACT", `operation implementation \`${name}\` is not an artifact of this node`, ctx.file, implPath);
  }
  return { implementation: primary, dependencies: deps };
}
