/**
 * Mutated packages never make the translator throw or hang, and a package that yields no model
 * always says why (at least one error). Bounded: a fixed number of runs, each timed.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { translateSource } from "../../../translators/tosca/translate";
import { baseFiles, memory } from "./helpers";

const base = baseFiles();
const VNFD = "Definitions/vnfd.yaml";
const META = "TOSCA-Metadata/TOSCA.meta";

/** Line-level and character-level edits of the kind a hand-edited YAML file suffers. */
const mutation = fc.oneof(
  fc.record({ kind: fc.constant("delete-line" as const), at: fc.nat() }),
  fc.record({ kind: fc.constant("duplicate-line" as const), at: fc.nat() }),
  fc.record({ kind: fc.constant("swap-lines" as const), at: fc.nat(), other: fc.nat() }),
  fc.record({
    kind: fc.constant("insert" as const),
    at: fc.nat(),
    text: fc.constantFrom(":", "- ", "[", "{", "&a ", "*a", "'", '"', "\t", "  ", "\n", "null", "-1", "999999999999", "1 XB", "get_input: x"),
  }),
  fc.record({ kind: fc.constant("replace-word" as const), at: fc.nat(), text: fc.string({ maxLength: 8 }) }),
  fc.record({ kind: fc.constant("truncate" as const), at: fc.nat() }),
);
type Mutation = typeof mutation extends fc.Arbitrary<infer T> ? T : never;

function apply(text: string, m: Mutation): string {
  const lines = text.split("\n");
  const i = m.at % lines.length;
  switch (m.kind) {
    case "delete-line":
      lines.splice(i, 1);
      return lines.join("\n");
    case "duplicate-line":
      lines.splice(i, 0, lines[i]);
      return lines.join("\n");
    case "swap-lines": {
      const j = m.other % lines.length;
      [lines[i], lines[j]] = [lines[j], lines[i]];
      return lines.join("\n");
    }
    case "insert": {
      const at = m.at % (text.length + 1);
      return text.slice(0, at) + m.text + text.slice(at);
    }
    case "replace-word": {
      const words = [...text.matchAll(/[A-Za-z_][A-Za-z0-9_.]*/g)];
      const w = words[m.at % words.length];
      return text.slice(0, w.index) + m.text + text.slice(w.index + w[0].length);
    }
    case "truncate":
      return text.slice(0, m.at % (text.length + 1));
  }
}

describe("translator under mutation", () => {
  it("never throws or hangs, and explains every missing model", () => {
    fc.assert(
      fc.property(fc.constantFrom(VNFD, VNFD, VNFD, META), fc.array(mutation, { minLength: 1, maxLength: 3 }), (file, mutations) => {
        const files = new Map(base);
        files.set(file, mutations.reduce(apply, files.get(file)!));
        const started = Date.now();
        const result = translateSource(memory(files));
        expect(Date.now() - started).toBeLessThan(5000);
        expect(Array.isArray(result.diagnostics)).toBe(true);
        for (const d of result.diagnostics) {
          expect(d.code).toMatch(/^[A-Z0-9_]+$/);
          expect(d.message.length).toBeGreaterThan(0);
          expect(d.file).toBeDefined();
        }
        if (!result.model) expect(result.diagnostics.some((d) => d.severity === "error")).toBe(true);
      }),
      { numRuns: 80, seed: 20261130, interruptAfterTimeLimit: 20_000 },
    );
  }, 60_000);
});
