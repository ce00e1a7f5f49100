/**
 * Phase 2: the entry definitions and everything they import, each parsed once.
 *
 * Imports are resolved relative to the importing file. Tacker v2 does not follow imports at all: it
 * loads every YAML in `Definitions/` and picks flavours by `substitution_mappings`; we follow
 * imports and then add flavour files that the entry does not import (leniency `L6`), except when
 * the user named one YAML file: then its neighbours are none of its business.
 */
import { posix } from "node:path";
import type { PackageSource } from "../phase1-read/package-source";
import type { Problems } from "../problems";
import { parseYamlFast } from "./fast-yaml";

/** One parsed service template. */
export interface ToscaFile {
  /** Package-relative path. */
  file: string;
  doc: Record<string, unknown>;
  /** `tosca_definitions_version`. */
  version: string;
  /** The files its `imports` resolve to, in their order (unresolvable ones left out). */
  imports: string[];
}

export interface LoadedDocuments {
  /** Every file, imports before importers. */
  files: ToscaFile[];
  entry?: ToscaFile;
  /** Files loaded only by L6 (not imported from the entry). */
  unimported: Set<string>;
}

export const SUPPORTED_VERSIONS = [
  "tosca_simple_yaml_1_0",
  "tosca_simple_yaml_1_1",
  "tosca_simple_yaml_1_2",
  "tosca_simple_yaml_1_3",
  "tosca_simple_profile_for_nfv_1_0_0",
];

const TOP_LEVEL_KEYS = new Set([
  "tosca_definitions_version",
  "namespace",
  "metadata",
  "description",
  "dsl_definitions",
  "repositories",
  "imports",
  "artifact_types",
  "data_types",
  "capability_types",
  "interface_types",
  "relationship_types",
  "node_types",
  "group_types",
  "policy_types",
  "topology_template",
]);

export function loadDocuments(source: PackageSource, entry: string, problems: Problems, singleFile: boolean): LoadedDocuments {
  const loaded = new Map<string, ToscaFile | null>();
  const files: ToscaFile[] = [];
  const visiting: string[] = [];

  const load = (file: string): void => {
    if (loaded.has(file)) return;
    loaded.set(file, null);
    const parsed = parseFile(source, file, problems);
    if (!parsed) return;
    visiting.push(file);
    // A legacy NSD's imports name VNFDs onboarded before it (Tacker's catalog), not files.
    const imports = parsed.version === "tosca_simple_profile_for_nfv_1_0_0" ? undefined : parsed.doc.imports;
    if (imports !== undefined && imports !== null) {
      if (!Array.isArray(imports)) problems.error("IMPORT_SYNTAX", "`imports` must be a list", file, ["imports"]);
      else
        imports.forEach((imp, i) => {
          const target = resolveImport(source, file, imp, ["imports", i], problems);
          if (target === undefined) return;
          parsed.imports.push(target);
          const cycleStart = visiting.indexOf(target);
          if (cycleStart >= 0) {
            const chain = [...visiting.slice(cycleStart), target].join(" → ");
            problems.error("IMPORT_CYCLE", `import cycle: ${chain}`, file, ["imports", i]);
            return;
          }
          load(target);
        });
    }
    visiting.pop();
    loaded.set(file, parsed);
    files.push(parsed);
  };

  load(entry);
  const entryFile = loaded.get(entry) ?? undefined;
  const imported = new Set(loaded.keys());
  // L6: flavour files next to the entry that it does not import (Tacker v2 loads all of Definitions/).
  if (entryFile && !singleFile && entryFile.version !== "tosca_simple_profile_for_nfv_1_0_0") {
    const dir = posix.dirname(entry);
    for (const f of source.list()) {
      if (loaded.has(f) || posix.dirname(f) !== dir || !/\.ya?ml$/i.test(f)) continue;
      const text = source.read(f)?.toString("utf8") ?? "";
      if (/^\s+substitution_mappings:/m.test(text)) load(f);
    }
  }
  return { files, entry: entryFile, unimported: new Set(files.map((f) => f.file).filter((f) => !imported.has(f))) };
}

function parseFile(source: PackageSource, file: string, problems: Problems): ToscaFile | undefined {
  const text = source.read(file)?.toString("utf8");
  if (text === undefined) return undefined;
  const parsed = parseYamlFast(text, source.display(file));
  problems.add(...parsed.diagnostics);
  for (const t of parsed.tolerated) problems.tolerate(t);
  if (parsed.value === undefined) {
    if (!parsed.diagnostics.some((d) => d.severity === "error")) problems.error("TOSCA_NOT_A_TEMPLATE", "the file is empty", file);
    return undefined;
  }
  const doc = parsed.value;
  if (doc === null || typeof doc !== "object" || Array.isArray(doc)) {
    problems.error("TOSCA_NOT_A_TEMPLATE", "a TOSCA service template must be a YAML map", file);
    return undefined;
  }
  const map = doc as Record<string, unknown>;
  const version = map.tosca_definitions_version;
  if (typeof version !== "string") {
    problems.error("TOSCA_VERSION_MISSING", "`tosca_definitions_version` is required", file);
    return undefined;
  }
  if (!SUPPORTED_VERSIONS.includes(version)) {
    problems.error("TOSCA_VERSION_UNSUPPORTED", `unsupported tosca_definitions_version \`${version}\` (supported: ${SUPPORTED_VERSIONS.join(", ")})`, file, [
      "tosca_definitions_version",
    ]);
    return undefined;
  }
  for (const key of Object.keys(map)) {
    if (!TOP_LEVEL_KEYS.has(key)) problems.error("TOSCA_UNKNOWN_KEY", `unknown top-level key \`${key}\``, file, [key], true);
  }
  return { file, doc: map, version, imports: [] };
}

/** Package-relative path of an import, or undefined after reporting why it cannot be used. */
function resolveImport(source: PackageSource, importer: string, imp: unknown, path: (string | number)[], problems: Problems): string | undefined {
  let name: unknown = imp;
  if (imp !== null && typeof imp === "object" && !Array.isArray(imp)) {
    const m = imp as Record<string, unknown>;
    // TOSCA 1.0 also allows `- name: file`; 1.2 uses `- file: x`.
    name = "file" in m ? m.file : Object.keys(m).length === 1 ? Object.values(m)[0] : undefined;
    if (typeof name === "string" && "file" in m) path = [...path, "file"];
  }
  if (typeof name !== "string" || name === "") {
    problems.error("IMPORT_SYNTAX", "an import is a file name or `{file: name}`", importer, path);
    return undefined;
  }
  const dir = posix.dirname(importer);
  if (/^[a-z][a-z0-9+.-]*:\/\//i.test(name)) {
    // L1: ETSI's type files import each other by forge.etsi.org URL; use the copy in the package.
    const local = posix.join(dir, posix.basename(name));
    if (source.read(local)) return local;
    problems.error(
      "IMPORT_NOT_FOUND",
      `import \`${name}\` is a URL and no file \`${posix.basename(name)}\` is next to \`${importer}\` (URLs are not downloaded)`,
      importer,
      path,
    );
    return undefined;
  }
  if (name.startsWith("/")) {
    problems.error("IMPORT_OUTSIDE_PACKAGE", `import \`${name}\` is an absolute path`, importer, path);
    return undefined;
  }
  const target = posix.normalize(posix.join(dir, name));
  if (target.startsWith("../") || target === "..") {
    problems.error("IMPORT_OUTSIDE_PACKAGE", `import \`${name}\` points outside the package`, importer, path);
    return undefined;
  }
  if (!source.read(target)) {
    problems.error("IMPORT_NOT_FOUND", `imported file \`${target}\` is not in the package`, importer, path);
    return undefined;
  }
  return target;
}
