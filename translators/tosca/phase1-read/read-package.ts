/**
 * Phase 1: open a package and find its entry definitions.
 *
 * A package is a directory or `.zip` CSAR with `TOSCA-Metadata/TOSCA.meta`, or one without it (a
 * single root YAML plus a `.mf` manifest of the same base name), or a single YAML file (Tacker's
 * legacy VNFDs are uploaded that way).
 */
import { statSync } from "node:fs";
import { basename, dirname } from "node:path";
import type { Diagnostic, SourceLocation } from "../../diagnostics";
import { DirectorySource, MemorySource, SingleFileSource, type PackageSource } from "./package-source";
import { parseMetaFile, TOSCA_META, type ArtifactEntry } from "./tosca-meta";
import type { Tolerated } from "../problems";
import { verifyHashes } from "./verify-hashes";

export interface ReadPackage {
  source: PackageSource;
  /** Package-relative path of the entry definitions, when found. */
  entry?: string;
  /** Artifacts listed by TOSCA.meta and the manifest. */
  artifacts: ArtifactEntry[];
  diagnostics: Diagnostic[];
  /** What SOL004 forbids and Tacker accepts; `translateRead` decides the severity. */
  tolerated: Tolerated[];
  /** A single YAML file was given: only it and its imports are read, never its neighbours. */
  singleFile: boolean;
}

/** Opens `path` (directory, `.zip`/`.csar`, or one YAML file) and runs `readPackageSource`. */
export async function openPackage(path: string): Promise<ReadPackage> {
  let stat;
  try {
    stat = statSync(path);
  } catch {
    return {
      source: new MemorySource(path, new Map()),
      artifacts: [],
      diagnostics: [{ severity: "error", code: "PKG_NOT_FOUND", message: "no such file or directory", file: path }],
      tolerated: [],
      singleFile: false,
    };
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
  // One YAML file is the whole package (not its directory, whose other files would be walked,
  // however many); the files it imports are read from beside it.
  const source = new SingleFileSource(path, dirname(path), basename(path));
  if (!source.read(basename(path))) {
    return {
      source,
      artifacts: [],
      diagnostics: [{ severity: "error", code: "PKG_NOT_FOUND", message: "cannot be read as a regular file", file: path }],
      tolerated: [],
      singleFile: true,
    };
  }
  return { source, entry: basename(path), artifacts: [], diagnostics: [], tolerated: [], singleFile: true };
}

/** Finds the entry definitions and verifies the hashes of listed artifacts. */
export function readPackageSource(source: PackageSource): ReadPackage {
  const diagnostics: Diagnostic[] = [];
  const tolerated: Tolerated[] = [];
  const artifacts: ArtifactEntry[] = [];
  const files = source.list();
  // Not followed, so not part of the package: said, because a parameter may name one.
  for (const f of source.skipped())
    diagnostics.push({
      severity: "warning",
      code: "PKG_NOT_REGULAR",
      message: `${f} is a symbolic link or not a regular file: it is not part of the package, and a parameter naming it is refused`,
      file: source.display(f),
    });
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
      diagnostics.push({
        severity: "error",
        code: "PKG_ENTRY_NOT_FOUND",
        message: `Entry-Definitions \`${entryKey.value}\` is not in the package`,
        ...where,
        line: entryKey.line,
        column: 1,
      });
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
    } else if (roots.length === 1) {
      // L11: tosca-parser (so Tacker) takes the only root YAML of a CSAR without TOSCA.meta as its entry.
      entry = roots[0];
      tolerated.push({
        leniency: "L11",
        diagnostic: {
          severity: "warning",
          code: "PKG_NO_ENTRY_DEFINITIONS",
          message: `no ${TOSCA_META} and no \`${entry.replace(/\.ya?ml$/i, ".mf")}\` manifest: SOL004 requires one of them; \`${entry}\`, the only root YAML, is the entry`,
          file: source.display(entry),
          line: 1,
          column: 1,
        },
      });
    } else {
      diagnostics.push({
        severity: "error",
        code: "PKG_NO_ENTRY_DEFINITIONS",
        message: `no ${TOSCA_META} and no single root YAML with a .mf manifest of the same name (found ${roots.length} root YAML file(s))`,
        file: source.name,
      });
    }
  }
  verifyHashes(source, artifacts, diagnostics, tolerated);
  return { source, entry, artifacts, diagnostics, tolerated, singleFile: false };
}

function readManifest(source: PackageSource, file: string, artifacts: ArtifactEntry[], diagnostics: Diagnostic[], where: SourceLocation): void {
  const text = source.read(file)?.toString("utf8");
  if (text === undefined) {
    diagnostics.push({ severity: "error", code: "PKG_MANIFEST_NOT_FOUND", message: `manifest \`${file}\` is not in the package`, ...where });
    return;
  }
  artifacts.push(...parseMetaFile(text, file, source.display(file), diagnostics).artifacts);
}
