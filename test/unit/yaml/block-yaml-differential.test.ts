/**
 * Differential fuzz: block-yaml (the hand-written parser on the hot path) against js-yaml
 * (CORE_SCHEMA, what block-yaml's values are defined by) on generated documents of block-yaml's
 * subset, and on the same documents with one construct it refuses spliced in. Scalar typing needs
 * no mapping: both follow the YAML 1.2 core schema, so values must be equal as they are.
 *
 * A seeded PRNG makes every case reproducible: a failure prints its seed and the document.
 * Set NFV_FUZZ_SEED to replay one seed, NFV_FUZZ_CASES to run more.
 */
import { CORE_SCHEMA, load } from "js-yaml";
import { describe, expect, it } from "vitest";
import { parseBlockYaml } from "../../../translators/tosca/phase2-load/block-yaml";
import { parseYamlFast } from "../../../translators/tosca/phase2-load/fast-yaml";

const CASES = Number(process.env.NFV_FUZZ_CASES ?? 2000);
const FIRST_SEED = Number(process.env.NFV_FUZZ_SEED ?? 1);

/** mulberry32: small, fast and good enough to spread cases. */
function prng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

class Gen {
  private readonly next: () => number;
  constructor(seed: number) {
    this.next = prng(seed);
  }
  int(n: number): number {
    return Math.floor(this.next() * n);
  }
  pick<T>(xs: readonly T[]): T {
    return xs[this.int(xs.length)];
  }
}

/** Plain scalars of every core-schema type, and strings that look like them when quoted. */
const PLAIN = [
  "a",
  "vdu1",
  "tosca.nodes.nfv.VDU.Compute",
  "x y",
  "1",
  "-7",
  "0",
  "1.5",
  "-2.5e3",
  ".inf",
  "-.Inf",
  ".nan",
  "true",
  "False",
  "null",
  "~",
  "Null",
  "yes",
  "no",
  "on",
  "1.0.0",
  "a-b_c",
  "http://x/y",
  "a:b",
  "a#b",
  "ünï",
  "@x",
] as const;
/** Keys include plain scalars that js-yaml resolves and stringifies (`Null` is "null", `1.0` is "1"). */
const KEYS = ["a", "b", "name", "vdu1", "properties", "1", "true", "null", "x y", "k-1", "Null", "True", "1.0", "0x1F", "-0", "1e3"] as const;
/** The key js-yaml makes of each: a mapping must not hold two keys that resolve alike. */
const RESOLVED: Record<string, string> = { Null: "null", True: "true", "1.0": "1", "0x1F": "31", "-0": "0", "1e3": "1000" };

function distinctKeys(g: Gen, n: number): string[] {
  const byResolved = new Map<string, string>();
  for (let i = 0; i < n; i++) {
    const k = g.pick(KEYS);
    byResolved.set(RESOLVED[k] ?? k, k);
  }
  return [...byResolved.values()];
}

function scalar(g: Gen): string {
  const s = g.pick(PLAIN);
  switch (g.int(6)) {
    case 0:
      return `'${s.replace(/'/g, "''")}'`;
    case 1:
      return `"${s}"`;
    case 2:
      return g.pick(["'it''s'", '"a\\"b"', '"tab\\tnl\\n"', '""', "''"]);
    default:
      return /^[@]/.test(s) ? `'${s}'` : s;
  }
}

function flow(g: Gen, depth: number): string {
  if (depth > 2 || g.int(3) === 0) return scalar(g).replace(/^(a:b|a#b|x y)$/, "'$1'");
  if (g.int(2) === 0) {
    const items = Array.from({ length: g.int(4) }, () => flow(g, depth + 1));
    return `[${items.join(g.pick([", ", ","]))}]`;
  }
  const keys = distinctKeys(g, g.int(4));
  return `{${keys.map((k) => `${/ /.test(k) ? `'${k}'` : k}: ${flow(g, depth + 1)}`).join(", ")}}`;
}

function comment(g: Gen): string {
  return g.int(6) === 0 ? `  # ${g.pick(["note", "a: b", "- x", "#"])}` : "";
}

/**
 * A block mapping or sequence at `indent`, as lines. Scalars stay on their key's or dash's line,
 * and `- - x` is not written: a scalar on a line of its own and compact nested sequences are
 * outside the subset (they go to js-yaml).
 */
function block(g: Gen, indent: number, depth: number): string[] {
  const pad = " ".repeat(indent);
  const nest = depth < 5;
  if (g.int(2) === 0) {
    const keys = distinctKeys(g, 1 + g.int(4));
    return keys.flatMap((k) => {
      const key = / /.test(k) ? `"${k}"` : k;
      if (!nest || g.int(2) === 0) return [`${pad}${key}: ${leaf(g)}${comment(g)}`];
      // A sequence under a key may start at the key's own indentation, as VNFDs often write it.
      const child = block(g, indent + g.pick([0, 2, 4]), depth + 1);
      if (/^(-( |$)| )/.test(child[0].slice(indent))) return [`${pad}${key}:${comment(g)}`, ...child];
      return [`${pad}${key}:${comment(g)}`, ...block(g, indent + 2, depth + 1)];
    });
  }
  return Array.from({ length: 1 + g.int(3) }, () => {
    // A flow mapping right after a dash (`- {a: 1}`) is outside the subset.
    if (!nest || g.int(2) === 0) return [`${pad}- ${leaf(g).replace(/^\{.*/, "[]")}${comment(g)}`];
    const child = block(g, indent + 2, depth + 1);
    // `- key: value` with the mapping's further keys aligned after the dash, or the node on the next lines.
    const compact = g.int(2) === 0 && !child[0].trimStart().startsWith("-");
    return compact ? [`${pad}- ${child[0].slice(indent + 2)}`, ...child.slice(1)] : [`${pad}-${comment(g)}`, ...child];
  }).flat();
}

function leaf(g: Gen): string {
  return g.int(4) === 0 ? flow(g, 0) : scalar(g);
}

function documentText(g: Gen): string {
  const lines = block(g, 0, 0);
  if (g.int(5) === 0) lines.unshift("# a comment");
  if (g.int(5) === 0) lines.splice(g.int(lines.length + 1), 0, "");
  return lines.join(g.int(8) === 0 ? "\r\n" : "\n") + (g.int(3) === 0 ? "" : "\n");
}

/**
 * Constructs block-yaml refuses (its header): anchors, aliases, tags, block scalars, tabs,
 * directives, explicit keys, multi-line scalars and flows; and scalars it leaves to js-yaml
 * (octal and hexadecimal numbers, long or zero-padded digits, `\\u` escapes).
 */
const REFUSED = [
  "&x ",
  "*x",
  "!!str ",
  "|\n",
  ">-\n",
  "\t",
  "--- ",
  "%YAML 1.2\n",
  "? ",
  "[\n",
  "'a\n b'",
  " 0o17",
  " 0x1F",
  " 0012",
  " 1234567890123456",
  ' "\\u00e9"',
] as const;

function splice(g: Gen, text: string): string {
  const at = g.int(text.length + 1);
  return text.slice(0, at) + g.pick(REFUSED) + text.slice(at);
}

function jsYaml(text: string): { ok: true; value: unknown } | { ok: false; error: string } {
  try {
    return { ok: true, value: load(text, { schema: CORE_SCHEMA }) };
  } catch (e) {
    return { ok: false, error: (e as Error).message };
  }
}

describe("block-yaml against js-yaml (differential fuzz)", () => {
  it(`accepts and agrees on ${CASES} generated documents of its subset, seeds ${FIRST_SEED}…`, () => {
    let accepted = 0;
    for (let seed = FIRST_SEED; seed < FIRST_SEED + CASES; seed++) {
      const text = documentText(new Gen(seed));
      const expected = jsYaml(text);
      const got = parseBlockYaml(text, 100);
      const context = `seed ${seed} (NFV_FUZZ_SEED=${seed} NFV_FUZZ_CASES=1):\n${text}`;
      // The generator writes only valid YAML: a refusal here is a generator bug, not a parser one.
      expect(expected.ok ? "" : expected.error, context).toBe("");
      if (got !== undefined) accepted++;
      if (expected.ok && got !== undefined) expect(got, context).toStrictEqual(expected.value);
    }
    // The parser gives up on more than its header lists (resolved keys such as `1.0:`, a flow
    // mapping after `- `, …): about a quarter of these documents are compared value for value.
    // Below a fifth the fuzz would compare almost nothing.
    expect(accepted / CASES).toBeGreaterThan(0.2);
  });

  it("with a refused construct spliced in, gives up or agrees, and an invalid file gets a located error", () => {
    let invalid = 0;
    // A quarter as many: an invalid file goes through the located parser, ten times slower.
    for (let seed = FIRST_SEED; seed < FIRST_SEED + CASES / 4; seed++) {
      const g = new Gen(seed);
      const text = splice(g, documentText(g));
      const context = `seed ${seed} (spliced):\n${JSON.stringify(text)}`;
      const expected = jsYaml(text);
      const got = parseBlockYaml(text, 100);
      if (!expected.ok) {
        invalid++;
        expect(got, context).toBeUndefined();
        // The file goes on to the located parser: an error there names its line. (It accepts a
        // few files js-yaml refuses, e.g. a plain scalar continued on the next line of a flow
        // mapping; then its value is the file's, as before this test.)
        const fast = parseYamlFast(text, "f.yaml");
        for (const d of fast.diagnostics)
          if (d.severity === "error") expect(`${JSON.stringify(d)} at line ${d.line ?? "none"}`, context).not.toMatch(/line none$/);
        expect(fast.value !== undefined || fast.diagnostics.some((d) => d.severity === "error"), context).toBe(true);
      } else if (got !== undefined) {
        expect(got, context).toStrictEqual(expected.value);
      }
    }
    expect(invalid).toBeGreaterThan(CASES / 80);
  });
});

describe("a file of several documents (found by the fuzz)", () => {
  it("is an error located at the second document, as every YAML error is", () => {
    const fast = parseYamlFast("a: 1\n---\nb: 2\n", "f.yaml");
    expect(fast.diagnostics).toEqual([expect.objectContaining({ code: "YAML_MULTIPLE_DOCUMENTS", file: "f.yaml", line: 3, column: 1 })]);
  });
});
