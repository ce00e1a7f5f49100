/**
 * Where package files come from: a directory, a `.zip` CSAR read into memory, or (for tests) a
 * map of file contents. Every path is package-relative with `/` separators.
 */
import { readdirSync, readFileSync } from "node:fs";
import { join, relative, sep } from "node:path";

export interface PackageSource {
  /** What the user named (directory, zip or file path), used to print file names. */
  readonly name: string;
  /** Every regular file, package-relative, sorted. */
  list(): string[];
  /** Contents of one file, or undefined when it does not exist. */
  read(file: string): Buffer | undefined;
  /** How `file` is printed in diagnostics. */
  display(file: string): string;
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
}

/** A package directory on disk; files are read on demand (images can be large). */
export class DirectorySource implements PackageSource {
  private cache?: string[];
  private known?: Set<string>;
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
          if (entry.isDirectory()) walk(full);
          else if (entry.isFile()) out.push(relative(this.root, full).split(sep).join("/"));
        }
      };
      walk(this.root);
      this.cache = out.sort();
      this.known = new Set(out);
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
}
