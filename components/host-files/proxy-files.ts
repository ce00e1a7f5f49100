/**
 * The proxy files a host gets, written here and sent to the scripts as content (base64 on stdin):
 * the scripts never put a value into apt.conf or systemd syntax themselves.
 */
import type { ProxyUrl } from "./proxy-values";

export interface ProxySettings {
  httpProxy?: ProxyUrl;
  httpsProxy?: ProxyUrl;
  /** Comma-separated; every entry already checked (a `NoProxyToken`, or an address or name of the cluster). */
  noProxy?: string;
}

/**
 * `/etc/apt/apt.conf.d/…`. apt.conf(5) has no escapes: "values must not include backslashes or
 * extra quotation marks", so a value that could end its string is refused, not escaped.
 */
export function aptProxyConf(p: ProxySettings): string {
  const lines: string[] = [];
  if (p.httpProxy) lines.push(`Acquire::http::Proxy ${aptString(p.httpProxy)};`);
  if (p.httpsProxy) lines.push(`Acquire::https::Proxy ${aptString(p.httpsProxy)};`);
  return lines.map((l) => l + "\n").join("");
}

function aptString(v: string): string {
  if (/["\\\p{Cc}]/u.test(v)) throw new Error("aptProxyConf: a value with a quote, backslash or control character cannot be written to apt.conf");
  return `"${v}"`;
}

/**
 * A systemd drop-in `[Service]` with one `Environment=` per variable, each in both spellings
 * (programs read one or the other). Quoted as systemd.exec(5) reads it: `\` and `"` escaped inside
 * double quotes, `%` doubled (specifiers); `$` has no meaning in Environment=.
 */
export function proxyDropIn(p: ProxySettings): string {
  const vars: [string, string | undefined][] = [
    ["HTTP_PROXY", p.httpProxy],
    ["HTTPS_PROXY", p.httpsProxy],
    ["NO_PROXY", p.noProxy],
  ];
  const lines = ["[Service]"];
  for (const [k, v] of vars) if (v) lines.push(`Environment=${systemdQuote(`${k}=${v}`)} ${systemdQuote(`${k.toLowerCase()}=${v}`)}`);
  return lines.join("\n") + "\n";
}

export function systemdQuote(assignment: string): string {
  if (/\p{Cc}/u.test(assignment)) throw new Error("proxyDropIn: a control character cannot be written to a systemd unit");
  return `"${assignment.replace(/[\\"]/g, (c) => `\\${c}`).replace(/%/g, "%%")}"`;
}

/** The stdin fields of prepare-node.sh and install-registry.sh: both files, base64; none for what is not set. */
export function proxyFileFields(p: ProxySettings): { APT_PROXY_CONF_B64?: string; PROXY_DROPIN_B64?: string } {
  const b64 = (s: string) => Buffer.from(s, "utf8").toString("base64");
  const apt = aptProxyConf(p);
  return {
    ...(apt ? { APT_PROXY_CONF_B64: b64(apt) } : {}),
    ...(p.httpProxy || p.httpsProxy || p.noProxy ? { PROXY_DROPIN_B64: b64(proxyDropIn(p)) } : {}),
  };
}
