import { describe, expect, it } from "vitest";
import { DEFAULT_COOL_DOWN_SECONDS, readAutoPolicy } from "../../../stacks/auto-settings";
import { DiagnosticBag } from "../../../translators/diagnostics";
import type { YamlPath } from "../../../translators/yaml/located-yaml";

const at = (p: YamlPath) => ({ file: "Pulumi.s.yaml", path: ["vnfs", "rb", ...p].join(".") });

function read(raw: unknown, key: "auto_heal" | "auto_scale") {
  const bag = new DiagnosticBag();
  const policy = readAutoPolicy(raw, key, at, bag);
  return { policy, errors: bag.errors().map((d) => [d.code, d.path, d.message]) };
}

describe("auto_heal and auto_scale in a VNF entry", () => {
  it("{} takes the default cool-down; digit strings (pulumi config set --path) are numbers", () => {
    expect(read({}, "auto_heal")).toEqual({ policy: { coolDownSeconds: DEFAULT_COOL_DOWN_SECONDS }, errors: [] });
    expect(read({ cool_down_seconds: "30", aspects: ["worker_aspect"] }, "auto_scale")).toEqual({
      policy: { coolDownSeconds: 30, aspects: ["worker_aspect"] },
      errors: [],
    });
    expect(read(undefined, "auto_heal")).toEqual({ policy: undefined, errors: [] });
  });

  it("refuses, located: a non-mapping, an unknown key (aspects is for auto_scale only), a bad cool-down, bad aspects", () => {
    expect(read(true, "auto_heal").errors).toEqual([
      ["CONFIG_BAD_TYPE", "vnfs.rb.auto_heal", "auto_heal must be a mapping (cool_down_seconds); {} for the defaults"],
    ]);
    expect(read({ aspects: ["a"] }, "auto_heal").errors).toEqual([
      ["CONFIG_UNKNOWN_KEY", "vnfs.rb.auto_heal.aspects", "unknown key 'auto_heal.aspects' (expected cool_down_seconds)"],
    ]);
    expect(read({ cool_down_seconds: -1 }, "auto_scale").errors.map((e) => e.slice(0, 2))).toEqual([
      ["CONFIG_BAD_VALUE", "vnfs.rb.auto_scale.cool_down_seconds"],
    ]);
    expect(read({ aspects: [] }, "auto_scale").errors.map((e) => e.slice(0, 2))).toEqual([["CONFIG_BAD_TYPE", "vnfs.rb.auto_scale.aspects"]]);
    expect(read({ cool_down_seconds: "soon" }, "auto_heal").policy).toBeUndefined();
  });
});
