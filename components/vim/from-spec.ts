/**
 * A VIM component from a Tacker `vim-config.yaml` as `readVimConfigFile`/`parseVimConfig` read it:
 * the one place where a spec's plain credentials become Pulumi secrets, for the stack program
 * and for programs that register their VIMs from Tacker's files.
 */
import * as pulumi from "@pulumi/pulumi";
import type { VimSpec } from "../../translators/tacker/vim-config";
import { KubernetesVim } from "./kubernetes-vim";
import { OpenStackVim } from "./openstack-vim";

export interface VimFromSpecOptions {
  /** Kubernetes only: write manifests into this directory instead of calling the API server. */
  renderYamlToDirectory?: string;
}

/** `OpenStackVim` or `KubernetesVim` by the spec's type; password, token, CA, client key and OIDC client secret as secrets. */
export function vimFromSpec(
  name: string,
  spec: VimSpec,
  options: VimFromSpecOptions = {},
  opts?: pulumi.ComponentResourceOptions,
): OpenStackVim | KubernetesVim {
  const secret = (v: string | undefined) => (v === undefined ? undefined : pulumi.secret(v));
  if (spec.type === "openstack") {
    return new OpenStackVim(
      name,
      {
        authUrl: spec.authUrl,
        username: spec.username,
        password: pulumi.secret(spec.password),
        projectName: spec.projectName,
        projectDomainName: spec.projectDomainName,
        userDomainName: spec.userDomainName,
        certVerify: spec.certVerify,
        region: spec.region,
        caCert: secret(spec.caCert),
      },
      opts,
    );
  }
  return new KubernetesVim(
    name,
    {
      authUrl: spec.authUrl,
      bearerToken: secret(spec.bearerToken),
      username: spec.username,
      password: secret(spec.password),
      sslCaCert: spec.sslCaCert === null ? null : pulumi.secret(spec.sslCaCert),
      clientCertificate: secret(spec.clientCertificate),
      clientKey: secret(spec.clientKey),
      oidcTokenUrl: spec.oidc?.tokenUrl,
      clientId: spec.oidc?.clientId,
      clientSecret: secret(spec.oidc?.clientSecret),
      projectName: spec.projectName,
      extra: spec.extra,
      renderYamlToDirectory: options.renderYamlToDirectory,
    },
    opts,
  );
}
