/**
 * Checks every artifact hash listed in TOSCA.meta or the manifest, as Tacker does on upload.
 * Blocks without `Algorithm`/`Hash` are skipped (images are usually listed that way); URLs are not
 * downloaded, so their hashes cannot be checked here (a warning says so).
 */
import type * as Crypto from "node:crypto";
import type { Diagnostic } from "../../diagnostics";
import type { PackageSource } from "./package-source";
import type { Tolerated } from "../problems";
import { TOSCA_META, type ArtifactEntry } from "./tosca-meta";

const ALGORITHMS: Record<string, string> = { "SHA-224": "sha224", "SHA-256": "sha256", "SHA-384": "sha384", "SHA-512": "sha512" };

let cryptoModule: typeof Crypto | undefined;

/** node:crypto, loaded on first use: most packages list no hashes, and loading it costs start-up time. */
function crypto(): typeof Crypto {
  // eslint-disable-next-line @typescript-eslint/no-require-imports -- `import()` would make reading a package asynchronous
  return (cryptoModule ??= require("node:crypto") as typeof Crypto);
}

export function verifyHashes(source: PackageSource, artifacts: ArtifactEntry[], diagnostics: Diagnostic[], tolerated: Tolerated[]): void {
  const seen = new Set<string>();
  // One digest per file and algorithm, however many blocks list the file with other hashes.
  const digests = new Map<string, string>();
  for (const a of artifacts) {
    const where = { file: source.display(a.file), line: a.line, column: 1 };
    // Entries are de-duplicated, as in Tacker: a file may be listed in both TOSCA.meta and the manifest.
    const key = `${a.name}\0${a.algorithm ?? ""}\0${a.hash ?? ""}`;
    if (seen.has(key)) continue;
    seen.add(key);
    if (a.algorithm === undefined && a.hash === undefined) continue;
    if (a.algorithm === undefined || a.hash === undefined) {
      diagnostics.push({
        severity: "error",
        code: "PKG_HASH_INCOMPLETE",
        message: `artifact \`${a.name}\` has ${a.hash === undefined ? "an Algorithm but no Hash" : "a Hash but no Algorithm"}`,
        ...where,
      });
      continue;
    }
    const algorithm = ALGORITHMS[a.algorithm];
    if (!algorithm) {
      diagnostics.push({
        severity: "error",
        code: "PKG_HASH_ALGORITHM",
        message: `artifact \`${a.name}\`: unsupported Algorithm \`${a.algorithm}\` (SHA-224, SHA-256, SHA-384 or SHA-512)`,
        ...where,
      });
      continue;
    }
    if (/^[a-z][a-z0-9+.-]*:\/\//i.test(a.name)) {
      diagnostics.push({
        severity: "warning",
        code: "PKG_REMOTE_ARTIFACT",
        message: `artifact \`${a.name}\` is a URL; it is not downloaded and its hash is not verified`,
        ...where,
      });
      continue;
    }
    const digestKey = `${a.name}\0${algorithm}`;
    let actual = digests.get(digestKey);
    if (actual === undefined) {
      const content = source.read(a.name);
      if (!content) {
        const missing: Diagnostic = {
          severity: "error",
          code: "PKG_ARTIFACT_MISSING",
          message: `artifact \`${a.name}\` is listed with a hash but is not in the package`,
          ...where,
        };
        // L12: Tacker refuses a missing TOSCA.meta artifact but onboards one listed only in the manifest.
        if (a.file === TOSCA_META) diagnostics.push(missing);
        else tolerated.push({ leniency: "L12", diagnostic: missing });
        continue;
      }
      actual = crypto().createHash(algorithm).update(content).digest("hex");
      digests.set(digestKey, actual);
    }
    if (actual !== a.hash.toLowerCase()) {
      diagnostics.push({
        severity: "error",
        code: "PKG_HASH_MISMATCH",
        message: `artifact \`${a.name}\`: ${a.algorithm} hash is ${actual}, TOSCA metadata says ${a.hash}`,
        ...where,
      });
    }
  }
}
