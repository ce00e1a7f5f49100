/**
 * YAML with source positions and limits against hostile input.
 *
 * Every reader of user files (vim-config.yaml, VNFDs, Kubernetes manifests) goes through here so
 * that each problem can name `file:line:column`, duplicate keys are errors, and alias bombs, huge
 * files and deep nesting are refused before they can hang or crash the process.
 */
import type * as Yaml from "yaml";
import type { Document, LineCounter, Node, Pair, YAMLMap } from "yaml";
import { DiagnosticBag, formatPath, type SourceLocation } from "../diagnostics";

let yamlModule: typeof Yaml | undefined;

/**
 * The `yaml` package, loaded on first use: `nfv translate` of a valid package never parses with
 * positions (see `tosca/phase2-load/fast-yaml.ts`), and loading the package took about 50 ms of
 * the command's start-up.
 */
function yaml(): typeof Yaml {
  // eslint-disable-next-line @typescript-eslint/no-require-imports -- `import()` would make every parse asynchronous
  return (yamlModule ??= require("yaml") as typeof Yaml);
}

export interface YamlLimits {
  /** Largest accepted file, in bytes. */
  maxBytes: number;
  /** Largest number of alias dereferences while building values (yaml's own resource-exhaustion guard). */
  maxAliasCount: number;
  /** Deepest accepted nesting of maps and sequences. */
  maxDepth: number;
}

export const DEFAULT_YAML_LIMITS: YamlLimits = {
  maxBytes: 16 * 1024 * 1024,
  maxAliasCount: 1000,
  maxDepth: 100,
};

export type YamlPath = readonly (string | number)[];

/** One parsed YAML document, its plain value, and a way back from a path to a position. */
export class LocatedDocument {
  constructor(
    readonly file: string,
    readonly doc: Document.Parsed,
    readonly value: unknown,
    private readonly lines: LineCounter,
  ) {}

  /** Position of the value at `path`; for a path that does not exist, the deepest existing parent. */
  location(path: YamlPath): SourceLocation {
    const node = this.deepestNode(path, false);
    return this.at(node, path);
  }

  /** Position of the key at the end of `path` (for "unknown key" problems); else as `location`. */
  keyLocation(path: YamlPath): SourceLocation {
    const node = this.deepestNode(path, true);
    return this.at(node, path);
  }

  private at(node: Node | undefined, path: YamlPath): SourceLocation {
    const where: SourceLocation = { file: this.file, path: formatPath(path) };
    const offset = node?.range?.[0];
    if (offset !== undefined) {
      const pos = this.lines.linePos(offset);
      where.line = pos.line;
      where.column = pos.col;
    }
    return where;
  }

  /** Per mapping, its pairs by key (the first of each), built on first use: one lookup is O(1), not a scan. */
  private readonly index = new WeakMap<object, Map<string, Pair>>();

  private pairOf(map: YAMLMap, key: string): Pair | undefined {
    let byKey = this.index.get(map);
    if (!byKey) {
      const { isScalar } = yaml();
      byKey = new Map();
      for (const p of map.items as Pair[]) {
        if (!isScalar(p.key)) continue;
        const k = String(p.key.value);
        if (!byKey.has(k)) byKey.set(k, p);
      }
      this.index.set(map, byKey);
    }
    return byKey.get(key);
  }

  private deepestNode(path: YamlPath, wantKey: boolean): Node | undefined {
    const { isMap, isScalar, isSeq } = yaml();
    let node: unknown = this.doc.contents;
    for (let i = 0; i < path.length; i++) {
      const part = path[i];
      if (isMap(node)) {
        const pair = this.pairOf(node, String(part));
        if (!pair) return node;
        if (wantKey && i === path.length - 1 && isScalar(pair.key)) return pair.key;
        node = pair.value ?? pair.key;
      } else if (isSeq(node) && typeof part === "number" && part < node.items.length) {
        node = node.items[part];
      } else {
        return node as Node | undefined;
      }
    }
    return node as Node | undefined;
  }
}

export interface ParsedYaml {
  documents: LocatedDocument[];
  diagnostics: DiagnosticBag;
}

/**
 * Parses every document of a YAML stream. Problems go into `diagnostics` (never thrown); documents
 * with errors are left out of `documents`.
 */
/** `uniqueKeys: false` only to locate problems in a file whose duplicate keys were already reported. */
export function parseYaml(text: string, file: string, limits: YamlLimits = DEFAULT_YAML_LIMITS, uniqueKeys = true): ParsedYaml {
  const diagnostics = new DiagnosticBag();
  const documents: LocatedDocument[] = [];
  const bytes = Buffer.byteLength(text, "utf8");
  if (bytes > limits.maxBytes) {
    diagnostics.error("YAML_TOO_LARGE", `file is ${bytes} bytes; the limit is ${limits.maxBytes}`, { file });
    return { documents, diagnostics };
  }
  // The parser recurses on nesting; refuse absurd nesting before it can overflow the stack. The
  // exact depth is checked on the parsed tree below; these scans are cheap over-estimates.
  const flow = maxFlowDepth(text);
  const block = maxBlockDepth(text);
  const deepest = flow.depth > limits.maxDepth ? flow : block.depth > PARSER_SAFE_BLOCK_DEPTH ? block : undefined;
  if (deepest) {
    const pos = new LineCounterFromText(text).linePos(deepest.offset);
    const bound = deepest === flow ? limits.maxDepth : PARSER_SAFE_BLOCK_DEPTH;
    diagnostics.error("YAML_TOO_DEEP", `nesting deeper than ${bound} levels`, { file, ...pos });
    return { documents, diagnostics };
  }

  const { LineCounter, parseAllDocuments } = yaml();
  const lines = new LineCounter();
  // Duplicate keys are found by `duplicateKeys` below: the parser's own check compares each key
  // with every earlier one of its mapping, quadratic (40k keys: 18 s).
  const docs = parseAllDocuments(text, { lineCounter: lines, uniqueKeys: false, prettyErrors: false, strict: true });
  if ("empty" in docs) {
    // A stream with only comments or directives: no documents, but maybe errors.
    for (const e of docs.errors) diagnostics.error(yamlCode(e.code), firstLine(e.message), locate(lines, file, e.pos[0]));
  }
  for (const doc of docs) {
    if (doc.errors.some((e) => e.message.includes("call stack"))) {
      // A safety net behind the pre-scans: one clear error instead of one per unwound frame.
      diagnostics.error("YAML_TOO_DEEP", "nesting too deep for the parser", { file });
      continue;
    }
    let ok = true;
    for (const e of doc.errors) {
      ok = false;
      diagnostics.error(yamlCode(e.code), firstLine(e.message), locate(lines, file, e.pos[0]));
    }
    for (const w of doc.warnings) {
      diagnostics.warning("YAML_WARNING", firstLine(w.message), locate(lines, file, w.pos[0]));
    }
    if (!ok) continue;
    const duplicates = uniqueKeys ? duplicateKeys(doc.contents) : [];
    for (const offset of duplicates) diagnostics.error("YAML_DUPLICATE_KEY", "Map keys must be unique", locate(lines, file, offset));
    if (duplicates.length > 0) continue;
    const depth = maxNodeDepth(doc.contents);
    if (depth.depth > limits.maxDepth) {
      diagnostics.error("YAML_TOO_DEEP", `nesting deeper than ${limits.maxDepth} levels`, locate(lines, file, depth.offset));
      continue;
    }
    let value: unknown;
    try {
      value = doc.toJS({ maxAliasCount: limits.maxAliasCount });
    } catch (err) {
      diagnostics.error("YAML_ALIAS_LIMIT", `alias expansion refused: ${aliasProblem(err as Error, limits)}`, { file });
      continue;
    }
    documents.push(new LocatedDocument(file, doc, value, lines));
  }
  return { documents, diagnostics };
}

function yamlCode(code: string): string {
  return code === "DUPLICATE_KEY" ? "YAML_DUPLICATE_KEY" : "YAML_SYNTAX";
}

function firstLine(message: string): string {
  const i = message.indexOf("\n");
  return i < 0 ? message : message.slice(0, i);
}

function locate(lines: LineCounter, file: string, offset: number): SourceLocation {
  const pos = lines.linePos(offset);
  return { file, line: pos.line, column: pos.col };
}

/** Line/column of an offset without running the parser (used before parsing is safe). */
class LineCounterFromText {
  constructor(private readonly text: string) {}

  linePos(offset: number): { line: number; column: number } {
    let line = 1;
    let start = 0;
    for (let i = 0; i < offset && i < this.text.length; i++) {
      if (this.text.charCodeAt(i) === 10) {
        line++;
        start = i + 1;
      }
    }
    return { line, column: offset - start + 1 };
  }
}

/** Block nesting (indentation plus compact `- - -` entries) that the parser is known to survive. */
const PARSER_SAFE_BLOCK_DEPTH = 400;

/** Per line: leading spaces plus compact sequence/mapping indicators, an upper bound of block depth. */
function maxBlockDepth(text: string): { depth: number; offset: number } {
  let max = 0;
  let at = 0;
  let lineStart = 0;
  while (lineStart < text.length) {
    let i = lineStart;
    let depth = 0;
    while (i < text.length) {
      const c = text[i];
      if (c === " ") {
        depth++;
        i++;
      } else if ((c === "-" || c === "?") && (text[i + 1] === " " || text[i + 1] === "\n")) {
        depth += 2;
        i += 2;
      } else break;
    }
    if (depth > max) {
      max = depth;
      at = lineStart;
    }
    const nl = text.indexOf("\n", i);
    if (nl < 0) break;
    lineStart = nl + 1;
  }
  return { depth: max, offset: at };
}

/** Deepest `[`/`{` nesting outside quotes and comments; an over-estimate is harmless, it only gates. */
function maxFlowDepth(text: string): { depth: number; offset: number } {
  let depth = 0;
  let max = 0;
  let at = 0;
  let quote = "";
  let comment = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (comment) {
      if (c === "\n") comment = false;
      continue;
    }
    if (quote) {
      if (c === quote) quote = "";
      continue;
    }
    if (c === "#" && (i === 0 || /\s/.test(text[i - 1]))) comment = true;
    else if ((c === '"' || c === "'") && depth > 0) quote = c;
    else if (c === "[" || c === "{") {
      depth++;
      if (depth > max) {
        max = depth;
        at = i;
      }
    } else if ((c === "]" || c === "}") && depth > 0) depth--;
  }
  return { depth: max, offset: at };
}

/** Deepest nesting of collections in a parsed document, walked without recursion. */
function maxNodeDepth(root: unknown): { depth: number; offset: number } {
  const { isMap, isPair, isSeq } = yaml();
  let max = 0;
  let offset = 0;
  const stack: { node: unknown; depth: number }[] = [{ node: root, depth: 0 }];
  while (stack.length > 0) {
    const { node, depth } = stack.pop()!;
    if (isMap(node) || isSeq(node)) {
      const d = depth + 1;
      if (d > max) {
        max = d;
        offset = node.range?.[0] ?? 0;
      }
      for (const item of node.items) stack.push({ node: item, depth: d });
    } else if (isPair(node)) {
      stack.push({ node: node.key, depth }, { node: node.value, depth });
    }
    // Aliases are not followed here: their expansion is bounded by maxAliasCount when values are built.
  }
  return { depth: max, offset };
}

/**
 * Offsets of the keys that repeat an earlier key of their mapping, as the parser's `uniqueKeys`
 * sees them (scalars equal in type and value), in one linear walk without recursion.
 */
function duplicateKeys(root: unknown): number[] {
  const { isMap, isPair, isScalar, isSeq } = yaml();
  const out: number[] = [];
  const stack: unknown[] = [root];
  while (stack.length > 0) {
    const node = stack.pop();
    if (isMap(node)) {
      const seen = new Set<string>();
      for (const p of node.items) {
        if (isScalar(p.key)) {
          const k = `${typeof p.key.value}:${String(p.key.value)}`;
          if (seen.has(k)) out.push(p.key.range?.[0] ?? 0);
          seen.add(k);
        }
        stack.push(p.key, p.value);
      }
    } else if (isSeq(node)) {
      for (const item of node.items) stack.push(item);
    } else if (isPair(node)) {
      stack.push(node.key, node.value);
    }
  }
  return out.sort((a, b) => a - b);
}

/**
 * The parser's alias messages quote the alias text (`Unresolved alias …: S3cret`), and a value the
 * user meant literally (`password: *S3cret`) may be a secret: say what is wrong, never the text.
 */
function aliasProblem(err: Error, limits: YamlLimits): string {
  if (err.message.startsWith("Unresolved alias")) return "an alias (`*name`) names no anchor defined before it; quote a value that starts with `*`";
  if (err.message.startsWith("Excessive alias count")) return `more than ${limits.maxAliasCount} alias expansions`;
  return "the aliases cannot be expanded";
}
