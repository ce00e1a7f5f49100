/**
 * The namespace of a CNF, by Tacker's rule (tacker-notes §c/§d, `test_cnf_multi_ns`):
 * `additionalParams.namespace` for every namespaced object; else each object's own
 * `metadata.namespace` (or a legacy VDU's), several namespaces being allowed; else, for objects
 * naming none, the VIM's namespace (`project_name`, the default namespace of the VIM's provider).
 * `namespace` is the CNF's one namespace when there is one; with several it is undefined and each
 * object keeps its own.
 *
 * Codes: CNF_BAD_PARAM, CNF_NAMESPACE_OVERRIDDEN (warning).
 */
import type { DiagnosticBag, SourceLocation } from "../diagnostics";

export interface NamespaceClaim {
  namespace: string;
  /** The object or VDU that names it, e.g. `Deployment vdu2`. */
  what: string;
  where: SourceLocation;
}

export interface ResolvedNamespace {
  /**
   * Undefined: the VIM's namespace (the provider's default namespace); with source `manifests`,
   * several namespaces, each object keeping its own and the others in the VIM's.
   */
  namespace?: string;
  source: "additionalParams" | "manifests" | "vim";
}

const LABEL = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?$/;

export function resolveNamespace(requested: unknown, claims: readonly NamespaceClaim[], bag: DiagnosticBag): ResolvedNamespace {
  const distinct = [...new Set(claims.map((c) => c.namespace))];
  if (requested !== undefined && requested !== null && requested !== "") {
    if (typeof requested !== "string" || requested.length > 63 || !LABEL.test(requested)) {
      bag.error("CNF_BAD_PARAM", `additionalParams.namespace must be a DNS label, found ${JSON.stringify(requested)}`, { path: "additionalParams.namespace" });
      return { source: "additionalParams" };
    }
    for (const c of claims.filter((c) => c.namespace !== requested)) {
      // Tacker v2 forces the requested namespace onto every namespaced object; say so.
      bag.warning(
        "CNF_NAMESPACE_OVERRIDDEN",
        `${c.what} names namespace \`${c.namespace}\`; additionalParams.namespace \`${requested}\` is used instead`,
        c.where,
      );
    }
    return { namespace: requested, source: "additionalParams" };
  }
  // Several: each object stays in its own (objects naming none go to the VIM's), as Tacker deploys test_cnf_multi_ns.
  if (distinct.length > 1) return { source: "manifests" };
  if (distinct.length === 1) return { namespace: distinct[0], source: "manifests" };
  return { source: "vim" };
}
