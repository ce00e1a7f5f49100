/**
 * The fast block-YAML parser either gives up or agrees with js-yaml (CORE_SCHEMA): on every YAML
 * file of the sample packages and fixtures, and on random edits of them.
 */
import fc from "fast-check";
import { load, CORE_SCHEMA } from "js-yaml";
import { readdirSync, readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { parseBlockYaml } from "../../../translators/tosca/phase2-load/block-yaml";
import { FIXTURES, SHARED_PACKAGES } from "./helpers";

function yamlFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const full = join(dir, name);
    return statSync(full).isDirectory() ? yamlFiles(full) : /\.ya?ml$/.test(name) ? [full] : [];
  });
}

const FILES = [...yamlFiles(SHARED_PACKAGES), ...yamlFiles(FIXTURES)];

function jsYaml(text: string): { ok: true; value: unknown } | { ok: false } {
  try {
    return { ok: true, value: load(text, { schema: CORE_SCHEMA }) };
  } catch {
    return { ok: false };
  }
}

describe("block-yaml", () => {
  it("parses the VNFDs themselves, not only trivial files", () => {
    const parsed = FILES.filter((f) => f.includes("Definitions") && parseBlockYaml(readFileSync(f, "utf8"), 100) !== undefined);
    expect(parsed.length).toBeGreaterThan(15);
  });

  it("agrees with js-yaml on every sample file it accepts", () => {
    for (const file of FILES) {
      const text = readFileSync(file, "utf8");
      const ours = parseBlockYaml(text, 100);
      if (ours === undefined) continue;
      expect([file, ours]).toEqual([file, (jsYaml(text) as { value: unknown }).value]);
    }
  });

  it("gives up on what it does not support", () => {
    for (const text of [
      "a: &x 1\nb: *x\n",
      "a: |\n  text\n",
      "a: 1\na: 2\n",
      "a: [1\n  , 2]\n",
      "a: [x\n  y]\n",
      "a:\n  plain\n  continued\n",
      "%YAML 1.2\n---\na: 1\n",
      "a: !tag x\n",
      "a: 0x1F\n",
      "a: 012\n",
      "a: 1_000\n",
      "a: - b\n",
      "a: b\u0000\n",
      "a: b\rc: d\n",
      "\ufeffa: b\n",
    ]) {
      expect([text, parseBlockYaml(text, 100)]).toEqual([text, undefined]);
    }
  });

  it("leaves to js-yaml the keys it would resolve to another string (found by the differential fuzz)", () => {
    // js-yaml makes these "506", "null", "1", "1000" and "31"; block-yaml kept `0x1Fa` as written.
    for (const text of ["vdu1:\n  0x1Fa: 1\n", "Null: 1\n", "1.0: x\n", "a: {1e3: x}\n", "a: [0x1F: x]\n"]) {
      expect([text, parseBlockYaml(text, 100)]).toEqual([text, undefined]);
    }
    const kept = "1: a\ntrue: b\nnull: c\n1.5: d\n-7: e\n";
    expect(parseBlockYaml(kept, 100)).toEqual(load(kept, { schema: CORE_SCHEMA }));
  });

  it("resolves scalars as the core schema does", () => {
    const text =
      "a: 1\nb: -2.5e3\nc: .5\nd: -.5\ne: true\nf: Null\ng: ~\nh: '1.0'\ni: \"x\\ty\"\nj: 0.5.2\nk: it's\nl: [ 1, two, 'three' ]\nm: { get_input: x }\nn: [ valid_values: [ a, b ] ]\nt: ../x_86.img\nu: 'it''s'\nv: b\u00a0\no:\n- 1\n- p: q\n  r: s\n";
    expect(parseBlockYaml(text, 100)).toEqual(load(text, { schema: CORE_SCHEMA }));
  });

  it("reads flow collections that go on after `[`, `{` or `,`, as ETSI's type files have them", () => {
    const text = "a: [ x, # comment\n  y,\n\ny2 ]\nb: {\n  c: 1,\n      d: [ e,\n f ] }\nc:\n  - [ g,\n    h ]\n";
    expect(parseBlockYaml(text, 100)).toEqual(load(text, { schema: CORE_SCHEMA }));
  });

  it("either gives up or agrees with js-yaml on edited files", () => {
    const texts = FILES.filter((f) => f.includes("vnfd") || f.includes("_df_")).map((f) => readFileSync(f, "utf8"));
    fc.assert(
      fc.property(
        fc.nat(),
        fc.nat(),
        fc.constantFrom(":", " ", "-", "- ", "'", '"', "[", "]", "{", "}", ",", "#", "\n", "  ", "\t", "0", "1.5", "x: y", "&a", "*a", "!", "|", ">", "?"),
        (which, at, insert) => {
          const text = texts[which % texts.length];
          const i = at % (text.length + 1);
          const edited = text.slice(0, i) + insert + text.slice(i);
          const ours = parseBlockYaml(edited, 100);
          if (ours === undefined) return;
          const theirs = jsYaml(edited);
          expect(theirs.ok).toBe(true);
          expect(ours).toEqual((theirs as { value: unknown }).value);
        },
      ),
      { numRuns: 2000, seed: 7 },
    );
  });
});
