/**
 * A parser for the plain block-style YAML that VNFDs are written in: block mappings and
 * sequences, flow collections, plain and simply quoted scalars, comments. Values follow the YAML
 * 1.2 core schema, as js-yaml's CORE_SCHEMA does.
 *
 * It exists for speed only (about twice as fast as js-yaml on large VNFDs). Anything outside that
 * subset (anchors, aliases, tags, block scalars, multi-line scalars, line breaks in a flow
 * collection other than after `[`, `{` or `,`, duplicate keys, tabs, directives) makes it give up
 * and return `undefined`, and the caller parses the file with js-yaml instead. A test checks that
 * both agree on every sample package.
 *
 * On a large VNFD much of the time goes to garbage collection, which copies everything that is
 * still alive, above all the document being built. So lines are read one at a time as offsets
 * into the text (no list of lines, no copy of each line), a key read recently is compared in place
 * and its string reused, and sequences are collected on a scratch stack and copied out at their
 * exact length.
 */

class Unsupported extends Error {}

/**
 * `out[key] = value`, except that a `__proto__` key becomes an own property, as js-yaml and the
 * located parser make it: an assignment would set the map's prototype instead (and lose the key).
 */
function setKey(out: Record<string, unknown>, key: string, value: unknown): void {
  if (key === "__proto__") Object.defineProperty(out, key, { value, enumerable: true, writable: true, configurable: true });
  else out[key] = value;
}

/** The document's value, or undefined when the text is outside the supported subset. */
export function parseBlockYaml(text: string, maxDepth: number): unknown {
  if (UNSUPPORTED_CHARACTERS.test(text)) return undefined;
  try {
    const parser = new BlockParser(text, maxDepth);
    if (!parser.peek()) return undefined;
    const value = parser.block(parser.indent, 0);
    if (parser.peek()) throw new Unsupported();
    return value;
  } catch (e) {
    if (e instanceof Unsupported || e instanceof RangeError) return undefined;
    throw e;
  }
}

/**
 * What js-yaml refuses as non-printable (the same pattern), a carriage return that is not part of
 * a line end (a line break to YAML), and a byte order mark (which js-yaml strips).
 */
const UNSUPPORTED_CHARACTERS =
  // eslint-disable-next-line no-control-regex -- control characters are what it looks for
  /[\x00-\x08\x0B\x0C\x0E-\x1F\x7F-\x84\x86-\x9F\uFFFE\uFFFF]|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?:[^\uD800-\uDBFF]|^)[\uDC00-\uDFFF]|\r(?!\n)|^\uFEFF/;

/**
 * Elements of the sequences being read, innermost last: a sequence is copied out when it ends, at
 * its exact length (an array grown by `push` keeps room for 16 more, which the document would
 * carry to the end).
 */
class Scratch {
  private readonly items: unknown[] = [];
  top = 0;

  push(value: unknown): void {
    this.items[this.top++] = value;
  }

  /** The elements pushed since `base`, removed from the stack. */
  take(base: number): unknown[] {
    const out = this.items.slice(base, this.top);
    this.top = base;
    return out;
  }
}

class BlockParser {
  /** Indentation of the current line; -1 when it is consumed and the next is not read yet. */
  indent = -1;
  /** The current line's content, `text[start, end)`: after the indentation, without comment and trailing spaces. */
  private start = 0;
  private end = 0;
  /** Offset of the first line not read yet. */
  private next = 0;
  /**
   * The first `#` and the first tab at or after the current line's start (or the text's length):
   * one search serves many lines, as most lines have neither.
   */
  private nextHash = -1;
  private nextTab = -1;
  /** The key read by the last `keyEnd` that found one. */
  private key = "";
  /** Keys read recently, by length and first and last character (see `keyAt`). */
  private readonly recentKeys: (string | undefined)[] = new Array<string | undefined>(RECENT_KEYS);
  private readonly scratch = new Scratch();

  constructor(
    private readonly text: string,
    private readonly maxDepth: number,
  ) {}

  /** Reads the next line with content, unless the current one is still unconsumed; false at the end. */
  peek(): boolean {
    if (this.indent >= 0) return true;
    const text = this.text;
    while (this.next < text.length) {
      const lineStart = this.next;
      let lineEnd = text.indexOf("\n", lineStart);
      if (lineEnd < 0) lineEnd = text.length;
      this.next = lineEnd + 1;
      let start = lineStart;
      while (text.charCodeAt(start) === 32) start++;
      const first = text.charCodeAt(start);
      const stop = Math.max(lineEnd > lineStart && text.charCodeAt(lineEnd - 1) === 13 ? lineEnd - 1 : lineEnd, start);
      const end = trimEnd(text, start, this.commentStart(start, stop));
      if (end === start) {
        if (first === 9) throw new Unsupported(); // a tab where indentation ends
        continue;
      }
      // Tabs are separation whitespace in some places and content in others: leave them to js-yaml.
      if (this.tabBefore(start, end) || text.startsWith("---", start) || text.startsWith("...", start) || first === 37 /* % */) throw new Unsupported();
      this.indent = start - lineStart;
      this.start = start;
      this.end = end;
      return true;
    }
    return false;
  }

  /** Where a `#` comment outside quotes starts in `text[from, to)`, else `to`. */
  private commentStart(from: number, to: number): number {
    if (this.nextHash < from) this.nextHash = indexOrLength(this.text, "#", from);
    if (this.nextHash >= to) return to;
    const text = this.text;
    let quote = 0;
    for (let i = from; i < to; i++) {
      const c = text.charCodeAt(i);
      if (quote) {
        if (c === quote) {
          if (quote === 39 && text.charCodeAt(i + 1) === 39 && i + 1 < to)
            i++; // '' inside single quotes
          else quote = 0;
        } else if (c === 92 && quote === 34) i++; // backslash escape inside double quotes
      } else if (c === 35 /* # */ && (i === from || text.charCodeAt(i - 1) === 32 || text.charCodeAt(i - 1) === 9)) {
        return i;
      } else if ((c === 39 || c === 34) && (i === from || QUOTE_OPENERS.includes(text[i - 1]))) {
        quote = c;
      }
    }
    return to;
  }

  private tabBefore(from: number, to: number): boolean {
    if (this.nextTab < from) this.nextTab = indexOrLength(this.text, "\t", from);
    return this.nextTab < to;
  }

  private consume(): void {
    this.indent = -1;
  }

  /** The current line's content from `from` on. */
  private lineFrom(from: number): string {
    return this.text.slice(from, this.end);
  }

  /** A block collection whose entries start at exactly `indent` (the current line's). */
  block(indent: number, depth: number): unknown {
    if (depth >= this.maxDepth) throw new Unsupported();
    return isSeqEntry(this.text, this.start, this.end) ? this.sequence(indent, depth) : this.mapping(indent, depth);
  }

  private sequence(indent: number, depth: number): unknown[] {
    const base = this.scratch.top;
    while (this.peek()) {
      if (this.indent < indent) break;
      const { text, start, end } = this;
      if (this.indent > indent || !isSeqEntry(text, start, end)) throw new Unsupported();
      const rest = skipSpaces(text, start + 1, end);
      if (rest === end) {
        this.consume();
        this.scratch.push(this.nested(indent, depth, false));
      } else if (isSeqEntry(text, rest, end)) {
        throw new Unsupported(); // `- - x`
      } else if (this.keyEnd(rest) >= 0) {
        // `- key: value` opens a mapping whose keys are aligned with `key`: the rest of the line
        // becomes its first line.
        this.indent = indent + (rest - start);
        this.start = rest;
        this.scratch.push(this.mapping(this.indent, depth + 1));
      } else {
        this.consume();
        this.scratch.push(this.scalarOrFlow(rest, this.maxDepth - depth - 1));
        this.noContinuation(indent);
      }
    }
    return this.scratch.take(base);
  }

  private mapping(indent: number, depth: number): Record<string, unknown> {
    const out: Record<string, unknown> = {};
    while (this.peek()) {
      if (this.indent < indent) break;
      if (this.indent > indent) throw new Unsupported();
      const { text, start, end } = this;
      if (isSeqEntry(text, start, end)) break; // a sequence at the parent's key indentation ends this map
      const keyEnd = this.keyEnd(start);
      if (keyEnd < 0) throw new Unsupported();
      const name = this.key;
      if (name === "<<" || Object.prototype.hasOwnProperty.call(out, name)) throw new Unsupported();
      this.consume();
      const rest = skipSpaces(text, keyEnd, end);
      if (rest === end) setKey(out, name, this.nested(indent, depth, true));
      else {
        setKey(out, name, this.scalarOrFlow(rest, this.maxDepth - depth - 1));
        this.noContinuation(indent);
      }
    }
    return out;
  }

  /**
   * If the current line's content from `from` is `name: …`, sets `key` and returns where its `:`
   * ends; else -1.
   */
  private keyEnd(from: number): number {
    const { text, end } = this;
    const c = text.charCodeAt(from);
    if (c === 34 || c === 39) {
      const { value, end: close } = quoted(text, from, end);
      if (close === end || text.charCodeAt(close) !== 58 || (close + 1 < end && text.charCodeAt(close + 1) !== 32)) return -1;
      this.key = value;
      return close + 1;
    }
    const colon = keyColon(text, from, end);
    if (colon <= from) return -1;
    const nameEnd = trimEnd(text, from, colon);
    if (unsafeStart(text, from, nameEnd) || (this.nextHash < nameEnd && hasSpaceHash(text, from, nameEnd))) throw new Unsupported();
    this.key = plainKey(this.keyAt(from, nameEnd));
    return colon + 1;
  }

  /** The key `text[from, to)`: a recent key with the same text, else a new string. */
  private keyAt(from: number, to: number): string {
    const text = this.text;
    const length = to - from;
    const slot = (length * 961 + text.charCodeAt(from) * 31 + text.charCodeAt(to - 1)) & (RECENT_KEYS - 1);
    const recent = this.recentKeys[slot];
    if (recent !== undefined && recent.length === length && text.startsWith(recent, from)) return recent;
    const key = text.slice(from, to);
    this.recentKeys[slot] = key;
    return key;
  }

  /** The value of `key:` or `-` with nothing after it: a deeper block, a same-level sequence, or null. */
  private nested(indent: number, depth: number, sameLevelSequence: boolean): unknown {
    if (!this.peek()) return null;
    if (this.indent > indent) return this.block(this.indent, depth + 1);
    if (sameLevelSequence && this.indent === indent && isSeqEntry(this.text, this.start, this.end)) return this.sequence(indent, depth + 1);
    return null;
  }

  /** A deeper line after a scalar would continue it (a multi-line scalar): not supported. */
  private noContinuation(indent: number): void {
    if (this.peek() && this.indent > indent) throw new Unsupported();
  }

  /**
   * @param from where the value after `key:` or `-` starts on the line just consumed
   * @param flowBudget how many levels of flow nesting the depth limit still allows
   */
  private scalarOrFlow(from: number, flowBudget: number): unknown {
    const { text, end } = this;
    const c = text.charCodeAt(from);
    if (c === 91 /* [ */ || c === 123 /* { */) {
      const flow = new FlowParser(this.lineFrom(from), Math.min(MAX_FLOW_DEPTH, flowBudget), this.scratch, () => this.continuation());
      const value = flow.value();
      flow.skipSpaces();
      if (!flow.atEnd()) throw new Unsupported();
      return value;
    }
    if (c === 34 || c === 39) {
      const { value, end: close } = quoted(text, from, end);
      if (close !== end) throw new Unsupported();
      return value;
    }
    if (unsafeStart(text, from, end) || keyColon(text, from, end) >= 0) throw new Unsupported();
    return plain(this.lineFrom(from));
  }

  /**
   * The next line of a flow collection that goes on after `[`, `{` or `,` at the end of a line
   * (ETSI's type files wrap long `valid_values` lists so). As in js-yaml, its indentation does
   * not matter.
   */
  private continuation(): string | undefined {
    if (!this.peek()) return undefined;
    this.consume();
    return this.lineFrom(this.start);
  }
}

/** Slots of `BlockParser.recentKeys`, a power of two: a VNFD uses a few hundred distinct keys. */
const RECENT_KEYS = 1024;

/** Characters after which a quote opens a quoted scalar, for finding comments. */
const QUOTE_OPENERS = " [{,:-";

function indexOrLength(text: string, search: string, from: number): number {
  const at = text.indexOf(search, from);
  return at < 0 ? text.length : at;
}

/** Whether `text[from, to)` contains ` #`. */
function hasSpaceHash(text: string, from: number, to: number): boolean {
  for (let i = from + 1; i < to; i++) if (text.charCodeAt(i) === 35 && text.charCodeAt(i - 1) === 32) return true;
  return false;
}

/**
 * End of `text[from, to)` without trailing spaces and tabs: YAML's white space. Other Unicode
 * spaces are content to YAML (and js-yaml), unlike to `String.prototype.trimEnd`.
 */
function trimEnd(text: string, from: number, to: number): number {
  while (to > from && (text.charCodeAt(to - 1) === 32 || text.charCodeAt(to - 1) === 9)) to--;
  return to;
}

/** `text` without leading and trailing spaces and tabs. */
function trimmed(text: string): string {
  let from = 0;
  while (text.charCodeAt(from) === 32 || text.charCodeAt(from) === 9) from++;
  return text.slice(from, trimEnd(text, from, text.length));
}

function skipSpaces(text: string, from: number, to: number): number {
  while (from < to && text.charCodeAt(from) === 32) from++;
  return from;
}

function isSeqEntry(text: string, from: number, to: number): boolean {
  return text.charCodeAt(from) === 45 /* - */ && (to - from === 1 || text.charCodeAt(from + 1) === 32);
}

/** Index of the first `:` in `text[from, to)` followed by a space or the end, or -1. */
function keyColon(text: string, from: number, to: number): number {
  for (let i = from; i < to; i++) {
    if (text.charCodeAt(i) === 58 && (i + 1 === to || text.charCodeAt(i + 1) === 32)) return i;
  }
  return -1;
}

/** A quoted scalar starting at `text[from]` and closed before `to`; escapes beyond the common ones are left to js-yaml. */
function quoted(text: string, from: number, to: number): { value: string; end: number } {
  const q = text.charCodeAt(from);
  let out = "";
  let chunk = from + 1;
  for (let i = from + 1; i < to; i++) {
    const c = text.charCodeAt(i);
    if (q === 39 && c === 39) {
      out += text.slice(chunk, i);
      if (i + 1 < to && text.charCodeAt(i + 1) === 39) {
        chunk = ++i; // '' is one quote: the second starts the next chunk
        continue;
      }
      return { value: out, end: i + 1 };
    }
    if (q === 34 && c === 34) return { value: out + text.slice(chunk, i), end: i + 1 };
    if (q === 34 && c === 92) {
      const escaped = i + 1 < to ? ESCAPES[text[i + 1]] : undefined;
      if (escaped === undefined) throw new Unsupported();
      out += text.slice(chunk, i) + escaped;
      chunk = ++i + 1;
    }
  }
  throw new Unsupported(); // unterminated on this line: a multi-line scalar
}

const ESCAPES: Record<string, string | undefined> = { '"': '"', "\\": "\\", "/": "/", n: "\n", t: "\t" };

/** Plain scalars starting like this are indicators or need context: left to js-yaml. */
const UNSAFE_START = /^([?:,[\]{}#&*!|>'"%@`]|-( |$))/;
const UNSAFE_FIRST = "?:,[]{}#&*!|>'\"%@`";

/** `UNSAFE_START` for `text[from, to)`. */
function unsafeStart(text: string, from: number, to: number): boolean {
  if (from === to) return false;
  const c = text[from];
  if (c === "-") return from + 1 === to || text.charCodeAt(from + 1) === 32;
  return UNSAFE_FIRST.includes(c);
}

/** What ends a plain scalar in a flow collection, and what ends the key of a pair in a flow sequence. */
const FLOW_INDICATORS = ",[]{}";
const PAIR_STOPS = ",[]{}:";
/** Flow mapping keys are kept to identifiers, which is all VNFDs use. */
const FLOW_KEY = /^[A-Za-z0-9_][A-Za-z0-9_.-]*$/;
// Module constants, not literals in `plain`: a regular expression literal is a new object each
// time it is evaluated, and `plain` runs for every scalar.
const INT = /^[-+]?[0-9]+$/;
const LEADING_ZERO = /^[-+]?0[0-9]/;
const FLOAT = /^([-+]?[0-9]+(\.[0-9]*)?([eE][-+]?[0-9]+)?|\.[0-9]+([eE][-+]?[0-9]+)?)$/;
const OTHER_NUMBER = /^[-+]?(0[box]|\.inf|\.nan)|_/i;
const NUMBER_START = /^[-+.0-9]/;
/** Characters of every number notation js-yaml knows; anything else makes a plain scalar a string. */
const NUMBER_CHARS = /^[0-9A-Za-z_.+-]*$/;
/** Deeper one-line flow nesting is left to the other parsers, which enforce the depth limit. */
const MAX_FLOW_DEPTH = 20;

/**
 * A plain key as its text, when that is what js-yaml makes of it: js-yaml resolves a key as any
 * plain scalar and uses the value's string (`Null:` is "null", `0x1F:` "31", `1.0:` "1"). Keys
 * whose text is not that string are left to js-yaml (a differential fuzz found `0x1Fa:` kept as
 * written).
 */
function plainKey(key: string): string {
  const value = plain(key);
  if (typeof value !== "string" && String(value) !== key) throw new Unsupported();
  return key;
}

/** YAML 1.2 core schema resolution of a plain scalar (as js-yaml's CORE_SCHEMA). */
function plain(s: string): unknown {
  switch (s) {
    case "~":
    case "null":
    case "Null":
    case "NULL":
      return null;
    case "true":
    case "True":
    case "TRUE":
      return true;
    case "false":
    case "False":
    case "FALSE":
      return false;
  }
  const c = s.charCodeAt(0);
  const numeric = (c >= 48 && c <= 57) || c === 43 || c === 45 || c === 46;
  if (!numeric) return s;
  if (INT.test(s)) {
    // Leading zeros, huge values and other notations are resolved differently by parsers: defer.
    if (LEADING_ZERO.test(s) || (c === 43 || c === 45 ? s.length - 1 : s.length) > 15) throw new Unsupported();
    return Number(s);
  }
  if (FLOAT.test(s)) return Number(s);
  if (OTHER_NUMBER.test(s) && NUMBER_START.test(s) && NUMBER_CHARS.test(s)) throw new Unsupported();
  return s;
}

/**
 * A flow collection: `[ a, b ]`, `{ k: v }`, nested, with plain or quoted scalars. It may go on
 * over further lines only after `[`, `{` or `,`, where a line break cannot be part of a scalar.
 */
class FlowParser {
  private pos = 0;
  private depth = 0;

  /** @param more the next line of the collection, or undefined at the end of the text */
  constructor(
    private s: string,
    private readonly maxDepth: number,
    private readonly scratch: Scratch,
    private readonly more: () => string | undefined,
  ) {}

  skipSpaces(): void {
    while (this.s.charCodeAt(this.pos) === 32) this.pos++;
  }

  atEnd(): boolean {
    return this.pos === this.s.length;
  }

  /** Skips spaces, and line ends where the collection continues on the next line. */
  private skipToToken(): void {
    this.skipSpaces();
    while (this.atEnd()) {
      const line = this.more();
      if (line === undefined) throw new Unsupported();
      this.s = line;
      this.pos = 0;
      this.skipSpaces();
    }
  }

  value(): unknown {
    this.skipSpaces();
    const c = this.s.charCodeAt(this.pos);
    if (c === 91) return this.seq();
    if (c === 123) return this.map();
    if (c === 34 || c === 39) {
      const { value, end } = quoted(this.s, this.pos, this.s.length);
      this.pos = end;
      return value;
    }
    const end = this.scan(FLOW_INDICATORS);
    const text = this.s.slice(this.pos, trimEnd(this.s, this.pos, end));
    if (text === "" || text.includes(": ") || text.endsWith(":") || UNSAFE_START.test(text)) throw new Unsupported();
    this.pos = end;
    return plain(text);
  }

  /** Where the first of `stops` is at or after `pos`, or the end of the line. */
  private scan(stops: string): number {
    let i = this.pos;
    while (i < this.s.length && !stops.includes(this.s[i])) i++;
    return i;
  }

  private seq(): unknown[] {
    if (++this.depth > this.maxDepth) throw new Unsupported();
    this.pos++;
    const base = this.scratch.top;
    for (;;) {
      this.skipToToken();
      if (this.s.charCodeAt(this.pos) === 93) {
        this.pos++;
        this.depth--;
        return this.scratch.take(base);
      }
      // `[ valid_values: [ a ] ]`: a single-pair mapping inside a flow sequence.
      const colon = this.scan(PAIR_STOPS);
      if (colon > this.pos && this.s.charCodeAt(colon) === 58 && (colon + 1 === this.s.length || this.s.charCodeAt(colon + 1) === 32)) {
        const key = trimmed(this.s.slice(this.pos, colon));
        if (!FLOW_KEY.test(key)) throw new Unsupported();
        plainKey(key);
        this.pos = colon + 1;
        this.scratch.push({ [key]: this.value() });
      } else this.scratch.push(this.value());
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
      this.skipToToken();
      if (this.s.charCodeAt(this.pos) === 125) {
        this.pos++;
        this.depth--;
        return out;
      }
      const colon = keyColon(this.s, this.pos, this.s.length);
      if (colon <= this.pos) throw new Unsupported();
      const key = trimmed(this.s.slice(this.pos, colon));
      if (!FLOW_KEY.test(key) || Object.prototype.hasOwnProperty.call(out, key)) throw new Unsupported();
      plainKey(key);
      this.pos = colon + 1;
      setKey(out, key, this.value());
      this.skipSpaces();
      const c = this.s.charCodeAt(this.pos);
      if (c === 44) this.pos++;
      else if (c !== 125) throw new Unsupported();
    }
  }
}
