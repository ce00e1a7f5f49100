/**
 * A parser for the plain block-style YAML that VNFDs are written in: block mappings and
 * sequences, one-line flow collections, plain and simply quoted scalars, comments. Values follow
 * the YAML 1.2 core schema, as js-yaml's CORE_SCHEMA does.
 *
 * It exists for speed only (about three times js-yaml on large VNFDs). Anything outside that
 * subset (anchors, aliases, tags, block scalars, multi-line scalars or flow collections,
 * duplicate keys, tabs, directives) makes it give up and return `undefined`, and the caller
 * parses the file with js-yaml instead. A test checks that both agree on every sample package.
 */

class Unsupported extends Error {}

interface Line {
  indent: number;
  /** Content after the indentation, comment removed, trailing spaces trimmed. */
  text: string;
}

/** The document's value, or undefined when the text is outside the supported subset. */
export function parseBlockYaml(text: string, maxDepth: number): unknown {
  try {
    const lines = splitLines(text);
    if (lines.length === 0) return undefined;
    const parser = new BlockParser(lines, maxDepth);
    const value = parser.block(lines[0].indent, 0);
    if (parser.pos !== lines.length) throw new Unsupported();
    return value;
  } catch (e) {
    if (e instanceof Unsupported || e instanceof RangeError) return undefined;
    throw e;
  }
}

function splitLines(text: string): Line[] {
  const out: Line[] = [];
  for (let start = 0; start < text.length; ) {
    let end = text.indexOf("\n", start);
    if (end < 0) end = text.length;
    let indent = 0;
    while (text.charCodeAt(start + indent) === 32) indent++;
    const first = text.charCodeAt(start + indent);
    const stop = end > start && text.charCodeAt(end - 1) === 13 ? end - 1 : end;
    const body = stripComment(text.slice(start + indent, Math.max(stop, start + indent)));
    start = end + 1;
    if (body === "") {
      if (first === 9) throw new Unsupported(); // a tab where indentation ends
      continue;
    }
    // Tabs are separation whitespace in some places and content in others: leave them to js-yaml.
    if (body.includes("\t") || body.startsWith("---") || body.startsWith("...") || body.charCodeAt(0) === 37 /* % */) throw new Unsupported();
    out.push({ indent, text: body });
  }
  return out;
}

/** Removes a `#` comment outside quotes, and trailing spaces. */
function stripComment(s: string): string {
  if (s.indexOf("#") < 0) return s.trimEnd();
  let quote = 0;
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (quote) {
      if (c === quote) {
        if (quote === 39 && s.charCodeAt(i + 1) === 39) i++; // '' inside single quotes
        else quote = 0;
      } else if (c === 92 && quote === 34) i++; // backslash escape inside double quotes
    } else if (c === 35 /* # */ && (i === 0 || s.charCodeAt(i - 1) === 32 || s.charCodeAt(i - 1) === 9)) {
      return s.slice(0, i).trimEnd();
    } else if ((c === 39 || c === 34) && (i === 0 || " [{,:-".includes(s[i - 1]))) {
      quote = c;
    }
  }
  return s.trimEnd();
}

class BlockParser {
  pos = 0;

  constructor(
    private readonly lines: Line[],
    private readonly maxDepth: number,
  ) {}

  /** A block collection whose entries start at exactly `indent`. */
  block(indent: number, depth: number): unknown {
    if (depth >= this.maxDepth) throw new Unsupported();
    const first = this.lines[this.pos];
    return isSeqEntry(first.text) ? this.sequence(indent, depth) : this.mapping(indent, depth);
  }

  private sequence(indent: number, depth: number): unknown[] {
    const out: unknown[] = [];
    while (this.pos < this.lines.length) {
      const line = this.lines[this.pos];
      if (line.indent < indent) break;
      if (line.indent > indent || !isSeqEntry(line.text)) throw new Unsupported();
      const rest = trimStartSpaces(line.text, 1);
      if (rest === "") {
        this.pos++;
        out.push(this.nested(indent, depth, false));
      } else if (isSeqEntry(rest)) {
        throw new Unsupported(); // `- - x`
      } else if (keyOf(rest) !== undefined) {
        // `- key: value` opens a mapping whose keys are aligned with `key`.
        const column = indent + (line.text.length - rest.length);
        this.lines[this.pos] = { indent: column, text: rest };
        out.push(this.mapping(column, depth + 1));
      } else {
        this.pos++;
        out.push(scalarOrFlow(rest, this.maxDepth - depth - 1));
        this.noContinuation(indent);
      }
    }
    return out;
  }

  private mapping(indent: number, depth: number): Record<string, unknown> {
    const out: Record<string, unknown> = {};
    while (this.pos < this.lines.length) {
      const line = this.lines[this.pos];
      if (line.indent < indent) break;
      if (line.indent > indent) throw new Unsupported();
      if (isSeqEntry(line.text)) break; // a sequence at the parent's key indentation ends this map
      const key = keyOf(line.text);
      if (key === undefined || key.name === "<<" || Object.prototype.hasOwnProperty.call(out, key.name)) throw new Unsupported();
      this.pos++;
      const rest = trimStartSpaces(line.text, key.end);
      if (rest === "") out[key.name] = this.nested(indent, depth, true);
      else {
        out[key.name] = scalarOrFlow(rest, this.maxDepth - depth - 1);
        this.noContinuation(indent);
      }
    }
    return out;
  }

  /** The value of `key:` or `-` with nothing after it: a deeper block, a same-level sequence, or null. */
  private nested(indent: number, depth: number, sameLevelSequence: boolean): unknown {
    const next = this.lines[this.pos];
    if (next && next.indent > indent) return this.block(next.indent, depth + 1);
    if (next && sameLevelSequence && next.indent === indent && isSeqEntry(next.text)) return this.sequence(indent, depth + 1);
    return null;
  }

  /** A deeper line after a scalar would continue it (a multi-line scalar): not supported. */
  private noContinuation(indent: number): void {
    const next = this.lines[this.pos];
    if (next && next.indent > indent) throw new Unsupported();
  }
}

function trimStartSpaces(text: string, from: number): string {
  while (text.charCodeAt(from) === 32) from++;
  return text.slice(from);
}

function isSeqEntry(text: string): boolean {
  return text.charCodeAt(0) === 45 /* - */ && (text.length === 1 || text.charCodeAt(1) === 32);
}

/** `name: …` → the key and where its `:` ends; undefined when the line is not a key. */
function keyOf(text: string): { name: string; end: number } | undefined {
  const c = text.charCodeAt(0);
  if (c === 34 || c === 39) {
    const { value, end } = quoted(text, 0);
    if (text.charCodeAt(end) !== 58 || (end + 1 < text.length && text.charCodeAt(end + 1) !== 32)) return undefined;
    return { name: value, end: end + 1 };
  }
  const colon = keyColon(text);
  if (colon <= 0) return undefined;
  const name = text.slice(0, colon).trimEnd();
  if (UNSAFE_START.test(name) || name.includes(" #")) throw new Unsupported();
  return { name, end: colon + 1 };
}

/** Index of the first `:` followed by a space or the end of the line, or -1. */
function keyColon(text: string): number {
  for (let i = text.indexOf(":"); i >= 0; i = text.indexOf(":", i + 1)) {
    if (i + 1 === text.length || text.charCodeAt(i + 1) === 32) return i;
  }
  return -1;
}

/** @param flowBudget how many levels of flow nesting the depth limit still allows */
function scalarOrFlow(text: string, flowBudget: number): unknown {
  const c = text.charCodeAt(0);
  if (c === 91 /* [ */ || c === 123 /* { */) {
    const flow = new FlowParser(text, Math.min(MAX_FLOW_DEPTH, flowBudget));
    const value = flow.value();
    flow.skipSpaces();
    if (flow.pos !== text.length) throw new Unsupported();
    return value;
  }
  if (c === 34 || c === 39) {
    const { value, end } = quoted(text, 0);
    if (end !== text.length) throw new Unsupported();
    return value;
  }
  if (UNSAFE_START.test(text) || keyColon(text) >= 0) throw new Unsupported();
  return plain(text);
}

/** A quoted scalar on one line; escapes beyond the common ones are left to js-yaml. */
function quoted(text: string, start: number): { value: string; end: number } {
  const q = text.charCodeAt(start);
  let out = "";
  for (let i = start + 1; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (q === 39 && c === 39) {
      if (text.charCodeAt(i + 1) === 39) {
        out += "'";
        i++;
        continue;
      }
      return { value: out, end: i + 1 };
    }
    if (q === 34 && c === 34) return { value: out, end: i + 1 };
    if (q === 34 && c === 92) {
      const e = text[++i];
      const simple: Record<string, string> = { '"': '"', "\\": "\\", "/": "/", n: "\n", t: "\t" };
      if (!(e in simple)) throw new Unsupported();
      out += simple[e];
      continue;
    }
    out += text[i];
  }
  throw new Unsupported(); // unterminated on this line: a multi-line scalar
}

/** Plain scalars starting like this are indicators or need context: left to js-yaml. */
const UNSAFE_START = /^([?:,[\]{}#&*!|>'"%@`]|-( |$))/;
/** Flow mapping keys are kept to identifiers, which is all VNFDs use. */
const FLOW_KEY = /^[A-Za-z0-9_][A-Za-z0-9_.-]*$/;
const INT = /^[-+]?[0-9]+$/;
const FLOAT = /^([-+]?[0-9]+(\.[0-9]*)?([eE][-+]?[0-9]+)?|\.[0-9]+([eE][-+]?[0-9]+)?)$/;
/** Deeper one-line flow nesting is left to the other parsers, which enforce the depth limit. */
const MAX_FLOW_DEPTH = 20;

/** YAML 1.2 core schema resolution of a plain scalar (as js-yaml's CORE_SCHEMA). */
function plain(s: string): unknown {
  switch (s) {
    case "~": case "null": case "Null": case "NULL": return null;
    case "true": case "True": case "TRUE": return true;
    case "false": case "False": case "FALSE": return false;
  }
  const c = s.charCodeAt(0);
  const numeric = (c >= 48 && c <= 57) || c === 43 || c === 45 || c === 46;
  if (!numeric) return s;
  if (INT.test(s)) {
    // Leading zeros, huge values and other notations are resolved differently by parsers: defer.
    if (/^[-+]?0[0-9]/.test(s) || s.replace(/^[-+]/, "").length > 15) throw new Unsupported();
    return Number(s);
  }
  if (FLOAT.test(s)) return Number(s);
  if (/^[-+]?(0[box]|\.inf|\.nan)|_/i.test(s) && /^[-+.0-9]/.test(s)) throw new Unsupported();
  return s;
}

/** A one-line flow collection: `[ a, b ]`, `{ k: v }`, nested, with plain or quoted scalars. */
class FlowParser {
  pos = 0;
  private depth = 0;

  constructor(
    private readonly s: string,
    private readonly maxDepth: number,
  ) {}

  skipSpaces(): void {
    while (this.s.charCodeAt(this.pos) === 32) this.pos++;
  }

  value(): unknown {
    this.skipSpaces();
    const c = this.s.charCodeAt(this.pos);
    if (c === 91) return this.seq();
    if (c === 123) return this.map();
    if (c === 34 || c === 39) {
      const { value, end } = quoted(this.s, this.pos);
      this.pos = end;
      return value;
    }
    const m = /^[^,[\]{}]*/.exec(this.s.slice(this.pos))![0];
    const text = m.trimEnd();
    if (text === "" || text.includes(": ") || text.endsWith(":") || UNSAFE_START.test(text)) throw new Unsupported();
    this.pos += m.length;
    return plain(text);
  }

  private seq(): unknown[] {
    if (++this.depth > this.maxDepth) throw new Unsupported();
    this.pos++;
    const out: unknown[] = [];
    for (;;) {
      this.skipSpaces();
      if (this.s.charCodeAt(this.pos) === 93) {
        this.pos++;
        this.depth--;
        return out;
      }
      // `[ valid_values: [ a ] ]`: a single-pair mapping inside a flow sequence.
      const pair = /^([^,[\]{}:]+):( |$)/.exec(this.s.slice(this.pos));
      if (pair) {
        if (!FLOW_KEY.test(pair[1].trim())) throw new Unsupported();
        this.pos += pair[0].length;
        out.push({ [pair[1].trim()]: this.value() });
      } else out.push(this.value());
      this.skipSpaces();
      const c = this.s.charCodeAt(this.pos);
      if (c === 44) this.pos++;
      else if (c !== 93) throw new Unsupported();
    }
  }

  private map(): Record<string, unknown> {
    if (++this.depth > this.maxDepth) throw new Unsupported();
    this.pos++;
    const out: Record<string, unknown> = {};
    for (;;) {
      this.skipSpaces();
      if (this.s.charCodeAt(this.pos) === 125) {
        this.pos++;
        this.depth--;
        return out;
      }
      const rest = this.s.slice(this.pos);
      const colon = rest.search(/:( |$)/);
      if (colon <= 0) throw new Unsupported();
      const key = rest.slice(0, colon).trim();
      if (!FLOW_KEY.test(key) || Object.prototype.hasOwnProperty.call(out, key)) throw new Unsupported();
      this.pos += colon + 1;
      out[key] = this.value();
      this.skipSpaces();
      const c = this.s.charCodeAt(this.pos);
      if (c === 44) this.pos++;
      else if (c !== 125) throw new Unsupported();
    }
  }
}
