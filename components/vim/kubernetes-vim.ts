import * as k8s from "@pulumi/kubernetes";
import * as pulumi from "@pulumi/pulumi";
import { isNoneCa, parseCertificateBundle, parsePrivateKey } from "../../translators/pem";
import { buildKubeconfig } from "../../clients/kubeconfig";
import { kubernetesVimRecord, vimId, type TackerVimRecord } from "./vim-record";

/** A Kubernetes VIM, field for field Tacker's `vim-config.yaml` with `type: kubernetes`. */
export interface KubernetesVimArgs {
  /** API server URL (Tacker `auth_url`), e.g. `https://192.0.2.10:6443`. */
  authUrl: pulumi.Input<string>;
  /** Bearer token (Tacker `bearer_token`). Give this, or `username` and `password`. Wins over basic auth. */
  bearerToken?: pulumi.Input<string>;
  /** Basic-auth user name (Tacker `username`); with `oidcTokenUrl`, the OIDC issuer's user. */
  username?: pulumi.Input<string>;
  /** Basic-auth password (Tacker `password`); with `oidcTokenUrl`, the OIDC issuer's user's. */
  password?: pulumi.Input<string>;
  /**
   * Tacker `oidc_token_url`: the OIDC issuer's token endpoint. With `clientId`, `username` and
   * `password`, an id_token from a password grant is the bearer token, asked for again when it
   * expires (a kubeconfig exec plugin; the issuer's TLS is verified with `sslCaCert`, which may
   * bundle the API server's and the issuer's CAs, as in Tacker). Wins over `bearerToken`.
   */
  oidcTokenUrl?: pulumi.Input<string>;
  /** Tacker `client_id`: the OIDC client (goes with `oidcTokenUrl`). */
  clientId?: pulumi.Input<string>;
  /** Tacker `client_secret`: the OIDC client's secret, for a confidential client. */
  clientSecret?: pulumi.Input<string>;
  /**
   * PEM bundle of the API server's CA (Tacker `ssl_ca_cert`). Line breaks folded by YAML are
   * repaired. `None`/`none`/null/absent means TLS is NOT verified; a warning is printed.
   */
  sslCaCert?: pulumi.Input<string | null>;
  /** Client certificate PEM (pulumi-nfv extension; goes with `clientKey`). */
  clientCertificate?: pulumi.Input<string>;
  /** Client private key PEM (pulumi-nfv extension; goes with `clientCertificate`). */
  clientKey?: pulumi.Input<string>;
  /** Default namespace for everything deployed on this VIM (Tacker `project_name`); default `default`. */
  projectName?: pulumi.Input<string>;
  /** Tacker `extra`, e.g. `{use_helm: true}`; recorded in the VIM record. */
  extra?: pulumi.Input<Record<string, unknown>>;
  /** Name in the VIM record; defaults to the component's name. */
  vimName?: pulumi.Input<string>;
  /**
   * Write manifests into this directory instead of calling the API server (the provider's
   * `renderYamlToDirectory` mode, for offline previews and the local lab). No credential is needed
   * then; `authUrl` is only recorded.
   */
  renderYamlToDirectory?: pulumi.Input<string>;
}

/**
 * Registers a Kubernetes cluster as a VIM: a `kubernetes.Provider` built from an in-memory
 * kubeconfig, plus the record Tacker would store. Credentials are secrets from input to output.
 */
export class KubernetesVim extends pulumi.ComponentResource {
  /** Provider for everything deployed on this VIM; its default namespace is `namespace`. */
  readonly provider: k8s.Provider;
  /** The kubeconfig (secret). */
  readonly kubeconfig: pulumi.Output<string>;
  readonly endpoint: pulumi.Output<string>;
  readonly namespace: pulumi.Output<string>;
  /** As `openstack vim show -f json` prints it, credentials masked. */
  readonly vimRecord: pulumi.Output<TackerVimRecord>;

  constructor(name: string, args: KubernetesVimArgs, opts?: pulumi.ComponentResourceOptions) {
    // Values known now are checked before anything is registered; values that arrive as Outputs
    // are checked when they resolve (in the kubeconfig below).
    if (typeof args.sslCaCert === "string" && !isNoneCa(args.sslCaCert)) {
      const parsed = parseCertificateBundle(args.sslCaCert);
      if (!parsed.ok) throw new Error(`KubernetesVim '${name}': sslCaCert: ${parsed.reason}`);
    }
    // Rendering asks no API server, so it needs no credentials (an offline preview has none).
    if (args.renderYamlToDirectory === undefined && args.bearerToken === undefined && args.username === undefined && args.clientCertificate === undefined) {
      throw new Error(`KubernetesVim '${name}': credentials: give bearerToken, or username and password`);
    }
    if (args.oidcTokenUrl !== undefined && (args.clientId === undefined || args.username === undefined || args.password === undefined)) {
      throw new Error(`KubernetesVim '${name}': oidcTokenUrl needs clientId, username and password`);
    }
    super("nfv:vim:KubernetesVim", name, {}, opts);

    const vimName = pulumi.output(args.vimName ?? name);
    this.endpoint = pulumi.output(args.authUrl);
    this.namespace = pulumi.output(args.projectName ?? "default");

    this.kubeconfig = pulumi.secret(
      pulumi
        .output({
          vim: vimName,
          server: this.endpoint,
          namespace: this.namespace,
          ca: args.sslCaCert,
          bearerToken: args.bearerToken,
          username: args.username,
          password: args.password,
          clientCertificate: args.clientCertificate,
          clientKey: args.clientKey,
          tokenUrl: args.oidcTokenUrl,
          clientId: args.clientId,
          clientSecret: args.clientSecret,
        })
        .apply(({ vim, server, namespace, ca, bearerToken, username, password, clientCertificate, clientKey, tokenUrl, clientId, clientSecret }) => {
          const fail = (field: string, reason: string): never => {
            throw new Error(`KubernetesVim '${name}': ${field}: ${reason}`);
          };
          let caPem: string | null = null;
          if (isNoneCa(ca)) {
            // Rendering makes no connection to warn about.
            if (args.renderYamlToDirectory === undefined) pulumi.log.warn(`VIM '${vim}': ssl_ca_cert is None, so TLS to ${server} is NOT verified`, this);
          } else {
            const parsed = parseCertificateBundle(ca as string);
            caPem = parsed.ok ? parsed.pem : fail("sslCaCert", parsed.reason);
          }
          let keyPem: string | undefined;
          if (clientKey !== undefined) {
            const parsed = parsePrivateKey(clientKey);
            keyPem = parsed.ok ? parsed.pem : fail("clientKey", parsed.reason);
          }
          const oidc =
            tokenUrl === undefined
              ? undefined
              : { tokenUrl, clientId: clientId!, username: username!, password: password!, ...(clientSecret === undefined ? {} : { clientSecret }) };
          return buildKubeconfig({ name: vim, server, namespace, caPem, bearerToken, username, password, clientCertificate, clientKey: keyPem, oidc });
        }),
    );

    // The 4.x provider refuses an explicit kubeconfig in render mode, so pass one or the other.
    const render = args.renderYamlToDirectory;
    this.provider = new k8s.Provider(
      `${name}-provider`,
      render === undefined ? { kubeconfig: this.kubeconfig, namespace: this.namespace } : { renderYamlToDirectory: render, namespace: this.namespace },
      { parent: this },
    );

    // Whether a credential is set is not itself secret; unsecret it so the record stays readable.
    const present = (v: pulumi.Input<string | null> | undefined) => pulumi.unsecret(pulumi.output(v).apply((x) => !isNoneCa(x)));
    this.vimRecord = pulumi
      .output({
        vim: vimName,
        authUrl: this.endpoint,
        namespace: this.namespace,
        username: args.username,
        hasToken: present(args.bearerToken),
        hasPassword: present(args.password),
        hasCa: present(args.sslCaCert),
        oidcTokenUrl: args.oidcTokenUrl,
        clientId: args.clientId,
        hasClientSecret: present(args.clientSecret),
        extra: args.extra,
      })
      .apply(({ vim, authUrl, namespace, username, hasToken, hasPassword, hasCa, oidcTokenUrl, clientId, hasClientSecret, extra }) =>
        kubernetesVimRecord({
          id: vimId(pulumi.getStack(), vim),
          name: vim,
          authUrl,
          namespace,
          username,
          hasToken,
          hasPassword,
          hasCa,
          oidc: oidcTokenUrl === undefined ? undefined : { tokenUrl: oidcTokenUrl, clientId: clientId!, hasClientSecret },
          extra,
        }),
      );

    this.registerOutputs({
      provider: this.provider,
      kubeconfig: this.kubeconfig,
      endpoint: this.endpoint,
      namespace: this.namespace,
      vimRecord: this.vimRecord,
    });
  }
}
