/**
 * Plain Kubernetes objects as the CNF translator produces them: JSON, no Pulumi types, so that a
 * plan can be printed, diffed, schema-validated and unit-tested without an engine.
 */
import { createHash } from "node:crypto";
import type { SourceLocation } from "../diagnostics";

export interface ObjectMeta {
  name: string;
  namespace?: string;
  labels?: Record<string, string>;
  annotations?: Record<string, string>;
  [key: string]: unknown;
}

/** A Kubernetes object: `apiVersion`, `kind`, `metadata` and the kind's own fields. */
export interface KubeObject {
  apiVersion: string;
  kind: string;
  metadata: ObjectMeta;
  [key: string]: unknown;
}

/** Where a planned object came from: a manifest document, or a VDU of the VNFD. */
export interface ObjectOrigin extends SourceLocation {
  /** `manifest` (a file listed in `lcm-kubernetes-def-files`), `legacy` (a `VDU.Tacker`), `container-vdu`. */
  source: "manifest" | "legacy" | "container-vdu";
  /** The VDU the object was generated from or is bound to, if any. */
  vduId?: string;
}

/** Where an object is created, relative to others (see `order.ts`). */
export type Tier = number;

export interface PlannedObject {
  object: KubeObject;
  origin: ObjectOrigin;
  /** Whether the kind is namespaced (then `metadata.namespace` is the VNF's namespace). */
  namespaced: boolean;
  /** The kind's resource name in API paths (`deployments`). */
  plural: string;
  tier: Tier;
  /** Pulumi child-name suffix, unique within the component: `<kind>-<name>` lower-cased. */
  key: string;
}

/** `apiVersion/kind`, the key of the kind tables. */
export function gvk(o: { apiVersion: string; kind: string }): string {
  return `${o.apiVersion}/${o.kind}`;
}

/** `Kind/name` or `Kind namespace/name`, how objects are named in messages. */
export function describe(o: KubeObject): string {
  const ns = o.metadata.namespace ? `${o.metadata.namespace}/` : "";
  return `${o.kind} ${ns}${o.metadata.name}`;
}

/** First 8 hex digits of SHA-256: deterministic, DNS-safe, short. */
export function shortHash(text: string): string {
  return createHash("sha256").update(text).digest("hex").slice(0, 8);
}

/** A DNS-1123 label from free text: lower case, `_` and other characters → `-`, at most `max` characters. */
export function dnsLabel(text: string, max = 63): string {
  const s = text
    .toLowerCase()
    .replace(/[^a-z0-9-]+/g, "-")
    .replace(/^-+/, "")
    .slice(0, max)
    .replace(/-+$/, "");
  return s === "" ? "x" : s;
}

/** Deep copy of plain JSON data (manifests are never mutated in place). */
export function clone<T>(v: T): T {
  return JSON.parse(JSON.stringify(v)) as T;
}
