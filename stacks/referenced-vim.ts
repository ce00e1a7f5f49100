/**
 * A Kubernetes VIM that another stack exports, read through a StackReference: the cluster stack
 * (K8sCluster, MagnumCluster, or any stack with a Kubernetes VIM) exports each VIM's kubeconfig as
 * the secret `kubeconfigs.<vim>`, and the CNF stack registers the same VIM from it. Credentials
 * stay secrets; the endpoint, namespace and CA are not secret and are shown in the VIM's record.
 */
import * as pulumi from "@pulumi/pulumi";
import { KubernetesVim } from "../components/vim";
import { parseKubeconfig, type KubeconfigParts } from "../clients/kubeconfig";
import type { StackReferenceVim } from "./config";

export async function referencedKubernetesVim(name: string, ref: StackReferenceVim): Promise<KubernetesVim> {
  const other = new pulumi.StackReference(`${name}-stack`, { name: ref.stack });
  // Read before anything is registered on it: a wrong reference fails the program at once, with
  // its own message, rather than inside the provider's inputs.
  const details = await other.getOutputDetails("kubeconfigs");
  const parts = referencedKubeconfig(name, ref, details.secretValue ?? details.value);
  const secret = (v: string | undefined) => (v === undefined ? undefined : pulumi.secret(v));
  return new KubernetesVim(name, {
    authUrl: parts.server,
    sslCaCert: parts.caPem,
    bearerToken: secret(parts.bearerToken),
    username: parts.username ?? parts.oidc?.username,
    password: secret(parts.password ?? parts.oidc?.password),
    clientCertificate: secret(parts.clientCertificate),
    clientKey: secret(parts.clientKey),
    oidcTokenUrl: parts.oidc?.tokenUrl,
    clientId: parts.oidc?.clientId,
    clientSecret: secret(parts.oidc?.clientSecret),
    projectName: parts.namespace,
  });
}

/** The parts of `ref.vim`'s kubeconfig in the other stack's `kubeconfigs` output; located errors. */
export function referencedKubeconfig(name: string, ref: StackReferenceVim, kubeconfigs: unknown): KubeconfigParts {
  const all = (kubeconfigs ?? {}) as Record<string, unknown>;
  const where = `VIM '${name}' (stack_reference ${ref.stack}, vim ${ref.vim})`;
  const text = all[ref.vim];
  if (typeof text !== "string") {
    throw new Error(`${where}: that stack exports no Kubernetes VIM '${ref.vim}'; its kubeconfigs output has: ${Object.keys(all).join(", ") || "none"}`);
  }
  try {
    return parseKubeconfig(text);
  } catch (e) {
    throw new Error(`${where}: ${(e as Error).message}`);
  }
}
