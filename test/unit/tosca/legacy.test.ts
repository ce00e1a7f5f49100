/** The legacy containerized format's own rules (Tacker's removed Kubernetes translator). */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { translateSource } from "../../../translators/tosca/translate";
import { memory, positionOf, SHARED_PACKAGES } from "./helpers";

const SAMPLE = readFileSync(join(SHARED_PACKAGES, "legacy-containerized/tosca-vnfd-containerized.yaml"), "utf8");

function translate(text: string) {
  return translateSource(
    memory(
      new Map([
        ["vnfd.yaml", text],
        ["vnfd.mf", ""],
      ]),
    ),
  );
}

describe("legacy containerized VNFD", () => {
  it("refuses VDU properties the translator did not allow, at the key", () => {
    const text = SAMPLE.replace("        service_type: ClusterIP\n", "        service_type: ClusterIP\n        flavor: m1.tiny\n");
    const d = translate(text).diagnostics;
    expect(d.map((x) => [x.code, x.line])).toEqual([["LEGACY_UNKNOWN_PROPERTY", positionOf(text, "flavor:").line]]);
  });

  it("checks memory sizes, ports and the one-scaling-policy rule", () => {
    let text = SAMPLE.replace("mem_size: 100 MB", "mem_size: 100 MX").replace('- "80"\n            config', '- "http"\n            config');
    text = text.replace(
      "  policies:\n",
      "  policies:\n    - SP0:\n        type: tosca.policies.tacker.Scaling\n        targets: [VDU1]\n        properties:\n          min_instances: 1\n          max_instances: 2\n",
    );
    expect(
      translate(text)
        .diagnostics.map((x) => x.code)
        .sort(),
    ).toEqual(["LEGACY_BAD_PORT", "POLICY_DUPLICATE", "VALUE_BAD_SCALAR"]);
  });
});
