/** Tacker's ChangeExtVnfConnectivityRequest: reading it with positions, and applying it to the instantiate request. */
import { describe, expect, it } from "vitest";
import { applyExtConnChange, readChangeExtConnRequest, type ExtVirtualLink, type InstantiateVnfRequest } from "../../../translators/tacker/instantiate-request";

const link = (id: string, resourceId: string, ...cps: string[]): ExtVirtualLink => ({
  id,
  resourceId,
  extCps: cps.map((cpdId) => ({ cpdId, cpConfig: [{}] })),
});

describe("readChangeExtConnRequest", () => {
  it("reads a request with links, VIM connection info and additional params", () => {
    const text = JSON.stringify({
      extVirtualLinks: [link("ext1", "net-b", "CP1")],
      vimConnectionInfo: [{ id: "v", vimType: "openstack" }],
      additionalParams: { a: 1 },
    });
    const r = readChangeExtConnRequest(text, "change.json");
    expect(r.diagnostics).toEqual([]);
    expect(r.request?.extVirtualLinks.map((l) => l.id)).toEqual(["ext1"]);
  });

  it("locates a missing or empty extVirtualLinks, a link without resourceId and an unknown field", () => {
    expect(readChangeExtConnRequest("{}", "c.json").diagnostics.map((d) => [d.code, d.file])).toEqual([["REQUEST_MISSING_FIELD", "c.json"]]);
    expect(readChangeExtConnRequest('{"extVirtualLinks": []}', "c.json").diagnostics.map((d) => d.code)).toEqual(["REQUEST_BAD_VALUE"]);
    const r = readChangeExtConnRequest('{\n  "extVirtualLinks": [{"id": "x", "extCps": []}],\n  "flavourId": "simple"\n}', "c.json");
    expect(r.request).toBeUndefined();
    expect(r.diagnostics.map((d) => [d.severity, d.code, d.line])).toEqual([
      ["warning", "REQUEST_UNKNOWN_FIELD", 3],
      ["error", "REQUEST_MISSING_FIELD", 2],
    ]);
  });
});

describe("applyExtConnChange", () => {
  const request: InstantiateVnfRequest = { flavourId: "simple", extVirtualLinks: [link("ext0", "net-a", "CP1", "CP2"), link("ext9", "net-z", "CP9")] };

  it("a link of the change replaces the link with the same id", () => {
    const out = applyExtConnChange(request, { extVirtualLinks: [link("ext0", "net-a2", "CP1", "CP2")] });
    expect(out.extVirtualLinks?.map((l) => [l.id, l.resourceId, l.extCps.map((c) => c.cpdId)])).toEqual([
      ["ext9", "net-z", ["CP9"]],
      ["ext0", "net-a2", ["CP1", "CP2"]],
    ]);
  });

  it("a CP moved to a new link leaves its old link; a link left with no CP goes", () => {
    const out = applyExtConnChange(request, { extVirtualLinks: [link("ext1", "net-b", "CP1"), link("ext2", "net-c", "CP9")] });
    expect(out.extVirtualLinks?.map((l) => [l.id, l.resourceId, l.extCps.map((c) => c.cpdId)])).toEqual([
      ["ext0", "net-a", ["CP2"]],
      ["ext1", "net-b", ["CP1"]],
      ["ext2", "net-c", ["CP9"]],
    ]);
    expect(request.extVirtualLinks?.[0].extCps).toHaveLength(2); // the input is left as it was
  });
});
