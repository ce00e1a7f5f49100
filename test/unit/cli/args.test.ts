/** The commands' argument parsing (node:util parseArgs underneath): values, flags, and each usage error. */
import { describe, expect, it } from "vitest";
import { oneOf, parseArgs, UsageError } from "../../../cli/args";

const parse = (...args: string[]) => parseArgs(args, ["stack", "vnf"], ["preview"]);

describe("parseArgs", () => {
  it("reads `--name value`, `--name=value`, flags and positionals in any order", () => {
    const r = parse("heal", "--stack", "dev", "--vnf=hw", "--preview", "VDU1-0");
    expect(r.positionals).toEqual(["heal", "VDU1-0"]);
    expect([...r.options]).toEqual([
      ["stack", "dev"],
      ["vnf", "hw"],
    ]);
    expect([...r.flags]).toEqual(["preview"]);
  });

  it("collects a repeatable option in order; an empty one is refused", () => {
    expect(parseArgs(["--vnfc", "a", "--stack", "s", "--vnfc=b"], ["stack"], [], ["vnfc"]).lists.get("vnfc")).toEqual(["a", "b"]);
    expect(() => parseArgs(["--vnfc", "a", "--vnfc="], [], [], ["vnfc"])).toThrow(/^--vnfc needs a value$/);
  });

  it("takes everything after `--` as positionals", () => {
    expect(parse("--stack", "dev", "--", "--vnf", "x").positionals).toEqual(["--vnf", "x"]);
  });

  it.each([
    [["--frob"], "unknown option --frob"],
    [["--stack"], "--stack needs a value"],
    [["--stack="], "--stack needs a value"],
    [["--preview=yes"], "--preview takes no value"],
    [["-x"], "unknown option -x"],
  ])("%j: %s", (args, message) => {
    expect(() => parse(...args)).toThrow(UsageError);
    expect(() => parse(...args)).toThrow(new RegExp(`^${message}$`));
  });
});

describe("oneOf", () => {
  it("gives the fallback without a value, the value when allowed, a usage error otherwise", () => {
    expect(oneOf(undefined, ["text", "json"] as const, "text", "format")).toBe("text");
    expect(oneOf("json", ["text", "json"] as const, "text", "format")).toBe("json");
    expect(() => oneOf("xml", ["text", "json"] as const, "text", "format")).toThrow("--format must be one of text, json");
  });
});
