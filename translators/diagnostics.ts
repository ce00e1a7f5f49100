/**
 * Problems as data. Every reader in `translators/` collects diagnostics instead of stopping at the
 * first problem, so a user sees everything that is wrong with a package or a config in one run.
 */

export type Severity = "error" | "warning";

/** Where a problem is: a file position when the input came from a file, and a path inside the data. */
export interface SourceLocation {
  file?: string;
  /** 1-based. */
  line?: number;
  /** 1-based. */
  column?: number;
  /** Dotted path inside the document, e.g. `topology_template.node_templates.VDU1.properties`. */
  path?: string;
}

export interface Diagnostic extends SourceLocation {
  severity: Severity;
  /** Stable, upper-case code such as `VIM_UNKNOWN_KEY`; documented in the README. */
  code: string;
  message: string;
}

/** `file:line:col: error CODE: message`, falling back to the data path when there is no file. */
export function formatDiagnostic(d: Diagnostic): string {
  let where = "";
  if (d.file) {
    where = d.file;
    if (d.line !== undefined) where += `:${d.line}`;
    if (d.column !== undefined) where += `:${d.column}`;
    if (d.path) where += ` (${d.path})`;
  } else if (d.path) {
    where = d.path;
  }
  return `${where ? where + ": " : ""}${d.severity} ${d.code}: ${d.message}`;
}

/** Renders a path such as `["a", 0, "b"]` as `a[0].b`. */
export function formatPath(path: readonly (string | number)[]): string {
  let out = "";
  for (const part of path) {
    if (typeof part === "number") out += `[${part}]`;
    else out += out === "" ? part : `.${part}`;
  }
  return out;
}

/** An error at `where`: for checks that return their problems rather than fill a bag. */
export function errorAt(code: string, message: string, where: SourceLocation = {}): Diagnostic {
  return { severity: "error", code, message, ...where };
}

/** A collector that readers pass around; `errors()` decides whether the input is usable. */
export class DiagnosticBag {
  readonly items: Diagnostic[] = [];

  error(code: string, message: string, where: SourceLocation = {}): void {
    this.items.push(errorAt(code, message, where));
  }

  warning(code: string, message: string, where: SourceLocation = {}): void {
    this.items.push({ severity: "warning", code, message, ...where });
  }

  add(...diagnostics: Diagnostic[]): void {
    this.items.push(...diagnostics);
  }

  errors(): Diagnostic[] {
    return this.items.filter((d) => d.severity === "error");
  }

  warnings(): Diagnostic[] {
    return this.items.filter((d) => d.severity === "warning");
  }

  hasErrors(): boolean {
    return this.items.some((d) => d.severity === "error");
  }

  /** Throws one `DiagnosticError` listing every error, if there is any. */
  throwIfErrors(summary: string): void {
    if (this.hasErrors()) throw new DiagnosticError(summary, this.errors());
  }
}

/**
 * One error that carries every problem found. Its message lists them all, one per line, so that a
 * Pulumi program that throws it shows the whole list in `pulumi preview`.
 */
export class DiagnosticError extends Error {
  readonly diagnostics: Diagnostic[];

  constructor(summary: string, diagnostics: Diagnostic[]) {
    const lines = diagnostics.map((d) => "  " + formatDiagnostic(d));
    super(`${summary} (${diagnostics.length} problem${diagnostics.length === 1 ? "" : "s"}):\n${lines.join("\n")}`);
    this.name = "DiagnosticError";
    this.diagnostics = diagnostics;
  }
}
