/**
 * Proxy settings as types, not filtered strings: a `ProxyUrl` is an http(s) URL whose text has no
 * quote, backslash, space or control character; a no_proxy is a list of host, domain, IP and CIDR
 * tokens. Only these parsers make them, so a generator that takes them cannot be handed anything
 * else. Reasons never quote the value: a proxy URL may carry a password.
 */
import { isIP } from "node:net";

declare const proxyUrl: unique symbol;
/** An http or https URL, checked by `parseProxyUrl`; the user's text, unchanged. */
export type ProxyUrl = string & { readonly [proxyUrl]: true };

declare const noProxyToken: unique symbol;
/** One no_proxy entry (`*`, a host or `.domain`, an IPv4/IPv6 address or CIDR, optionally `:port`). */
export type NoProxyToken = string & { readonly [noProxyToken]: true };

export type Parsed<T> = { value: T } | { reason: string };

// RFC 3986's unreserved and reserved characters and `%`, less the single quote: nothing that is
// syntax in apt.conf, a systemd unit or a shell word besides what the generators escape.
const URL_CHARS = /^[A-Za-z0-9\-._~:/?#[\]@!$&()*+,;=%]+$/;

export function parseProxyUrl(text: string): Parsed<ProxyUrl> {
  if (text === "") return { reason: "is empty" };
  if (!URL_CHARS.test(text)) {
    const i = [...text].findIndex((c) => !URL_CHARS.test(c));
    return { reason: `is not a URL: character ${i + 1} (${describeChar([...text][i])}) is not allowed in a proxy URL` };
  }
  if (/%(?![0-9A-Fa-f]{2})/.test(text)) return { reason: "is not a URL: a `%` not followed by two hex digits" };
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    return { reason: "is not a URL (expected http://[user:password@]host[:port])" };
  }
  if (url.protocol !== "http:" && url.protocol !== "https:") return { reason: `must be an http or https URL, not ${url.protocol.slice(0, -1)}` };
  if (url.hostname === "") return { reason: "has no host" };
  if (url.pathname !== "/" && url.pathname !== "") return { reason: "must not have a path (expected http://[user:password@]host[:port])" };
  if (url.search !== "" || url.hash !== "" || text.includes("?") || text.includes("#")) return { reason: "must not have a query or fragment" };
  return { value: text as ProxyUrl };
}

const LABEL = "[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?";
const DOMAIN = new RegExp(`^(?:\\*?\\.)?${LABEL}(?:\\.${LABEL})*\\.?$`);

/** A comma-separated no_proxy; blanks around commas and empty entries are dropped. */
export function parseNoProxy(text: string): Parsed<NoProxyToken[]> {
  const tokens = text
    .split(",")
    .map((t) => t.trim())
    .filter((t) => t !== "");
  for (const [i, t] of tokens.entries()) {
    if (!validNoProxyToken(t)) return { reason: `entry ${i + 1} is not a host, domain, IP address or CIDR` };
  }
  return { value: tokens as NoProxyToken[] };
}

export function validNoProxyToken(t: string): boolean {
  if (t === "*") return true;
  const cidr = /^([^/]+)\/(\d{1,3})$/.exec(t);
  if (cidr) {
    const v = isIP(cidr[1]);
    return v !== 0 && Number(cidr[2]) <= (v === 4 ? 32 : 128);
  }
  if (isIP(t) !== 0) return true;
  const bracketed = /^\[([0-9A-Fa-f:.]+)\](?::(\d{1,5}))?$/.exec(t);
  if (bracketed) return isIP(bracketed[1]) === 6 && port(bracketed[2]);
  const hostPort = /^([^:]+)(?::(\d{1,5}))?$/.exec(t);
  return !!hostPort && (isIP(hostPort[1]) === 4 || (DOMAIN.test(hostPort[1]) && hostPort[1].length <= 253)) && port(hostPort[2]);
}

const port = (p: string | undefined) => p === undefined || (Number(p) >= 1 && Number(p) <= 65535);

function describeChar(c: string): string {
  if (c === " ") return "a space";
  if (c === '"' || c === "'") return "a quote";
  if (c === "\\") return "a backslash";
  const code = c.codePointAt(0)!;
  return code < 0x20 || code === 0x7f ? "a control character" : `U+${code.toString(16).toUpperCase().padStart(4, "0")}`;
}
