/**
 * `TOSCA-Metadata/TOSCA.meta` and SOL004 manifest (`.mf`) files: `Key: value` lines in blocks
 * separated by blank lines. The first block holds package keys (`Entry-Definitions`, …); later
 * blocks describe artifacts (`Name:` in TOSCA.meta, `Source:` in a manifest).
 */
import type { Diagnostic } from "../../diagnostics";

export const TOSCA_META = "TOSCA-Metadata/TOSCA.meta";

export interface ArtifactEntry {
  /** `Name`/`Source`: a package-relative path or a URL. */
  name: string;
  contentType?: string;
  /** Upper-cased, e.g. `SHA-256`. */
  algorithm?: string;
  hash?: string;
  /** 1-based line of the `Name`/`Source` key. */
  line: number;
  /** The file (TOSCA.meta or manifest) that lists the artifact. */
  file: string;
}

export interface MetaFile {
  /** Keys of the first block (for a manifest, the `metadata:` section), keys as written. */
  header: Map<string, { value: string; line: number }>;
  artifacts: ArtifactEntry[];
}

/**
 * @param file package-relative name, recorded on each artifact
 * @param shown how the file is printed in diagnostics
 */
export function parseMetaFile(text: string, file: string, shown: string, diagnostics: Diagnostic[]): MetaFile {
  const header = new Map<string, { value: string; line: number }>();
  const artifacts: ArtifactEntry[] = [];
  let current: ArtifactEntry | undefined;
  let inHeader = true;
  const lines = text.split(/\r?\n/);
  let signature = false;
  lines.forEach((raw, i) => {
    const line = i + 1;
    if (signature) {
      if (raw.startsWith("-----END")) signature = false;
      return;
    }
    if (raw.startsWith("-----BEGIN")) {
      signature = true; // a CMS signature block (SOL004 signed manifest): not key/value data
      return;
    }
    if (raw.trim() === "") {
      if (header.size > 0) inHeader = false;
      current = undefined;
      return;
    }
    if (raw.trim().startsWith("#")) return;
    const colon = raw.indexOf(":");
    if (colon <= 0) {
      diagnostics.push({ severity: "error", code: "PKG_META_SYNTAX", message: "expected `Key: value`", file: shown, line, column: 1 });
      return;
    }
    const key = raw.slice(0, colon).trim();
    const value = raw.slice(colon + 1).trim();
    // A manifest opens with `metadata:` and indented keys; they belong to the header.
    if (key === "metadata" && value === "") return;
    const lower = key.toLowerCase();
    if (lower === "name" || lower === "source") {
      inHeader = false;
      current = { name: value, line, file };
      artifacts.push(current);
      return;
    }
    if (current) {
      if (lower === "content-type") current.contentType = value;
      else if (lower === "algorithm") current.algorithm = value.toUpperCase();
      else if (lower === "hash") current.hash = value;
      return;
    }
    if (inHeader) header.set(key, { value, line });
  });
  return { header, artifacts };
}
