/** Diagnostics as printed by every subcommand: text lines or the stable JSON shape. */
import { formatDiagnostic, type Diagnostic } from "../translators/diagnostics";

/** `{severity, code, message, file, line, column, path}`, every key present (null when unknown). */
export function diagnosticJson(d: Diagnostic): Record<string, string | number | null> {
  return { severity: d.severity, code: d.code, message: d.message, file: d.file ?? null, line: d.line ?? null, column: d.column ?? null, path: d.path ?? null };
}

export function diagnosticLines(diagnostics: Diagnostic[]): string {
  return diagnostics.map((d) => formatDiagnostic(d) + "\n").join("");
}

export function summary(diagnostics: Diagnostic[]): string {
  const errors = diagnostics.filter((d) => d.severity === "error").length;
  const warnings = diagnostics.length - errors;
  return `${errors} error(s), ${warnings} warning(s)\n`;
}
