/**
 * Checks a value against a schema: primitive types, scalar units, lists and maps with
 * `entry_schema`, data types with their properties, and constraints. `get_input` is resolved
 * through the caller's `inputs`; other TOSCA functions are runtime values and are not checked.
 */
import type { Problems } from "../problems";
import { parseScalar, scalarKindOf, unitsOf } from "./scalar-units";
import { isMap, type Schema, type TypeSystem } from "./type-system";

export const TOSCA_FUNCTIONS = new Set(["get_input", "get_property", "get_attribute", "get_operation_output", "get_artifact", "concat", "join", "token"]);

/** Resolves `get_input: name`: `found: false` for an undeclared input; `value` absent when it has no default. */
export type InputResolver = (name: string) => { found: boolean; value?: unknown };

export interface ValueContext {
  types: TypeSystem;
  problems: Problems;
  file: string;
  inputs?: InputResolver;
}

const SCALAR_EXAMPLE = { size: "3 GB", time: "10 s", frequency: "1 GHz", bitrate: "1 Gbps" };
const VERSION = /^\d+\.\d+(\.\d+(\.[A-Za-z0-9_]+(-\d+)?)?)?$/;
const TIMESTAMP = /^\d{4}-\d\d?-\d\d?([Tt ]\d\d?:\d\d:\d\d(\.\d+)?\s*(Z|[+-]\d\d?(:\d\d)?)?)?$/;

/** If `value` is a TOSCA function call, its name. */
export function functionName(value: unknown): string | undefined {
  if (!isMap(value)) return undefined;
  // Called for every map value: look at the keys without allocating a key array.
  let only: string | undefined;
  for (const key in value) {
    if (only !== undefined) return undefined;
    only = key;
  }
  return only !== undefined && TOSCA_FUNCTIONS.has(only) ? only : undefined;
}

/**
 * Reports every problem of `value` at `path`. Nested values extend `path` in place and restore it
 * before returning (a new array per value was most of what checking a large VNFD allocated);
 * `Problems` keeps copies.
 */
export function checkValue(value: unknown, schema: Schema, ctx: ValueContext, path: (string | number)[]): void {
  const fn = functionName(value);
  if (fn) {
    if (fn !== "get_input") return;
    const arg = (value as Record<string, unknown>).get_input;
    const name = Array.isArray(arg) ? arg[0] : arg;
    if (typeof name !== "string") {
      ctx.problems.error("FUNCTION_SYNTAX", "`get_input` takes an input name", ctx.file, [...path, "get_input"]);
      return;
    }
    if (!ctx.inputs) {
      // Type and input defaults are checked without inputs: the input may well exist.
      ctx.problems.error(
        "FUNCTION_SYNTAX",
        `\`get_input: ${name}\` is not evaluated here: only node, group and policy templates may read inputs, not type or input defaults`,
        ctx.file,
        [...path, "get_input"],
      );
      return;
    }
    const resolved = ctx.inputs(name);
    if (!resolved.found) {
      ctx.problems.error("FUNCTION_UNKNOWN_INPUT", `\`get_input: ${name}\`: no input \`${name}\` in this topology_template`, ctx.file, [...path, "get_input"]);
      return;
    }
    // An input without a default is supplied at deployment time (e.g. `selected_flavour`).
    if (resolved.value !== undefined) checkValue(resolved.value, schema, { ...ctx, inputs: undefined }, path);
    return;
  }
  if (!checkType(value, schema, ctx, path)) return;
  if (schema.constraints.length === 0) return;
  // L3: a number or boolean where a string is expected is compared as its text.
  const subject = schema.type === "string" && (typeof value === "number" || typeof value === "boolean") ? String(value) : value;
  for (const c of schema.constraints) {
    if (!c.test(subject)) ctx.problems.error("VALUE_CONSTRAINT", `value ${short(value)} violates constraint \`${c.text}\``, ctx.file, path);
  }
}

/** Type check only; true when constraints may be applied. */
function checkType(value: unknown, schema: Schema, ctx: ValueContext, path: (string | number)[]): boolean {
  const type = schema.type;
  switch (type) {
    case "string":
      // L3: YAML reads `1.0` or `true` as a number or boolean; ETSI samples use them as strings.
      return typeof value === "string" || typeof value === "number" || typeof value === "boolean" || mismatch("a string", value, ctx, path);
    case "integer":
      return (typeof value === "number" && Number.isInteger(value)) || mismatch("an integer", value, ctx, path);
    case "float":
      return (typeof value === "number" && Number.isFinite(value)) || mismatch("a number", value, ctx, path);
    case "boolean":
      return typeof value === "boolean" || mismatch("a boolean", value, ctx, path);
    case "null":
      return value === null || mismatch("null", value, ctx, path);
    case "timestamp":
      return (typeof value === "string" && TIMESTAMP.test(value)) || mismatch("a timestamp (YYYY-MM-DDThh:mm:ssZ)", value, ctx, path);
    case "version":
      // L2: `default: 1.0` in Tacker's VNF types is a YAML float.
      return (
        (typeof value === "string" && VERSION.test(value)) ||
        (typeof value === "number" && Number.isFinite(value)) ||
        mismatch("a version (major.minor[.fix[.qualifier[-build]]])", value, ctx, path)
      );
    case "range":
      return (
        (Array.isArray(value) &&
          value.length === 2 &&
          Number.isInteger(value[0]) &&
          (Number.isInteger(value[1]) || value[1] === "UNBOUNDED") &&
          (value[1] === "UNBOUNDED" || value[0] <= value[1])) ||
        mismatch("a range [min, max]", value, ctx, path)
      );
    case "list":
      if (!Array.isArray(value)) return mismatch("a list", value, ctx, path);
      if (schema.entrySchema) for (let i = 0; i < value.length; i++) checkNested(value[i], schema.entrySchema, ctx, path, i);
      return true;
    case "map":
      if (!isMap(value)) return mismatch("a map", value, ctx, path);
      if (schema.entrySchema) for (const k of Object.keys(value)) checkNested(value[k], schema.entrySchema, ctx, path, k);
      return true;
  }
  const scalar = scalarKindOf(type);
  if (scalar) {
    if (parseScalar(scalar, value) !== undefined) return true;
    ctx.problems.error(
      "VALUE_BAD_SCALAR",
      `expected a ${type} such as \`${SCALAR_EXAMPLE[scalar]}\` (units: ${unitsOf(scalar).join(", ")}), found ${short(value)}`,
      ctx.file,
      path,
    );
    return false;
  }
  const dataType = ctx.types.get("data_types", type);
  if (!dataType) return mismatch(`a value of the unknown type \`${type}\``, value, ctx, path);
  if (dataType.primitive) {
    const base: Schema = { ...schema, type: dataType.primitive, constraints: [] };
    return checkType(value, base, ctx, path);
  }
  if (!isMap(value)) return mismatch(`a map (data type \`${type}\`)`, value, ctx, path);
  const props = ctx.types.properties(dataType);
  for (const key in value) {
    const v = value[key];
    const def = props.get(key);
    if (!def) {
      ctx.problems.error("VALUE_UNKNOWN_FIELD", `\`${key}\` is not a property of data type \`${type}\``, ctx.file, [...path, key], true);
      continue;
    }
    if (v === null && !def.required) continue;
    checkNested(v, def, ctx, path, key);
  }
  for (const def of props.values()) {
    if (def.required && value[def.name] === undefined && def.default === undefined) {
      ctx.problems.error("VALUE_MISSING_FIELD", `\`${def.name}\` is required by data type \`${type}\``, ctx.file, path);
    }
  }
  return true;
}

/** `checkValue` of the element or field `key` of the value at `path`. */
function checkNested(value: unknown, schema: Schema, ctx: ValueContext, path: (string | number)[], key: string | number): void {
  path.push(key);
  checkValue(value, schema, ctx, path);
  path.pop();
}

function mismatch(expected: string, value: unknown, ctx: ValueContext, path: (string | number)[]): false {
  ctx.problems.error("VALUE_TYPE", `expected ${expected}, found ${short(value)}`, ctx.file, path);
  return false;
}

function short(value: unknown): string {
  const s = JSON.stringify(value);
  if (s === undefined) return String(value);
  return s.length > 60 ? s.slice(0, 57) + "..." : s;
}
