/** Every broken package (see broken-fixtures.ts) produces its error code at the position of the change. */
import { cpSync, mkdtempSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { basename, join } from "node:path";
import { describe, expect, it } from "vitest";
import type { Diagnostic } from "../../../translators/diagnostics";
import { translatePackage, translateSource } from "../../../translators/tosca/translate";
import { BROKEN } from "./broken-fixtures";
import { openPackage } from "../../../translators/tosca/phase1-read/read-package";
import { FIXTURES, memory, positionOf, SHARED_PACKAGES } from "./helpers";

function only(diagnostics: Diagnostic[], code: string): Diagnostic {
  const errors = diagnostics.filter((d) => d.severity === "error");
  const match = errors.find((d) => d.code === code);
  if (!match) throw new Error(`expected ${code}, got:\n${errors.map((d) => `${d.code} ${d.message}`).join("\n")}`);
  return match;
}

describe("broken packages", () => {
  it("are at least 15 distinct problems", () => {
    expect(new Set(BROKEN.map((b) => b.code)).size).toBeGreaterThanOrEqual(15);
  });

  for (const b of BROKEN) {
    it(`${b.name}: ${b.code} at its line${b.strict ? " (--strict)" : ""}`, () => {
      const files = b.files();
      const result = translateSource(memory(files), { strict: b.strict });
      expect(result.model).toBeUndefined();
      const d = only(result.diagnostics, b.code);
      expect(d.file).toBe(`pkg/${b.file}`);
      expect(d.line).toBe(positionOf(files.get(b.file)!, b.at).line);
      expect(d.column).toBeGreaterThanOrEqual(1);
    });
  }

  it("zip entry with `..`: PKG_ZIP_ESCAPE naming the entry", async () => {
    const result = await translatePackage(join(FIXTURES, "zip-path-escape.zip"));
    expect(only(result.diagnostics, "PKG_ZIP_ESCAPE")).toMatchObject({
      file: join(FIXTURES, "zip-path-escape.zip"),
      message: expect.stringContaining("../../escaped.txt"),
    });
    expect(result.model).toBeUndefined();
  });

  it("zip entry that is a symbolic link: PKG_ZIP_ESCAPE", async () => {
    const result = await translatePackage(join(FIXTURES, "zip-symlink.zip"));
    expect(only(result.diagnostics, "PKG_ZIP_ESCAPE").message).toContain("symbolic link");
  });

  it("a symbolic link in a package directory: not followed, and `nfv validate` says so (PKG_NOT_REGULAR, warning, naming the file)", async () => {
    const dir = mkdtempSync(join(tmpdir(), "pkg-link-"));
    cpSync(join(FIXTURES, "base"), dir, { recursive: true });
    writeFileSync(join(dir, "..", `${basename(dir)}-operator.crt`), "operator's CA");
    symlinkSync(join(dir, "..", `${basename(dir)}-operator.crt`), join(dir, "Files-ca.crt"));
    const result = await translatePackage(dir);
    expect(result.diagnostics.filter((d) => d.code === "PKG_NOT_REGULAR")).toEqual([
      expect.objectContaining({
        severity: "warning",
        file: join(dir, "Files-ca.crt"),
        message: expect.stringContaining("Files-ca.crt is a symbolic link or not a regular file"),
      }),
    ]);
  });

  it("a single legacy VNFD is the whole package: its directory is not walked; a file beside it is read only when imported, never through a link or from outside", async () => {
    const dir = mkdtempSync(join(tmpdir(), "legacy-"));
    cpSync(join(SHARED_PACKAGES, "legacy-containerized/tosca-vnfd-containerized.yaml"), join(dir, "vnfd.yaml"));
    writeFileSync(join(dir, "types.yaml"), "imported by name, as tosca-parser resolves relative imports\n");
    const outside = mkdtempSync(join(tmpdir(), "outside-"));
    writeFileSync(join(outside, "secret.yaml"), "not part of the package\n");
    symlinkSync(join(outside, "secret.yaml"), join(dir, "linked.yaml"));
    const pkg = await openPackage(join(dir, "vnfd.yaml"));
    expect(pkg.source.list()).toEqual(["vnfd.yaml"]);
    expect(pkg.source.read("types.yaml")?.toString()).toContain("imported by name");
    expect(pkg.source.read("linked.yaml")).toBeUndefined();
    expect(pkg.source.read("../" + outside.split("/").pop()! + "/secret.yaml")).toBeUndefined();
    expect(pkg.entry).toBe("vnfd.yaml");
  });

  it("the same package as a valid zip translates", async () => {
    const result = await translatePackage(join(FIXTURES, "valid.zip"));
    expect(result.diagnostics).toEqual([]);
    expect(result.model?.flavours[0].vdus).toHaveLength(2);
  });
});
