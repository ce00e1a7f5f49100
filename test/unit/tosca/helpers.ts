/** Test packages: the shared real packages, and the `base` fixture plus the ETSI type files. */
import { mkdtempSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, relative, resolve, sep } from "node:path";
import { afterAll } from "vitest";
import { MemorySource } from "../../../translators/tosca/phase1-read/package-source";

export const REPO = resolve(__dirname, "../../..");
export const SHARED_PACKAGES = resolve(REPO, "../shared/vnf-packages");
export const FIXTURES = join(REPO, "test/fixtures/packages");
const ETSI = join(SHARED_PACKAGES, "etsi-sol001-2.6.1");

export type Files = Map<string, string>;

/** Every file under `root`, by its path relative to it. */
export function readTree(root: string): Files {
  const files: Files = new Map();
  const walk = (dir: string) => {
    for (const name of readdirSync(dir)) {
      const full = join(dir, name);
      if (statSync(full).isDirectory()) walk(full);
      else files.set(relative(root, full).split(sep).join("/"), readFileSync(full, "utf8"));
    }
  };
  walk(root);
  return files;
}

/** The base fixture with the ETSI SOL001 type files it imports. */
export function baseFiles(): Files {
  const files = readTree(join(FIXTURES, "base"));
  for (const f of ["etsi_nfv_sol001_common_types.yaml", "etsi_nfv_sol001_vnfd_types.yaml"]) {
    files.set(`Definitions/${f}`, readFileSync(join(ETSI, f), "utf8"));
  }
  return files;
}

/** Replaces `from` by `to` in one file; fails the test if `from` is not there exactly once. */
export function edit(files: Files, file: string, from: string, to: string): Files {
  const text = files.get(file);
  if (text === undefined) throw new Error(`no file ${file}`);
  const at = text.indexOf(from);
  if (at < 0 || text.indexOf(from, at + 1) >= 0) throw new Error(`\`${from}\` is not in ${file} exactly once`);
  const out = new Map(files);
  out.set(file, text.slice(0, at) + to + text.slice(at + from.length));
  return out;
}

/** 1-based line and column of the first occurrence of `marker` in `text`. */
export function positionOf(text: string, marker: string): { line: number; column: number } {
  const at = text.indexOf(marker);
  if (at < 0) throw new Error(`no \`${marker}\``);
  const before = text.slice(0, at);
  return { line: before.split("\n").length, column: at - before.lastIndexOf("\n") };
}

export function memory(files: Files, name = "pkg"): MemorySource {
  return new MemorySource(name, files);
}

/** The directories writePackage made: removed once the test file that imports this has run. */
const written: string[] = [];
afterAll(() => {
  for (const dir of written.splice(0)) rmSync(dir, { recursive: true, force: true });
});

/** Writes a package to a fresh temporary directory (removed after the test file) and returns its path. */
export function writePackage(files: Files): string {
  const root = mkdtempSync(join(tmpdir(), "nfv-pkg-"));
  written.push(root);
  for (const [file, text] of files) {
    mkdirSync(dirname(join(root, file)), { recursive: true });
    writeFileSync(join(root, file), text);
  }
  return root;
}
