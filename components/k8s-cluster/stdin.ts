/**
 * What each mgmt/k8s script reads on stdin (`key=value` lines; a key may repeat for lists), and
 * what it prints. Multi-line values travel base64-encoded. Pure functions.
 */
import { hostsToml } from "./config/containerd";
import type { RegistryConnection } from "./params";

export type StdinField = [key: string, value: string | undefined];

export function stdinLines(fields: StdinField[]): string {
  return fields
    .filter((f): f is [string, string] => f[1] !== undefined && f[1] !== "")
    .map(([k, v]) => {
      if (/[\r\n]/.test(v)) throw new Error(`stdin parameter ${k} contains a line break`);
      return `${k}=${v}\n`;
    })
    .join("");
}

export const b64 = (text: string) => Buffer.from(text, "utf8").toString("base64");

/** `REGISTRY=<host:port>|<hosts.toml b64>|<ca b64>` lines of configure-registries.sh. */
export function registryFields(registries: RegistryConnection[]): StdinField[] {
  return registries.map((r) => {
    const h = hostsToml(r);
    const ca = h.caFile && r.caPem ? b64(r.caPem) : "";
    return ["REGISTRY", `${r.server}|${b64(h.content)}|${ca}`];
  });
}

/** The `key=value` lines a script printed (its stdout). */
export function parseKeyValues(stdout: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const line of stdout.split("\n")) {
    const i = line.indexOf("=");
    if (i > 0) out[line.slice(0, i)] = line.slice(i + 1);
  }
  return out;
}

/**
 * A command line whose stdout reaches the provider only when it succeeds. pulumi-command (1.2.1)
 * puts a failed command's whole output, stdout included, into its error, which the engine prints
 * in plain text; for a step that prints credentials the remote shell keeps stdout in a variable and
 * prints it after exit status 0, so a failure shows stderr only. POSIX sh; the status is kept.
 */
export function stdoutOnSuccess(line: string): string {
  return `out="$(${line})" && printf '%s\\n' "$out"`;
}
