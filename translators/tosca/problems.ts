/**
 * Diagnostics for the TOSCA translator, with positions filled in lazily.
 *
 * Valid packages are parsed with a fast parser that keeps no positions (see
 * `phase2-load/fast-yaml.ts`). A problem therefore records the file and the path inside the
 * document; `locate()` re-parses only the files that have problems (or places kept for later
 * problems: an NSD's VNF nodes, see `place()`), with the position-keeping parser of
 * `translators/yaml`, to turn each path into `file:line:column`.
 */
import type { Diagnostic, Severity, SourceLocation } from "../diagnostics";
import { formatPath } from "../diagnostics";
import { DEFAULT_YAML_LIMITS, parseYaml, type LocatedDocument, type YamlPath } from "../yaml/located-yaml";

interface Pending {
  /** What gets the line and column: a diagnostic, or a place kept by `place()`. */
  target: SourceLocation;
  /** Package-relative file the path refers to. */
  file: string;
  path: YamlPath;
  /** Point at the key rather than the value (unknown keys). */
  atKey: boolean;
}

export class Problems {
  private readonly items: Diagnostic[] = [];
  private readonly pending: Pending[] = [];

  /**
   * @param display turns a package-relative file name into what the user sees.
   * @param strict `nfv validate --strict`: what SOL001 requires but Tacker tolerates is an error.
   */
  constructor(
    private readonly display: (file: string) => string = (f) => f,
    private readonly strict = false,
  ) {}

  /**
   * A problem at `path` inside the YAML file `file` (package-relative). `path` is copied: value
   * checks pass one array that they extend and restore as they descend.
   */
  at(severity: Severity, code: string, message: string, file: string, path: YamlPath, atKey = false): Diagnostic {
    const diagnostic: Diagnostic = { severity, code, message, file: this.display(file), path: formatPath(path) };
    if (diagnostic.path === "") delete diagnostic.path;
    this.items.push(diagnostic);
    this.pending.push({ target: diagnostic, file, path: [...path], atKey });
    // The same object gets its line and column in `locate()`: a model may keep it as a location.
    return diagnostic;
  }

  /**
   * The place of `path` in `file`, for a problem found later (a plan checking a model against a
   * stack config): the returned object gets its line and column in `locate()`.
   */
  place(file: string, path: YamlPath): SourceLocation {
    const target: SourceLocation = { file: this.display(file), path: formatPath(path) };
    this.pending.push({ target, file, path: [...path], atKey: false });
    return target;
  }

  error(code: string, message: string, file: string, path: YamlPath = [], atKey = false): Diagnostic {
    return this.at("error", code, message, file, path, atKey);
  }

  warning(code: string, message: string, file: string, path: YamlPath = [], atKey = false): Diagnostic {
    return this.at("warning", code, message, file, path, atKey);
  }

  /**
   * What SOL001, SOL004 or YAML forbid and Tacker accepts (`leniency`: an id of `leniencies.ts`):
   * a warning that names the rule it breaks, an error when strict.
   */
  tolerated(leniency: string, code: string, message: string, file: string, path: YamlPath = [], atKey = false): Diagnostic {
    return this.at(this.strict ? "error" : "warning", code, tolerance(leniency, message), file, path, atKey);
  }

  /** As `tolerated`, for a diagnostic that already carries its position. */
  tolerate(t: Tolerated): void {
    this.items.push({ ...t.diagnostic, severity: this.strict ? "error" : "warning", message: tolerance(t.leniency, t.diagnostic.message) });
  }

  /** Diagnostics that already carry their position (YAML syntax errors, package-level problems). */
  add(...diagnostics: Diagnostic[]): void {
    this.items.push(...diagnostics);
  }

  hasErrors(): boolean {
    return this.items.some((d) => d.severity === "error");
  }

  /**
   * Fills in line and column of every path-based problem, reading files through `read`, and
   * returns all problems sorted by file and position.
   */
  locate(read: (file: string) => string | undefined): Diagnostic[] {
    const docs = new Map<string, LocatedDocument | undefined>();
    for (const p of this.pending) {
      if (!docs.has(p.file)) {
        const text = read(p.file);
        // Duplicate keys were reported (or tolerated, L13) when the file was read; here they would hide every position.
        docs.set(p.file, text === undefined ? undefined : parseYaml(text, p.file, DEFAULT_YAML_LIMITS, false).documents[0]);
      }
      const doc = docs.get(p.file);
      if (!doc) continue;
      const where = p.atKey ? doc.keyLocation(p.path) : doc.location(p.path);
      if (where.line !== undefined) p.target.line = where.line;
      if (where.column !== undefined) p.target.column = where.column;
    }
    this.pending.length = 0;
    return sortDiagnostics(this.items);
  }
}

/** A positioned problem that Tacker accepts, found before the `Problems` of a run exist. */
export interface Tolerated {
  /** Id in `leniencies.ts`. */
  leniency: string;
  diagnostic: Diagnostic;
}

const tolerance = (leniency: string, message: string) => `${message} (${leniency}: Tacker accepts this; an error with --strict)`;

export function sortDiagnostics(items: Diagnostic[]): Diagnostic[] {
  return [...items].sort(
    (a, b) => (a.file ?? "").localeCompare(b.file ?? "") || (a.line ?? 0) - (b.line ?? 0) || (a.column ?? 0) - (b.column ?? 0) || a.code.localeCompare(b.code),
  );
}
