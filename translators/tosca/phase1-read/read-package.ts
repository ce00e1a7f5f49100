/**
 * Phase 1: open a package and find its entry definitions.
 *
 * A package is a directory or `.zip` CSAR with `TOSCA-Metadata/TOSCA.meta`, or one without it (a
 * single root YAML plus a `.mf` manifest of the same base name), or a single YAML file (Tacker's
 * legacy VNFDs are uploaded that way).
 */
import { readFileSync, statSync } from "node:fs";
import { basename, dirname } from "node:path";
import type { Diagnostic, SourceLocation } from "../../diagnostics";
import { DirectorySource, MemorySource, type PackageSource } from "./package-source";
import { parseMetaFile, type ArtifactEntry } from "./tosca-meta";
import { verifyHashes } from "./verify-hashes";

export const TOSCA_META = "TOSCA-Metadata/TOSCA.meta";

export interface ReadPackage {
  source: PackageSource;
  /** Package-relative path of the entry definitions, when found. */
  entry?: string;
  /** Artifacts listed by TOSCA.meta and the manifest. */
  artifacts: ArtifactEntry[];
  diagnostics: Diagnostic[];
}

/** Opens `path` (directory, `.zip`/`.csar`, or one YAML file) and runs `readPackageSource`. */
export async function openPackage(path: string): Promise<ReadPackage> {
  let stat;
  try {
    stat = statSync(path);
  } catch {
    return { source: new MemorySource(path, new Map()), artifacts: [], diagnostics: [{ severity: "error", code: "PKG_NOT_FOUND", message: "no such file or directory", file: path }] };
  }
  if (stat.isDirectory()) return readPackageSource(new DirectorySource(path, path));
  if (/\.(zip|csar)$/i.test(path)) {
    // Loaded only for zips: most runs read directories, and start-up time counts for a CLI.
    const { readZip } = await import("./zip");
    const zip = await readZip(path);
    const result = readPackageSource(new MemorySource(path, zip.files));
    result.diagnostics.unshift(...zip.diagnostics);
    return result;
  }
  // One YAML file (a legacy VNFD) is the whole package: not its directory, whose other files
  // would be walked (however many) and importable.
  let content: Buffer;
  try {
    content = readFileSync(path);
  } catch (e) {
    return { source: new MemorySource(path, new Map()), artifacts: [], diagnostics: [{ severity: "error", code: "PKG_NOT_FOUND", message: `cannot be read (${(e as NodeJS.ErrnoException).code ?? "error"})`, file: path }] };
  }
  const source = new MemorySource(dirname(path), new Map([[basename(path), content]]));
  return { source, entry: basename(path), artifacts: [], diagnostics: [] };
}

/** Finds the entry definitions and verifies the hashes of listed artifacts. */
export function readPackageSource(source: PackageSource): ReadPackage {
  const diagnostics: Diagnostic[] = [];
  const artifacts: ArtifactEntry[] = [];
  const files = source.list();
  // Not followed, so not part of the package: said, because a parameter may name one.
  for (const f of source.skipped()) diagnostics.push({ severity: "warning", code: "PKG_NOT_REGULAR", message: `${f} is a symbolic link or not a regular file: it is not part of the package, and a parameter naming it is refused`, file: source.display(f) });
  let entry: string | undefined;
  const metaText = source.read(TOSCA_META)?.toString("utf8");
  if (metaText !== undefined) {
    const meta = parseMetaFile(metaText, TOSCA_META, source.display(TOSCA_META), diagnostics);
    artifacts.push(...meta.artifacts);
    const where = { file: source.display(TOSCA_META) };
    const entryKey = meta.header.get("Entry-Definitions");
    if (!entryKey || entryKey.value === "") {
      diagnostics.push({ severity: "error", code: "PKG_NO_ENTRY_DEFINITIONS", message: "TOSCA.meta has no `Entry-Definitions`", ...where, line: 1, column: 1 });
    } else if (!source.read(entryKey.value)) {
      diagnostics.push({ severity: "error", code: "PKG_ENTRY_NOT_FOUND", message: `Entry-Definitions \`${entryKey.value}\` is not in the package`, ...where, line: entryKey.line, column: 1 });
    } else {
      entry = entryKey.value;
    }
    const manifest = meta.header.get("ETSI-Entry-Manifest");
    if (manifest) readManifest(source, manifest.value, artifacts, diagnostics, { ...where, line: manifest.line, column: 1 });
  } else {
    const roots = files.filter((f) => !f.includes("/") && /\.ya?ml$/i.test(f));
    const withManifest = roots.filter((f) => files.includes(f.replace(/\.ya?ml$/i, ".mf")));
    if (withManifest.length === 1) {
      entry = withManifest[0];
      readManifest(source, entry.replace(/\.ya?ml$/i, ".mf"), artifacts, diagnostics, { file: source.display(entry) });
    } else {
      diagnostics.push({
        severity: "error",
        code: "PKG_NO_ENTRY_DEFINITIONS",
        message: `no ${TOSCA_META} and no single root YAML with a .mf manifest of the same name (found ${roots.length} root YAML file(s))`,
        file: source.name,
      });
    }
  }
  verifyHashes(source, artifacts, diagnostics);
  return { source, entry, artifacts, diagnostics };
}

function readManifest(source: PackageSource, file: string, artifacts: ArtifactEntry[], diagnostics: Diagnostic[], where: SourceLocation): void {
  const text = source.read(file)?.toString("utf8");
  if (text === undefined) {
    diagnostics.push({ severity: "error", code: "PKG_MANIFEST_NOT_FOUND", message: `manifest \`${file}\` is not in the package`, ...where });
    return;
  }
  artifacts.push(...parseMetaFile(text, file, source.display(file), diagnostics).artifacts);
}
