/**
 * Kubernetes manifests of a CNF package: Tacker's contract (tacker-notes §d).
 *
 * The instantiate request lists them (`additionalParams["lcm-kubernetes-def-files"]`); each must be
 * an artifact declared in the package. Every document is parsed with positions and checked: a
 * Kubernetes object (`apiVersion`, `kind`, `metadata.name`), of a supported kind or of a custom
 * resource whose CRD is in the same manifests, named once. Problems are collected, never thrown.
 *
 * Codes: CNF_BAD_PARAM, CNF_MANIFEST_NOT_DECLARED, CNF_MANIFEST_MISSING, YAML_* (from the YAML
 * reader), CNF_NOT_KUBERNETES_OBJECT, CNF_BAD_NAME, CNF_UNSUPPORTED_KIND, CNF_KIND_IGNORED
 * (warning), CNF_DUPLICATE_OBJECT.
 */
import type { DiagnosticBag, SourceLocation } from "../diagnostics";
import { parseYaml, type LocatedDocument, type YamlPath } from "../yaml/located-yaml";
import { apiVersionsOf, BUILTIN_KINDS, IGNORED_KINDS, pluralOf, type KindInfo } from "./kinds";
import { gvk, type KubeObject } from "./objects";

/** Tacker's key in `additionalParams` that lists the manifests to deploy. */
export const DEF_FILES_PARAM = "lcm-kubernetes-def-files";

export interface ManifestDoc {
  object: KubeObject;
  info: KindInfo;
  /** Package-relative path of the file. */
  file: string;
  /** 0-based document index in the file. */
  index: number;
  doc: LocatedDocument;
}

/** Reads package files (a package directory, a zip in memory, or a map in tests). */
export interface ManifestReader {
  /** File contents, package-relative path → text; absent when the file is not in the package. */
  read(path: string): string | undefined;
  /** How a path is printed (e.g. prefixed with the package directory). Default: as is. */
  display?(path: string): string;
}

export interface ManifestSource extends ManifestReader {
  /** Package-relative paths of declared artifacts (`VnfModel.kubernetesManifests`). */
  declared: readonly string[];
}

/** Reads `lcm-kubernetes-def-files` from `additionalParams`; undefined when the key is absent. */
export function defFilesOf(additionalParams: Record<string, unknown> | undefined, bag: DiagnosticBag): string[] | undefined {
  const raw = additionalParams?.[DEF_FILES_PARAM];
  if (raw === undefined || raw === null) return undefined;
  if (!Array.isArray(raw) || raw.some((p) => typeof p !== "string" || p === "")) {
    bag.error("CNF_BAD_PARAM", `additionalParams["${DEF_FILES_PARAM}"] must be a list of package paths`, { path: `additionalParams.${DEF_FILES_PARAM}` });
    return [];
  }
  return raw as string[];
}

const NAME = /^[a-z0-9]([-a-z0-9.]*[a-z0-9])?$/;

/** Parses and checks the listed manifests, in list order (Tacker v2 order). */
export function loadManifests(files: readonly string[], source: ManifestSource, bag: DiagnosticBag): ManifestDoc[] {
  const display = (p: string) => (source.display ? source.display(p) : p);
  const declared = new Set(source.declared.map(normalise));
  const parsed: { file: string; doc: LocatedDocument; index: number }[] = [];
  files.forEach((raw, i) => {
    const file = normalise(raw);
    const where: SourceLocation = { path: `additionalParams.${DEF_FILES_PARAM}[${i}]` };
    if (!declared.has(file)) {
      const known = [...declared];
      bag.error(
        "CNF_MANIFEST_NOT_DECLARED",
        `\`${raw}\` is not an artifact of the package (declared manifests: ${known.length ? known.join(", ") : "none"})`,
        where,
      );
      return;
    }
    const text = source.read(file);
    if (text === undefined) {
      bag.error("CNF_MANIFEST_MISSING", `\`${raw}\` is declared in the package but the file is missing`, where);
      return;
    }
    const yaml = parseYaml(text, display(file));
    bag.add(...yaml.diagnostics.items);
    yaml.documents.forEach((doc, index) => parsed.push({ file, doc, index }));
  });

  // Custom resource kinds come from the CRDs of the same manifests, wherever they are listed.
  const custom = new Map<string, KindInfo>();
  for (const p of parsed) for (const info of crdKinds(p.doc.value)) custom.set(gvk(info), info);

  const out: ManifestDoc[] = [];
  const seen = new Map<string, ManifestDoc>();
  for (const { file, doc, index } of parsed) {
    const v = doc.value;
    if (v === null || v === undefined) continue; // an empty document (`---` at the end)
    const at = (path: YamlPath) => doc.location(path);
    if (typeof v !== "object" || Array.isArray(v)) {
      bag.error("CNF_NOT_KUBERNETES_OBJECT", `document ${index + 1} is not a Kubernetes object (a mapping with apiVersion, kind and metadata)`, at([]));
      continue;
    }
    const o = v as Record<string, unknown>;
    if (typeof o.apiVersion !== "string" || typeof o.kind !== "string") {
      bag.error(
        "CNF_NOT_KUBERNETES_OBJECT",
        `document ${index + 1} is not a Kubernetes object: it needs string \`apiVersion\` and \`kind\``,
        at(typeof o.apiVersion !== "string" ? ["apiVersion"] : ["kind"]),
      );
      continue;
    }
    if (IGNORED_KINDS.has(o.kind)) {
      bag.warning("CNF_KIND_IGNORED", `${o.kind} is a request, not an object a program can own; skipped`, at(["kind"]));
      continue;
    }
    const meta = o.metadata;
    const name = meta !== null && typeof meta === "object" && !Array.isArray(meta) ? (meta as Record<string, unknown>).name : undefined;
    if (typeof name !== "string" || name === "") {
      bag.error("CNF_NOT_KUBERNETES_OBJECT", `${o.kind} in document ${index + 1} has no \`metadata.name\``, at(["metadata"]));
      continue;
    }
    if (name.length > 253 || !NAME.test(name)) {
      bag.error("CNF_BAD_NAME", `${o.kind} \`${name}\`: a name is lower-case letters, digits, \`-\` and \`.\` (at most 253)`, at(["metadata", "name"]));
      continue;
    }
    const key = `${o.apiVersion}/${o.kind}`;
    const info = BUILTIN_KINDS.get(key) ?? custom.get(key);
    if (!info) {
      const versions = apiVersionsOf(o.kind);
      const hint = versions.length
        ? `; ${o.kind} is supported as ${versions.join(", ")}`
        : "; declare its CustomResourceDefinition in the manifests to deploy a custom resource";
      bag.error("CNF_UNSUPPORTED_KIND", `${o.kind} \`${name}\`: \`${o.apiVersion}\` ${o.kind} is not supported${hint}`, at(["apiVersion"]));
      continue;
    }
    const object = o as KubeObject;
    const ns = typeof object.metadata.namespace === "string" ? object.metadata.namespace : "";
    const id = `${object.kind}|${info.namespaced ? ns : ""}|${name}`;
    const previous = seen.get(id);
    if (previous) {
      const p = previous.doc.location(["metadata", "name"]);
      bag.error("CNF_DUPLICATE_OBJECT", `${object.kind} \`${name}\` is defined twice (first at ${p.file}:${p.line ?? "?"})`, at(["metadata", "name"]));
      continue;
    }
    const entry: ManifestDoc = { object, info, file, index, doc };
    seen.set(id, entry);
    out.push(entry);
  }
  return out;
}

/** The kinds a CRD document defines (`apiextensions.k8s.io/v1` only). */
function crdKinds(v: unknown): KindInfo[] {
  const o = v as {
    apiVersion?: unknown;
    kind?: unknown;
    spec?: { group?: unknown; scope?: unknown; names?: { kind?: unknown; plural?: unknown }; versions?: unknown };
  } | null;
  if (!o || typeof o !== "object" || o.apiVersion !== "apiextensions.k8s.io/v1" || o.kind !== "CustomResourceDefinition") return [];
  const { group, scope, names, versions } = o.spec ?? {};
  if (typeof group !== "string" || typeof names?.kind !== "string" || !Array.isArray(versions)) return [];
  return versions
    .map((ver) => (ver && typeof ver === "object" ? (ver as { name?: unknown }).name : undefined))
    .filter((n): n is string => typeof n === "string")
    .map((n) => ({
      apiVersion: `${group}/${n}`,
      kind: names.kind as string,
      namespaced: scope !== "Cluster",
      tier: "custom" as const,
      plural: typeof names.plural === "string" ? names.plural : pluralOf(names.kind as string),
    }));
}

function normalise(p: string): string {
  return p.replace(/^\.\//, "");
}

/** Adapts the package translator's `PackageSource` (directory, zip, memory) to a manifest reader. */
export function manifestReader(source: { read(file: string): Buffer | undefined; display(file: string): string }): ManifestReader {
  return { read: (p) => source.read(p)?.toString("utf8"), display: (p) => source.display(p) };
}
