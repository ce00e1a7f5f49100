/**
 * YAML parsing on the hot path.
 *
 * `translators/yaml`'s parser keeps every node position and is about ten times slower than
 * js-yaml on large VNFDs (1 s against 0.1 s for 500 VDUs). Valid files are therefore read with
 * `block-yaml.ts` when they stay within its plain block subset, else with js-yaml (YAML 1.2 core
 * schema, duplicate keys rejected), and positions are recovered only for
 * files that have problems (`Problems.locate`). Anything js-yaml refuses, and any file that uses
 * aliases, goes through the position-keeping parser, whose limits and messages then apply
 * unchanged: alias bombs, deep nesting and syntax errors are reported by one implementation.
 */
import type * as JsYaml from "js-yaml";
import type { Diagnostic } from "../../diagnostics";
import { DEFAULT_YAML_LIMITS, parseYaml } from "../../yaml/located-yaml";
import type { Tolerated } from "../problems";
import { parseBlockYaml } from "./block-yaml";

export interface FastYaml {
  /** The first document's value; undefined when the file has errors or is empty. */
  value?: unknown;
  diagnostics: Diagnostic[];
  /** Duplicate keys: PyYAML (so Tacker) keeps the last value; `Problems.tolerate` decides the severity. */
  tolerated: Tolerated[];
}

let jsYamlModule: typeof JsYaml | undefined;

/** js-yaml, loaded on first use: block-yaml reads most VNFDs, ETSI's type files included, without it. */
function jsYaml(): typeof JsYaml {
  // eslint-disable-next-line @typescript-eslint/no-require-imports -- `import()` would make every parse asynchronous
  return (jsYamlModule ??= require("js-yaml") as typeof JsYaml);
}

/** An alias (`*name`) outside quotes, roughly: a false positive only costs the slow path. */
const ALIAS = /(^|[\s[{,:-])\*[^\s,\]}]/m;

export function parseYamlFast(text: string, file: string): FastYaml {
  const bytes = Buffer.byteLength(text, "utf8");
  // `includes` first: it is a fast scan, and most files have no `*` at all.
  if (bytes <= DEFAULT_YAML_LIMITS.maxBytes && !(text.includes("*") && ALIAS.test(text))) {
    const simple = parseBlockYaml(text, DEFAULT_YAML_LIMITS.maxDepth);
    if (simple !== undefined) return { value: simple, diagnostics: [], tolerated: [] };
    try {
      const { load, CORE_SCHEMA } = jsYaml();
      const value = load(text, { schema: CORE_SCHEMA, json: false, filename: file });
      if (depthWithin(value, DEFAULT_YAML_LIMITS.maxDepth)) return { value, diagnostics: [], tolerated: [] };
    } catch {
      // Fall through: the located parser explains what is wrong, with a position.
    }
  }
  const parsed = parseYaml(text, file);
  const diagnostics = parsed.diagnostics.items.map((d) => (d.line === undefined ? { ...d, ...fallbackPosition(d.code, text) } : d));
  if (parsed.documents.length > 1) {
    // Located at the second document's content, so that every YAML error names its line.
    const { line, column } = parsed.documents[1].location([]);
    diagnostics.push({
      severity: "error",
      code: "YAML_MULTIPLE_DOCUMENTS",
      message: "a TOSCA file holds one YAML document",
      file,
      line: line ?? 1,
      column: column ?? 1,
    });
  }
  const duplicates = diagnostics.filter((d) => d.code === "YAML_DUPLICATE_KEY");
  if (duplicates.length > 0 && duplicates.length === diagnostics.filter((d) => d.severity === "error").length) {
    // L13: only duplicate keys are wrong; read as PyYAML does, the last value of a key winning
    // (js-yaml's `json` mode), once the located parser has checked the limits.
    const { load, CORE_SCHEMA } = jsYaml();
    const value = load(text, { schema: CORE_SCHEMA, json: true, filename: file });
    return {
      value,
      diagnostics: diagnostics.filter((d) => d.code !== "YAML_DUPLICATE_KEY"),
      tolerated: duplicates.map((diagnostic) => ({ leniency: "L13", diagnostic })),
    };
  }
  if (parsed.diagnostics.hasErrors()) return { diagnostics, tolerated: [] };
  return { value: parsed.documents[0]?.value, diagnostics, tolerated: [] };
}

/**
 * The located parser reports an alias bomb, or a stack overflow on deep nesting, without a
 * position; point at the first alias, or at the top of the file.
 */
function fallbackPosition(code: string, text: string): { line: number; column: number } {
  const alias = code === "YAML_ALIAS_LIMIT" ? ALIAS.exec(text) : null;
  if (!alias) return { line: 1, column: 1 };
  const offset = alias.index + alias[1].length;
  const before = text.slice(0, offset);
  const line = before.split("\n").length;
  return { line, column: offset - before.lastIndexOf("\n") };
}

/** Depth check that stops at `max`, so its own recursion is bounded. */
function depthWithin(node: unknown, max: number): boolean {
  if (node === null || typeof node !== "object") return true;
  if (max <= 0) return false;
  if (Array.isArray(node)) {
    for (const child of node) if (!depthWithin(child, max - 1)) return false;
  } else {
    for (const key in node) if (!depthWithin((node as Record<string, unknown>)[key], max - 1)) return false;
  }
  return true;
}
