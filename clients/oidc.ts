/**
 * Tacker's OIDC credentials of a Kubernetes VIM (`oidc_token_url`, `client_id`, `client_secret`,
 * `username`, `password`) as a kubeconfig exec credential plugin: one token request, in
 * `oidc-exec-credential.js`, run by client-go for the kubernetes provider and by `requestIdToken`
 * for this project's own API calls; both ask again when the id_token expires.
 */
import { execFile } from "node:child_process";
import { readFileSync } from "node:fs";
import * as path from "node:path";

export interface OidcCredentials {
  /** The issuer's token endpoint (Tacker `oidc_token_url`). */
  tokenUrl: string;
  clientId: string;
  clientSecret?: string;
  username: string;
  password: string;
}

/** A kubeconfig `users[].user.exec` stanza (client.authentication.k8s.io/v1). */
export interface ExecConfig {
  apiVersion: string;
  command: string;
  args: string[];
  env: { name: string; value: string }[];
  interactiveMode: "Never";
}

const EXEC_API_VERSION = "client.authentication.k8s.io/v1";
/** The plugin's inputs, by OidcCredentials field. */
const ENV = {
  tokenUrl: "NFV_OIDC_TOKEN_URL",
  clientId: "NFV_OIDC_CLIENT_ID",
  clientSecret: "NFV_OIDC_CLIENT_SECRET",
  username: "NFV_OIDC_USERNAME",
  password: "NFV_OIDC_PASSWORD",
} as const;
const CA = "NFV_OIDC_CA";
const INSECURE = "NFV_OIDC_INSECURE";

/** Read from beside this module: clients/ in the repository, dist/clients/ in the package. */
let pluginSource: string | undefined;
function plugin(): string {
  pluginSource ??= readFileSync(path.join(__dirname, "oidc-exec-credential.js"), "utf8");
  return pluginSource;
}

/**
 * The exec stanza that gets an id_token for these credentials; `caPem` is the VIM's CA bundle,
 * which verifies the issuer too (null: not verified, as the VIM's `ssl_ca_cert: None`).
 */
export function oidcExec(o: OidcCredentials, caPem: string | null): ExecConfig {
  const env: ExecConfig["env"] = [];
  for (const [field, name] of Object.entries(ENV)) {
    const value = o[field as keyof OidcCredentials];
    if (value !== undefined) env.push({ name, value });
  }
  env.push(caPem === null ? { name: INSECURE, value: "1" } : { name: CA, value: caPem });
  return { apiVersion: EXEC_API_VERSION, command: "node", args: ["-e", plugin()], env, interactiveMode: "Never" };
}

/** The credentials of an exec stanza that `oidcExec` made; throws for any other plugin. */
export function oidcFromExec(exec: Partial<ExecConfig>): OidcCredentials {
  if (exec.command !== "node" || exec.args?.[0] !== "-e" || !exec.env?.some((e) => e.name === ENV.tokenUrl)) {
    throw new Error(
      `exec credential plugin '${exec.command}' is not pulumi-nfv's OIDC plugin; only bearer tokens, basic auth, client certificates and OIDC are read`,
    );
  }
  const value = (name: string) => exec.env!.find((e) => e.name === name)?.value;
  const required = (name: string): string => {
    const v = value(name);
    if (v === undefined) throw new Error(`exec credential plugin: ${name} is not set`);
    return v;
  };
  const clientSecret = value(ENV.clientSecret);
  return {
    tokenUrl: required(ENV.tokenUrl),
    clientId: required(ENV.clientId),
    ...(clientSecret === undefined ? {} : { clientSecret }),
    username: required(ENV.username),
    password: required(ENV.password),
  };
}

export interface IdToken {
  token: string;
  /** When the token expires, from its `exp` claim. */
  expiresAt: Date;
}

/** Runs the plugin as client-go would (its inputs in the environment only) and returns its token. */
export function requestIdToken(o: OidcCredentials, caPem: string | null): Promise<IdToken> {
  const exec = oidcExec(o, caPem);
  const env: NodeJS.ProcessEnv = { PATH: process.env.PATH };
  for (const e of exec.env) env[e.name] = e.value;
  return new Promise((resolve, reject) => {
    execFile(process.execPath, exec.args, { env, timeout: 40_000 }, (err, stdout, stderr) => {
      if (err) return reject(new Error(stderr.trim() || `OIDC token from ${o.tokenUrl}: ${err.message}`));
      const status = (JSON.parse(stdout) as { status: { token: string; expirationTimestamp: string } }).status;
      resolve({ token: status.token, expiresAt: new Date(status.expirationTimestamp) });
    });
  });
}
