/** Scalar units, constraints and value types, through the same code the translator uses. */
import { describe, expect, it } from "vitest";
import { compileConstraints } from "../../../translators/tosca/phase3-types/constraints";
import { parseScalar, toGib, toMib } from "../../../translators/tosca/phase3-types/scalar-units";
import { TypeSystem } from "../../../translators/tosca/phase3-types/type-system";
import { checkValue } from "../../../translators/tosca/phase3-types/values";
import { Problems } from "../../../translators/tosca/problems";

describe("scalar units", () => {
  it("normalises every kind to its base unit", () => {
    expect(parseScalar("size", "512 MB")).toBe(512e6);
    expect(parseScalar("size", "2 GiB")).toBe(2 * 1024 ** 3);
    expect(parseScalar("size", "3gb")).toBe(3e9);
    expect(parseScalar("time", "10 ms")).toBeCloseTo(0.01);
    expect(parseScalar("time", "2 h")).toBe(7200);
    expect(parseScalar("frequency", "1.5 GHz")).toBe(1.5e9);
    expect(parseScalar("bitrate", "1 Gbps")).toBe(1e9);
    expect(parseScalar("bitrate", "1 GBps")).toBe(8e9);
  });

  it("refuses unknown units, missing numbers and non-strings", () => {
    expect(parseScalar("size", "1 GG")).toBeUndefined();
    expect(parseScalar("size", "GB")).toBeUndefined();
    expect(parseScalar("size", 512)).toBeUndefined();
    expect(parseScalar("bitrate", "1 gbps")).toBeUndefined(); // bitrate units are case-sensitive
    expect(parseScalar("time", "1 GB")).toBeUndefined();
  });

  it("reads sizes as OpenStack wants them (GB as GiB, like Tacker)", () => {
    expect(toGib("3 GB")).toBe(3);
    expect(toGib("512 MB")).toBe(0.5);
    expect(toMib("4 GB")).toBe(4096);
    expect(toGib("1 Hz")).toBeUndefined();
  });
});

describe("constraints", () => {
  const problems = new Problems();
  const compile = (raw: unknown, scalar?: "size") => compileConstraints(raw, scalar, problems, "f.yaml", []);
  const passes = (raw: unknown, value: unknown, scalar?: "size") => compile([raw], scalar).every((c) => c.test(value));

  it("implements every TOSCA operator", () => {
    expect([passes({ equal: 3 }, 3), passes({ equal: 3 }, 4)]).toEqual([true, false]);
    expect([passes({ greater_than: 0 }, 1), passes({ greater_than: 0 }, 0)]).toEqual([true, false]);
    expect([passes({ greater_or_equal: 0 }, 0), passes({ greater_or_equal: 0 }, -1)]).toEqual([true, false]);
    expect([passes({ less_than: 5 }, 4), passes({ less_than: 5 }, 5)]).toEqual([true, false]);
    expect([passes({ less_or_equal: 5 }, 5), passes({ less_or_equal: 5 }, 6)]).toEqual([true, false]);
    expect([passes({ in_range: [1, 3] }, 2), passes({ in_range: [1, 3] }, 4), passes({ in_range: [1, "UNBOUNDED"] }, 1e9)]).toEqual([true, false, true]);
    expect([passes({ valid_values: ["a", "b"] }, "b"), passes({ valid_values: ["a", "b"] }, "c")]).toEqual([true, false]);
    expect([passes({ valid_values: [1, 2] }, 2), passes({ valid_values: ["1"] }, 1), passes({ valid_values: ["1 GB"] }, "1000 MB", "size")]).toEqual([
      true,
      false,
      true,
    ]);
    expect([passes({ length: 2 }, "ab"), passes({ length: 2 }, [1, 2, 3])]).toEqual([true, false]);
    expect([passes({ min_length: 1 }, { a: 1 }), passes({ min_length: 1 }, {})]).toEqual([true, false]);
    expect([passes({ max_length: 2 }, "ab"), passes({ max_length: 2 }, "abc")]).toEqual([true, false]);
    expect([passes({ pattern: "[a-z]+" }, "abc"), passes({ pattern: "[a-z]+" }, "abc1")]).toEqual([true, false]);
  });

  it("compares scalar units in their base unit", () => {
    expect(passes({ greater_or_equal: "1 GB" }, "1024 MB", "size")).toBe(true);
    expect(passes({ less_than: "1 GB" }, "2 GB", "size")).toBe(false);
  });

  it("reports malformed constraints", () => {
    const p = new Problems();
    compileConstraints([{ bigger: 1 }, { pattern: "(" }, { in_range: [1] }], undefined, p, "f.yaml", ["c"]);
    expect(p.locate(() => undefined).map((d) => d.code)).toEqual(["CONSTRAINT_SYNTAX", "CONSTRAINT_SYNTAX", "CONSTRAINT_SYNTAX"]);
  });
});

describe("value types", () => {
  const types = new TypeSystem([], new Problems());
  const errors = (value: unknown, type: string, entry?: string) => {
    const problems = new Problems();
    const schema = types.schema(entry ? { type, entry_schema: { type: entry } } : { type }, "f.yaml", [])!;
    checkValue(value, schema, { types, problems, file: "f.yaml" }, []);
    return problems.locate(() => undefined).map((d) => d.code);
  };

  it("checks primitives, timestamps, versions, ranges and collections", () => {
    expect(errors(3, "integer")).toEqual([]);
    expect(errors(3.5, "integer")).toEqual(["VALUE_TYPE"]);
    expect(errors("2024-03-01T12:00:00Z", "timestamp")).toEqual([]);
    expect(errors("yesterday", "timestamp")).toEqual(["VALUE_TYPE"]);
    expect(errors("1.2.3", "version")).toEqual([]);
    expect(errors("v1", "version")).toEqual(["VALUE_TYPE"]);
    expect(errors([1, "UNBOUNDED"], "range")).toEqual([]);
    expect(errors([3, 1], "range")).toEqual(["VALUE_TYPE"]);
    expect(errors(["a", 2], "list", "integer")).toEqual(["VALUE_TYPE"]);
    expect(errors({ a: "1 GB" }, "map", "scalar-unit.size")).toEqual([]);
    expect(errors({ a: "1 G" }, "map", "scalar-unit.size")).toEqual(["VALUE_BAD_SCALAR"]);
    expect(errors(true, "boolean")).toEqual([]);
  });

  it("refuses an unknown value type where it is declared", () => {
    const problems = new Problems();
    const local = new TypeSystem([], problems);
    expect(local.schema({ type: "no.such.Type" }, "f.yaml", ["x"])).toBeUndefined();
    expect(problems.locate(() => undefined).map((d) => [d.code, d.path])).toEqual([["TYPE_UNKNOWN", "x.type"]]);
  });
});
