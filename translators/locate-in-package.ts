/**
 * Positions for problems that name a package file and a YAML path but no line (the plan's checks
 * work on the model, which keeps no positions): the file is re-parsed with the position-keeping
 * parser, once per file and only when a problem needs it, and the file is printed as the package
 * prints it.
 */
import type { Diagnostic } from "./diagnostics";
import type { PackageSource } from "./tosca/phase1-read/package-source";
import { parseYaml, type LocatedDocument, type YamlPath } from "./yaml/located-yaml";

/** `a.b[2].c` → `["a", "b", 2, "c"]`. */
function pathOf(text: string): YamlPath {
  return text
    .replace(/\[(\d+)\]/g, ".$1")
    .split(".")
    .filter((p) => p !== "")
    .map((p) => (/^\d+$/.test(p) ? Number(p) : p));
}

/** `diagnostics` with each package file's problem at its line and column; the others as they were. */
export function locateInPackage(diagnostics: Diagnostic[], source: PackageSource): Diagnostic[] {
  const documents = new Map<string, LocatedDocument | undefined>();
  const documentOf = (file: string): LocatedDocument | undefined => {
    if (!documents.has(file)) {
      const text = source.read(file)?.toString("utf8");
      documents.set(file, text === undefined ? undefined : parseYaml(text, source.display(file)).documents[0]);
    }
    return documents.get(file);
  };
  return diagnostics.map((d) => {
    if (d.file === undefined || d.line !== undefined || d.path === undefined) return d;
    const doc = documentOf(d.file);
    if (!doc) return d;
    const { line, column } = doc.location(pathOf(d.path));
    return { ...d, file: doc.file, ...(line !== undefined ? { line } : {}), ...(column !== undefined ? { column } : {}) };
  });
}
