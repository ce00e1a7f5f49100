/** Reading Tacker instantiate requests (param files), with positions. */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { readInstantiateRequest } from "../../../translators/tacker/instantiate-request";
import { SHARED_PACKAGES } from "./helpers";

describe("readInstantiateRequest", () => {
  it("reads Tacker's sample_param_file.json", () => {
    const file = join(SHARED_PACKAGES, "sample_param_file.json");
    const result = readInstantiateRequest(readFileSync(file, "utf8"), file);
    expect(result.diagnostics).toEqual([]);
    expect(result.request).toMatchObject({ flavourId: "simple", vimConnectionInfo: [{ vimType: "ETSINFV.OPENSTACK_KEYSTONE.V_2" }] });
  });

  it("accepts `#` comments from Tacker's guides with a warning at each", () => {
    const text =
      '{\n"flavourId": "simple",\n"extVirtualLinks": [{\n"id": "net0",\n"resourceId": "f0c8", #Set the uuid of the network to use\n"extCps": [{"cpdId": "CP1", "cpConfig": [{"cpProtocolData": [{"layerProtocol": "IP_OVER_ETHERNET"}]}]}]\n}]\n}\n';
    const result = readInstantiateRequest(text, "param.json");
    expect(result.request?.extVirtualLinks?.[0].resourceId).toBe("f0c8");
    expect(result.diagnostics.map((d) => [d.severity, d.code, d.line, d.column])).toEqual([["warning", "REQUEST_JSON_COMMENT", 5, 23]]);
  });

  it("does not mistake `#` inside a string for a comment", () => {
    expect(readInstantiateRequest('{"flavourId": "a#b"}', "p.json").diagnostics).toEqual([]);
  });

  it("locates missing fields, wrong types and bad values", () => {
    const text =
      '{\n  "instantiationLevelId": 3,\n  "extVirtualLinks": [\n    {"id": "n", "extCps": [{"cpdId": "CP1", "cpConfig": [{"cpProtocolData": [{"layerProtocol": "ETHERNET"}]}]}]}\n  ]\n}\n';
    const result = readInstantiateRequest(text, "p.json");
    expect(result.request).toBeUndefined();
    expect(result.diagnostics.map((d) => [d.code, d.line, d.path])).toEqual([
      ["REQUEST_MISSING_FIELD", 1, ""],
      ["REQUEST_TYPE", 2, "instantiationLevelId"],
      ["REQUEST_MISSING_FIELD", 4, "extVirtualLinks[0]"],
      ["REQUEST_BAD_VALUE", 4, "extVirtualLinks[0].extCps[0].cpConfig[0].cpProtocolData[0].layerProtocol"],
    ]);
  });

  it("reports JSON syntax errors with their line", () => {
    const result = readInstantiateRequest('{\n  "flavourId": "simple",,\n}', "p.json");
    expect(result.diagnostics[0]).toMatchObject({ severity: "error", file: "p.json", line: 2 });
  });
});
