import * as pulumi from "@pulumi/pulumi";
import { describe, expect, it } from "vitest";
import { asRunError } from "../../../stacks/run-error";
import { DiagnosticError } from "../../../translators/diagnostics";

describe("asRunError: how an error leaves the program", () => {
  it("keeps a config error's located message and nothing else", () => {
    const err = new DiagnosticError("invalid configuration for stack 'dev'", [
      {
        severity: "error",
        code: "CONFIG_BAD_VALUE",
        message: "must be one of openstack, kubernetes",
        file: "stacks/Pulumi.dev.yaml",
        line: 7,
        column: 11,
        path: "vims.edge.type",
      },
    ]);
    const run = asRunError(err);
    expect(pulumi.RunError.isInstance(run)).toBe(true);
    expect(run.message).toBe(err.message);
    expect(run.message).toContain("stacks/Pulumi.dev.yaml:7:11");
    expect(run.message).not.toContain("    at ");
  });

  it("gives any other error its stack as plain text", () => {
    const err = new TypeError("cannot read 'x' of undefined");
    const run = asRunError(err);
    expect(pulumi.RunError.isInstance(run)).toBe(true);
    expect(run.message.split("\n")[0]).toBe("TypeError: cannot read 'x' of undefined");
    expect(run.message).toMatch(/\n {4}at .*run-error\.test\.ts/);
  });

  it("passes a RunError through and turns a thrown non-error into its text", () => {
    const run = new pulumi.RunError("already clean");
    expect(asRunError(run)).toBe(run);
    const fromString = asRunError("plain string");
    expect(pulumi.RunError.isInstance(fromString)).toBe(true);
    expect(fromString.message).toBe("plain string");
  });
});
