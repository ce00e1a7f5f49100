/**
 * TOSCA property constraints, compiled once per definition and then applied to values.
 * Scalar-unit arguments are compared in their base unit.
 */
import type { YamlPath } from "../../yaml/located-yaml";
import type { Problems } from "../problems";
import { parseScalar, type ScalarKind } from "./scalar-units";

export interface Constraint {
  /** `greater_than: 0`, for messages. */
  text: string;
  test(value: unknown): boolean;
}

const OPERATORS = new Set([
  "equal",
  "greater_than",
  "greater_or_equal",
  "less_than",
  "less_or_equal",
  "in_range",
  "valid_values",
  "length",
  "min_length",
  "max_length",
  "pattern",
]);

/** Compiles `constraints:`; malformed entries are reported and skipped. */
export function compileConstraints(raw: unknown, scalar: ScalarKind | undefined, problems: Problems, file: string, path: YamlPath): Constraint[] {
  if (raw === undefined || raw === null) return [];
  if (!Array.isArray(raw)) {
    problems.error("CONSTRAINT_SYNTAX", "`constraints` must be a list", file, path);
    return [];
  }
  const out: Constraint[] = [];
  raw.forEach((entry, i) => {
    const at = [...path, i];
    if (entry === null || typeof entry !== "object" || Array.isArray(entry) || Object.keys(entry).length !== 1) {
      problems.error("CONSTRAINT_SYNTAX", "a constraint is a map with one operator, e.g. `greater_or_equal: 0`", file, at);
      return;
    }
    const [op, arg] = Object.entries(entry as Record<string, unknown>)[0];
    if (!OPERATORS.has(op)) {
      problems.error("CONSTRAINT_SYNTAX", `unknown constraint operator \`${op}\` (one of ${[...OPERATORS].join(", ")})`, file, at, true);
      return;
    }
    const compiled = compileOne(op, arg, scalar);
    if (typeof compiled === "string") problems.error("CONSTRAINT_SYNTAX", `\`${op}\`: ${compiled}`, file, [...at, op]);
    else out.push(compiled);
  });
  return out;
}

function compileOne(op: string, arg: unknown, scalar: ScalarKind | undefined): Constraint | string {
  const text = `${op}: ${JSON.stringify(arg)}`;
  const norm = (v: unknown): unknown => (scalar && typeof v === "string" ? (parseScalar(scalar, v) ?? v) : v);
  const cmp = (pred: (a: number | string, b: number | string) => boolean): Constraint | string => {
    const b = norm(arg);
    if (typeof b !== "number" && typeof b !== "string") return "needs a number, string or scalar";
    return {
      text,
      test: (v) => {
        const a = norm(v);
        return (typeof a === "number" || typeof a === "string") && typeof a === typeof b && pred(a, b);
      },
    };
  };
  const size = (v: unknown): number | undefined =>
    typeof v === "string" || Array.isArray(v) ? v.length : v !== null && typeof v === "object" ? Object.keys(v).length : undefined;
  switch (op) {
    case "equal": {
      const b = norm(arg);
      return { text, test: (v) => JSON.stringify(norm(v)) === JSON.stringify(b) };
    }
    case "greater_than":
      return cmp((a, b) => a > b);
    case "greater_or_equal":
      return cmp((a, b) => a >= b);
    case "less_than":
      return cmp((a, b) => a < b);
    case "less_or_equal":
      return cmp((a, b) => a <= b);
    case "in_range": {
      if (!Array.isArray(arg) || arg.length !== 2) return "needs a list of two bounds";
      const [lo, hi] = arg.map(norm);
      const unbounded = hi === "UNBOUNDED";
      if (typeof lo !== "number" || (!unbounded && typeof hi !== "number")) return "bounds must be numbers or scalars";
      return {
        text,
        test: (v) => {
          const a = norm(v);
          return typeof a === "number" && a >= lo && (unbounded || a <= (hi as number));
        },
      };
    }
    case "valid_values": {
      if (!Array.isArray(arg)) return "needs a list";
      const allowed = new Set(arg.map((x) => JSON.stringify(norm(x))));
      // Strings, the usual case, compared as they are: equal JSON is equal strings.
      const strings = new Set(arg.map(norm).filter((x) => typeof x === "string"));
      return {
        text,
        test: (v) => {
          const n = norm(v);
          return typeof n === "string" ? strings.has(n) : allowed.has(JSON.stringify(n));
        },
      };
    }
    case "length":
    case "min_length":
    case "max_length": {
      if (typeof arg !== "number" || !Number.isInteger(arg) || arg < 0) return "needs a non-negative integer";
      const pred = op === "length" ? (n: number) => n === arg : op === "min_length" ? (n: number) => n >= arg : (n: number) => n <= arg;
      return {
        text,
        test: (v) => {
          const n = size(v);
          return n !== undefined && pred(n);
        },
      };
    }
    case "pattern": {
      if (typeof arg !== "string") return "needs a string";
      let re: RegExp;
      try {
        // TOSCA: the pattern must match the whole value.
        re = new RegExp(`^(?:${arg})$`, "u");
      } catch (e) {
        return `invalid regular expression: ${(e as Error).message}`;
      }
      return { text, test: (v) => typeof v === "string" && re.test(v) };
    }
  }
  return "unknown operator";
}
