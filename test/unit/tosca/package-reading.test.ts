/** Phase 1 and 2 details: TOSCA.meta spellings, manifests, the form without TOSCA-Metadata, imports. */
import { createHash } from "node:crypto";
import { describe, expect, it } from "vitest";
import { parseMetaFile } from "../../../translators/tosca/phase1-read/tosca-meta";
import { unsafeEntryReason } from "../../../translators/tosca/phase1-read/zip";
import { translateSource } from "../../../translators/tosca/translate";
import { baseFiles, edit, memory } from "./helpers";

const base = baseFiles();
const VNFD = "Definitions/vnfd.yaml";
const META = "TOSCA-Metadata/TOSCA.meta";
const hook = base.get("Scripts/hook.py")!;
const sha = (alg: string, text: string) => createHash(alg).update(text).digest("hex");

describe("TOSCA.meta and manifests", () => {
  it("reads both Content-Type spellings and algorithms in any case", () => {
    const meta = parseMetaFile(
      "TOSCA-Meta-File-Version: 1.0\nEntry-Definitions: a.yaml\n\nName: x\nContent-type: text/plain\nAlgorithm: sha-512\nHash: AB\n",
      "m",
      "m",
      [],
    );
    expect(meta.header.get("Entry-Definitions")).toEqual({ value: "a.yaml", line: 2 });
    expect(meta.artifacts).toEqual([{ name: "x", contentType: "text/plain", algorithm: "SHA-512", hash: "AB", line: 4, file: "m" }]);
  });

  it("verifies SHA-224/384/512 too, in lower case", () => {
    for (const alg of ["sha224", "sha384", "sha512"]) {
      const files = edit(base, META, `Algorithm: SHA-256\nHash: ${sha("sha256", hook)}`, `Algorithm: ${alg.replace("sha", "sha-")}\nHash: ${sha(alg, hook)}`);
      expect(translateSource(memory(files)).diagnostics).toEqual([]);
    }
  });

  it("verifies artifacts listed in the ETSI-Entry-Manifest", () => {
    const withManifest = edit(
      base,
      META,
      "Entry-Definitions: Definitions/vnfd.yaml\n",
      "Entry-Definitions: Definitions/vnfd.yaml\nETSI-Entry-Manifest: vnfd.mf\n",
    );
    withManifest.set("vnfd.mf", `metadata:\n  vnf_provider_id: Fixture\n\nSource: Scripts/hook.py\nAlgorithm: SHA-256\nHash: ${"0".repeat(64)}\n`);
    const d = translateSource(memory(withManifest)).diagnostics;
    expect(d.map((x) => [x.code, x.file, x.line])).toEqual([["PKG_HASH_MISMATCH", "pkg/vnfd.mf", 4]]);
  });

  it("accepts the form without TOSCA-Metadata: one root YAML and a .mf of the same name", () => {
    const files = new Map([...base].filter(([f]) => f !== META).map(([f, t]) => [f === VNFD ? "vnfd.yaml" : f.replace(/^Definitions\//, ""), t]));
    files.set("vnfd.yaml", files.get("vnfd.yaml")!.replace("../Scripts/hook.py", "hook.py"));
    files.set("hook.py", hook);
    files.set("vnfd.mf", `Source: hook.py\nAlgorithm: SHA-256\nHash: ${sha("sha256", hook)}\n`);
    const result = translateSource(memory(files));
    expect(result.diagnostics).toEqual([]);
    expect(result.model?.flavours[0].lcmHooks[0].file).toBe("hook.py");
    files.delete("vnfd.mf");
    expect(translateSource(memory(files)).diagnostics.map((d) => d.code)).toEqual(["PKG_NO_ENTRY_DEFINITIONS"]);
  });
});

describe("imports", () => {
  it("resolves imports relative to the importing file", () => {
    const files = edit(base, VNFD, "  - etsi_nfv_sol001_vnfd_types.yaml\n", "  - etsi_nfv_sol001_vnfd_types.yaml\n  - sub/extra.yaml\n");
    files.set("Definitions/sub/extra.yaml", "tosca_definitions_version: tosca_simple_yaml_1_2\nimports:\n  - more.yaml\n");
    files.set(
      "Definitions/sub/more.yaml",
      "tosca_definitions_version: tosca_simple_yaml_1_2\ndata_types:\n  my.Data:\n    derived_from: tosca.datatypes.Root\n",
    );
    expect(translateSource(memory(files)).diagnostics).toEqual([]);
  });

  it("refuses imports outside the package", () => {
    const files = edit(base, VNFD, "  - etsi_nfv_sol001_vnfd_types.yaml\n", "  - etsi_nfv_sol001_vnfd_types.yaml\n  - ../../outside.yaml\n");
    expect(translateSource(memory(files)).diagnostics.map((d) => d.code)).toEqual(["IMPORT_OUTSIDE_PACKAGE"]);
  });
});

describe("zip entry names", () => {
  it("are refused when they could leave the package", () => {
    expect(unsafeEntryReason("Definitions/a.yaml")).toBeUndefined();
    expect(unsafeEntryReason("a/../../b")).toContain("..");
    expect(unsafeEntryReason("/etc/passwd")).toContain("absolute");
    expect(unsafeEntryReason("C:/x")).toContain("absolute");
    expect(unsafeEntryReason("a\\..\\b")).toContain("backslash");
  });
});
