/**
 * The namespace of a CNF, by Tacker's rule (tacker-notes §c/§d): `additionalParams.namespace`,
 * else the namespace the manifests (or legacy VDUs) name, which must all agree, else the VIM's
 * namespace (`project_name`, the default namespace of the VIM's provider).
 *
 * Codes: CNF_BAD_PARAM, CNF_NAMESPACE_CONFLICT, CNF_NAMESPACE_OVERRIDDEN (warning).
 */
import type { DiagnosticBag, SourceLocation } from "../diagnostics";

export interface NamespaceClaim {
  namespace: string;
  /** The object or VDU that names it, e.g. `Deployment vdu2`. */
  what: string;
  where: SourceLocation;
}

export interface ResolvedNamespace {
  /** Undefined: the VIM's namespace (the provider's default namespace). */
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
      bag.warning("CNF_NAMESPACE_OVERRIDDEN", `${c.what} names namespace \`${c.namespace}\`; additionalParams.namespace \`${requested}\` is used instead`, c.where);
    }
    return { namespace: requested, source: "additionalParams" };
  }
  if (distinct.length > 1) {
    for (const c of claims) {
      bag.error("CNF_NAMESPACE_CONFLICT", `${c.what} is in namespace \`${c.namespace}\`, but the manifests name ${distinct.map((n) => `\`${n}\``).join(" and ")}; they must agree (or set additionalParams.namespace)`, c.where);
    }
    return { source: "manifests" };
  }
  if (distinct.length === 1) return { namespace: distinct[0], source: "manifests" };
  return { source: "vim" };
}
