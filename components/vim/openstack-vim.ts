import * as openstack from "@pulumi/openstack";
import * as pulumi from "@pulumi/pulumi";
import { parseCertificateBundle } from "../../translators/pem";
import type { KeystoneCredentials } from "../../clients/openstack";
import { fetchServerPlacement, type ServerPlacement, type ServerPlacementSource } from "./server-placement";
import { openStackVimRecord, vimId, type TackerVimRecord } from "./vim-record";

/** An OpenStack VIM, field for field Tacker's `vim-config.yaml` (type `openstack`, the default). */
export interface OpenStackVimArgs {
  /** Keystone URL (Tacker `auth_url`), e.g. `http://192.0.2.10/identity`. */
  authUrl: pulumi.Input<string>;
  /** Tacker `username`. */
  username: pulumi.Input<string>;
  /** Tacker `password`; kept secret. */
  password: pulumi.Input<string>;
  /** Tacker `project_name`: the project resources are created in. */
  projectName: pulumi.Input<string>;
  /** Tacker `project_domain_name`; default `Default`. */
  projectDomainName?: pulumi.Input<string>;
  /** Tacker `user_domain_name`; default `Default`. */
  userDomainName?: pulumi.Input<string>;
  /** Tacker `cert_verify`; default true. False prints a warning: TLS to Keystone is then not verified. */
  certVerify?: pulumi.Input<boolean>;
  /** Region name; default: the cloud's only region. */
  region?: pulumi.Input<string>;
  /** PEM bundle of the Keystone CA (pulumi-nfv extension); passed as content, never as a file. */
  caCert?: pulumi.Input<string>;
  /** Name in the VIM record; defaults to the component's name. */
  vimName?: pulumi.Input<string>;
}

/** Who an `openstack.Provider` logs in to Keystone as: the VIM's login fields, and whether TLS is verified. */
export type KeystoneLogin = Pick<
  OpenStackVimArgs,
  "authUrl" | "username" | "password" | "projectName" | "projectDomainName" | "userDomainName" | "region" | "caCert"
> & {
  /** True: TLS to Keystone not verified. */
  insecure?: pulumi.Input<boolean>;
};

/** The one mapping of a Keystone login onto the openstack provider's settings: a VIM's provider and
 * any other provider made for a cloud (the control plane's setup provider) log in alike. */
export function keystoneProvider(name: string, login: KeystoneLogin, opts: pulumi.CustomResourceOptions): openstack.Provider {
  return new openstack.Provider(
    name,
    {
      authUrl: login.authUrl,
      userName: login.username,
      password: pulumi.secret(login.password),
      tenantName: login.projectName,
      projectDomainName: login.projectDomainName ?? "Default",
      userDomainName: login.userDomainName ?? "Default",
      insecure: login.insecure,
      region: login.region,
      cacertFile: login.caCert,
    },
    opts,
  );
}

/** Registers an OpenStack cloud as a VIM: an `openstack.Provider` plus the record Tacker would store. */
export class OpenStackVim extends pulumi.ComponentResource implements ServerPlacementSource {
  /** Provider for every OpenStack resource deployed on this VIM. */
  readonly provider: openstack.Provider;
  readonly endpoint: pulumi.Output<string>;
  /** As `openstack vim show -f json` prints it, the password masked. */
  readonly vimRecord: pulumi.Output<TackerVimRecord>;
  /** Secret: what `placementOf` logs in with. */
  private readonly credentials: pulumi.Output<KeystoneCredentials>;

  constructor(name: string, args: OpenStackVimArgs, opts?: pulumi.ComponentResourceOptions) {
    super("nfv:vim:OpenStackVim", name, {}, opts);

    const vimName = pulumi.output(args.vimName ?? name);
    const projectDomainName = pulumi.output(args.projectDomainName ?? "Default");
    const userDomainName = pulumi.output(args.userDomainName ?? "Default");
    const certVerify = pulumi.all([args.certVerify ?? true, args.authUrl]).apply(([verify, url]) => {
      // Plain HTTP has no TLS to verify: say what is true of it instead (nothing on loopback).
      const u = new URL(url);
      if (u.protocol === "http:" && !isLoopback(u.hostname))
        pulumi.log.warn(`VIM '${name}': Keystone at ${u.origin} is plain HTTP: the password crosses the network unencrypted`, this);
      else if (u.protocol !== "http:" && !verify) pulumi.log.warn(`VIM '${name}': cert_verify is False, so TLS to Keystone is NOT verified`, this);
      return verify;
    });
    this.endpoint = pulumi.output(args.authUrl);

    // The provider's cacertFile accepts PEM content as well as a path: content keeps it off the disk.
    const caCert =
      args.caCert === undefined
        ? undefined
        : pulumi.secret(
            pulumi.output(args.caCert).apply((pem) => {
              const parsed = parseCertificateBundle(pem);
              if (!parsed.ok) throw new Error(`OpenStackVim '${name}': caCert: ${parsed.reason}`);
              return parsed.pem;
            }),
          );

    this.provider = keystoneProvider(
      `${name}-provider`,
      {
        authUrl: this.endpoint,
        username: args.username,
        password: args.password,
        projectName: args.projectName,
        projectDomainName,
        userDomainName,
        insecure: certVerify.apply((verify) => !verify),
        region: args.region,
        caCert,
      },
      { parent: this },
    );

    this.vimRecord = pulumi
      .all([vimName, this.endpoint, args.username, args.projectName, projectDomainName, userDomainName, certVerify, args.region])
      .apply(([vim, authUrl, username, projectName, pdn, udn, verify, region]) =>
        openStackVimRecord({
          id: vimId(pulumi.getStack(), vim),
          name: vim,
          authUrl,
          username,
          projectName,
          projectDomainName: pdn,
          userDomainName: udn,
          certVerify: verify,
          region,
        }),
      );

    const login = pulumi.all([this.endpoint, args.username, args.password, args.projectName, projectDomainName, userDomainName]);
    this.credentials = pulumi.secret(
      pulumi
        .all([login, args.region, caCert, certVerify])
        .apply(([[authUrl, username, password, projectName, pdn, udn], region, ca, verify]): KeystoneCredentials => ({
          authUrl,
          username,
          password,
          projectName,
          projectDomainName: pdn,
          userDomainName: udn,
          certVerify: verify,
          ...(region ? { region } : {}),
          ...(ca ? { caCert: ca } : {}),
        })),
    );

    this.registerOutputs({ provider: this.provider, endpoint: this.endpoint, vimRecord: this.vimRecord });
  }

  /**
   * Where Nova placed a server: its compute host (the `hostId` hash when the VIM's user is not an
   * admin) and zone, read from the Compute API at each `up` (and at a preview, once the server
   * exists). Not secret: a host name is no credential.
   */
  placementOf(serverId: pulumi.Input<string>): pulumi.Output<ServerPlacement> {
    return pulumi.unsecret(pulumi.all([this.credentials, serverId]).apply(([creds, id]) => fetchServerPlacement(creds, id)));
  }
}

/** 127.0.0.0/8, ::1 or localhost: traffic that never leaves the machine. */
function isLoopback(host: string): boolean {
  return host === "localhost" || host === "[::1]" || /^127\.\d+\.\d+\.\d+$/.test(host);
}
