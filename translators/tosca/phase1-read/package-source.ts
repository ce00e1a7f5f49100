/**
 * Where package files come from: a directory, a `.zip` CSAR read into memory, or (for tests) a
 * map of file contents. Every path is package-relative with `/` separators.
 */
import { lstatSync, readdirSync, readFileSync, statSync } from "node:fs";
import { join, posix, relative, sep } from "node:path";

export interface PackageSource {
  /** What the user named (directory, zip or file path), used to print file names. */
  readonly name: string;
  /** Every regular file, package-relative, sorted. */
  list(): string[];
  /** Contents of one file, or undefined when it does not exist. */
  read(file: string): Buffer | undefined;
  /** How `file` is printed in diagnostics. */
  display(file: string): string;
  /** Entries that are not regular files (symbolic links, devices), package-relative: never read. */
  skipped(): string[];
}

/**
 * The one way to name a package file a parameter gives (`certificate_path`,
 * `helm_installation_script_path`, `image_path`): package-relative, inside the package, a regular
 * file of the source (so never a symbolic link or a directory). The reason names no content.
 */
export function findPackageFile(source: PackageSource, rel: string): { file: string } | { reason: string } {
  const file = posix.normalize(rel);
  if (file.startsWith("../") || file === ".." || posix.isAbsolute(rel) || rel.includes("\\")) return { reason: "must be a path inside the package" };
  if (source.skipped().includes(file)) return { reason: "is a symbolic link or not a regular file; a package file must be a regular file inside the package" };
  if (!source.list().includes(file)) return { reason: `is not a file of the package ${source.name}` };
  return { file };
}

/** `findPackageFile`, and its content. */
export function readPackageFile(source: PackageSource, rel: string): { file: string; content: Buffer } | { reason: string } {
  const found = findPackageFile(source, rel);
  if ("reason" in found) return found;
  const content = source.read(found.file);
  return content ? { file: found.file, content } : { reason: `could not be read from the package ${source.name}` };
}

/** The source of a package directory; undefined for anything else (a zip has no directory to name files in). */
export function directorySource(dir: string): DirectorySource | undefined {
  try {
    return statSync(dir).isDirectory() ? new DirectorySource(dir, dir) : undefined;
  } catch {
    return undefined;
  }
}

/** A package held in memory (zip contents, test fixtures, property-test mutations). */
export class MemorySource implements PackageSource {
  private readonly files: Map<string, Buffer>;

  constructor(
    readonly name: string,
    files: Map<string, Buffer | string>,
  ) {
    this.files = new Map([...files].map(([k, v]) => [k, typeof v === "string" ? Buffer.from(v, "utf8") : v]));
  }

  list(): string[] {
    return [...this.files.keys()].sort();
  }

  read(file: string): Buffer | undefined {
    return this.files.get(file);
  }

  display(file: string): string {
    return this.name ? `${this.name}/${file}` : file;
  }

  skipped(): string[] {
    return [];
  }
}

/** A package directory on disk; files are read on demand (images can be large). */
export class DirectorySource implements PackageSource {
  private cache?: string[];
  private known?: Set<string>;
  private notRegular: string[] = [];
  /** The last file read: the entry is asked for twice (existence, then parsing) and may be large. */
  private last?: { file: string; content: Buffer };

  constructor(
    readonly name: string,
    private readonly root: string,
  ) {}

  list(): string[] {
    if (!this.cache) {
      const out: string[] = [];
      const walk = (dir: string) => {
        for (const entry of readdirSync(dir, { withFileTypes: true })) {
          const full = join(dir, entry.name);
          // Symbolic links are not followed: a package must not reach outside itself.
          const rel = relative(this.root, full).split(sep).join("/");
          if (entry.isDirectory()) walk(full);
          else if (entry.isFile()) out.push(rel);
          else this.notRegular.push(rel);
        }
      };
      walk(this.root);
      this.cache = out.sort();
      this.known = new Set(out);
      this.notRegular.sort();
    }
    return this.cache;
  }

  read(file: string): Buffer | undefined {
    this.list();
    if (!this.known!.has(file)) return undefined;
    if (this.last?.file === file) return this.last.content;
    try {
      const content = readFileSync(join(this.root, file));
      this.last = { file, content };
      return content;
    } catch {
      return undefined;
    }
  }

  display(file: string): string {
    return join(this.name, file);
  }

  skipped(): string[] {
    this.list();
    return this.notRegular;
  }

  /** Where `file` is on disk, for what must be copied as a file (an image tarball); only a regular file of the package. */
  localPath(file: string): string | undefined {
    this.list();
    return this.known!.has(file) ? join(this.root, file) : undefined;
  }
}

/**
 * One YAML file given alone (a legacy or single-file VNFD): the package is that file. The files it
 * imports are read from beside it when asked for, as tosca-parser resolves relative imports, but
 * the directory is never walked (it may hold anything, in any number) and only regular files are
 * read, never through a symbolic link.
 */
export class SingleFileSource implements PackageSource {
  constructor(
    readonly name: string,
    private readonly root: string,
    private readonly entry: string,
  ) {}

  list(): string[] {
    return [this.entry];
  }

  read(file: string): Buffer | undefined {
    const rel = posix.normalize(file);
    if (rel.startsWith("../") || rel === ".." || posix.isAbsolute(rel) || rel.includes("\\")) return undefined;
    const full = join(this.root, ...rel.split("/"));
    try {
      // Every component, not only the last, must be a plain directory or file.
      let at = this.root;
      for (const part of rel.split("/")) {
        at = join(at, part);
        const st = lstatSync(at);
        if (st.isSymbolicLink() || !(st.isDirectory() || st.isFile())) return undefined;
      }
      return lstatSync(full).isFile() ? readFileSync(full) : undefined;
    } catch {
      return undefined;
    }
  }

  display(file: string): string {
    return join(this.root, file);
  }

  skipped(): string[] {
    return [];
  }
}
