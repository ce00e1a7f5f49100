/**
 * A kubeconfig built in memory from a Kubernetes VIM's credentials. Nothing is written to disk:
 * the CA and client certificate travel as `*-data` fields, the token inline, OIDC credentials in
 * the environment of an exec credential plugin (./oidc.ts).
 */
import { parse, stringify } from "yaml";
import { oidcExec, oidcFromExec, type ExecConfig, type OidcCredentials } from "./oidc";

export interface KubeconfigParts {
  /** Cluster, user and context name. */
  name: string;
  server: string;
  namespace: string;
  /** PEM bundle of the API server's CA; null means "do not verify TLS". */
  caPem: string | null;
  bearerToken?: string;
  username?: string;
  password?: string;
  clientCertificate?: string;
  clientKey?: string;
  /** Tacker's OIDC: an id_token from a password grant is the bearer token (username/password are the issuer's). */
  oidc?: OidcCredentials;
}

export function buildKubeconfig(p: KubeconfigParts): string {
  const cluster: Record<string, unknown> = { server: p.server };
  if (p.caPem === null) cluster["insecure-skip-tls-verify"] = true;
  else cluster["certificate-authority-data"] = base64(p.caPem);

  // As in Tacker, OIDC wins over a bearer token, and a bearer token over basic auth.
  const user: Record<string, unknown> = {};
  if (p.oidc !== undefined) user.exec = oidcExec(p.oidc, p.caPem);
  else if (p.bearerToken !== undefined) user.token = p.bearerToken;
  else if (p.username !== undefined) {
    user.username = p.username;
    user.password = p.password ?? "";
  }
  if (p.clientCertificate !== undefined && p.clientKey !== undefined) {
    user["client-certificate-data"] = base64(p.clientCertificate);
    user["client-key-data"] = base64(p.clientKey);
  }

  return stringify({
    apiVersion: "v1",
    kind: "Config",
    clusters: [{ name: p.name, cluster }],
    users: [{ name: p.name, user }],
    contexts: [{ name: p.name, context: { cluster: p.name, user: p.name, namespace: p.namespace } }],
    "current-context": p.name,
  });
}

function base64(text: string): string {
  return Buffer.from(text, "utf8").toString("base64");
}

/**
 * The parts of a kubeconfig's current context: the inverse of buildKubeconfig, for a VIM that
 * another stack exports. Throws naming the field that is missing or unusable.
 */
export function parseKubeconfig(text: string): KubeconfigParts {
  const doc = parse(text) as KubeconfigDocument | null;
  const current = doc?.["current-context"];
  if (!current) throw new Error("kubeconfig: current-context is not set");
  // Each list holds `{ name, <item>: {...} }`: `contexts: [{ name, context }]` and so on.
  const named = <T>(list: "contexts" | "clusters" | "users", item: string, wanted: string): T => {
    const found = (doc[list] ?? []).find((e) => e.name === wanted) as Record<string, unknown> | undefined;
    if (!found) throw new Error(`kubeconfig: ${list}: no entry named '${wanted}'`);
    return (found[item] ?? {}) as T;
  };
  const context = named<{ cluster: string; user: string; namespace?: string }>("contexts", "context", current);
  const cluster = named<Record<string, unknown>>("clusters", "cluster", context.cluster);
  const user = named<Record<string, unknown>>("users", "user", context.user);
  if (typeof cluster.server !== "string") throw new Error(`kubeconfig: clusters.${context.cluster}.server is not set`);
  const data = (v: unknown) => (typeof v === "string" ? Buffer.from(v, "base64").toString("utf8") : undefined);
  const caPem = data(cluster["certificate-authority-data"]);
  if (caPem === undefined && cluster["insecure-skip-tls-verify"] !== true) {
    // A CA by file path would have to be on this machine; the VIM's CA travels in the kubeconfig.
    throw new Error(`kubeconfig: clusters.${context.cluster}: certificate-authority-data is not set (and TLS verification is not off)`);
  }
  const str = (v: unknown) => (typeof v === "string" ? v : undefined);
  const parts: KubeconfigParts = {
    name: current,
    server: cluster.server,
    namespace: context.namespace ?? "default",
    caPem: caPem ?? null,
    bearerToken: str(user.token),
    username: str(user.username),
    password: str(user.password),
    clientCertificate: data(user["client-certificate-data"]),
    clientKey: data(user["client-key-data"]),
  };
  if (user.exec !== undefined) {
    try {
      parts.oidc = oidcFromExec(user.exec as Partial<ExecConfig>);
    } catch (e) {
      throw new Error(`kubeconfig: users.${context.user}: ${(e as Error).message}`);
    }
  }
  if (parts.bearerToken === undefined && parts.username === undefined && parts.clientCertificate === undefined && parts.oidc === undefined) {
    throw new Error(`kubeconfig: users.${context.user}: no token, username, client-certificate-data or OIDC exec plugin`);
  }
  return parts;
}

interface KubeconfigDocument {
  "current-context"?: string;
  contexts?: { name: string }[];
  clusters?: { name: string }[];
  users?: { name: string }[];
}
