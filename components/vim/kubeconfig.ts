/**
 * A kubeconfig built in memory from a Kubernetes VIM's credentials. Nothing is written to disk:
 * the CA and client certificate travel as `*-data` fields, the token inline.
 */
import { stringify } from "yaml";

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
}

export function buildKubeconfig(p: KubeconfigParts): string {
  const cluster: Record<string, unknown> = { server: p.server };
  if (p.caPem === null) cluster["insecure-skip-tls-verify"] = true;
  else cluster["certificate-authority-data"] = base64(p.caPem);

  // As in Tacker, a bearer token wins over basic auth when both are given.
  const user: Record<string, unknown> = {};
  if (p.bearerToken !== undefined) user.token = p.bearerToken;
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
