/**
 * IPv4 addresses and CIDRs, just enough to check the cluster's networks before anything is
 * created. Tacker validates with Python's `ipaddress` (strict: host bits must be zero); we do the
 * same, and say which network was probably meant.
 */

export interface Cidr {
  /** Network address as an unsigned 32-bit number. */
  network: number;
  prefix: number;
  /** Canonical `a.b.c.d/n`. */
  text: string;
}

/** The address as an unsigned 32-bit number, or undefined when it is not dotted-quad IPv4. */
export function parseIpv4(text: string): number | undefined {
  const m = /^(\d{1,3})\.(\d{1,3})\.(\d{1,3})\.(\d{1,3})$/.exec(text);
  if (!m) return undefined;
  const parts = m.slice(1).map(Number);
  if (parts.some((p, i) => p > 255 || (m[i + 1].length > 1 && m[i + 1].startsWith("0")))) return undefined;
  return ((parts[0] << 24) | (parts[1] << 16) | (parts[2] << 8) | parts[3]) >>> 0;
}

export function formatIpv4(n: number): string {
  return [24, 16, 8, 0].map((s) => (n >>> s) & 255).join(".");
}

const mask = (prefix: number) => (prefix === 0 ? 0 : (0xffffffff << (32 - prefix)) >>> 0);

/** A CIDR, or the reason it is not one. */
export function parseCidr(text: string): { cidr: Cidr } | { reason: string } {
  const m = /^([^/]+)\/(\d{1,2})$/.exec(text.trim());
  if (!m) return { reason: `\`${text}\` is not a CIDR (a.b.c.d/n)` };
  const ip = parseIpv4(m[1]);
  const prefix = Number(m[2]);
  if (ip === undefined) return { reason: `\`${text}\`: \`${m[1]}\` is not an IPv4 address` };
  if (prefix > 32) return { reason: `\`${text}\`: prefix length ${prefix} is more than 32` };
  const network = (ip & mask(prefix)) >>> 0;
  const canonical = `${formatIpv4(network)}/${prefix}`;
  if (network !== ip) return { reason: `\`${text}\` has host bits set (did you mean ${canonical}?)` };
  return { cidr: { network, prefix, text: canonical } };
}

export function cidrContains(c: Cidr, ip: number): boolean {
  return (ip & mask(c.prefix)) >>> 0 === c.network;
}

export function cidrsOverlap(a: Cidr, b: Cidr): boolean {
  return cidrContains(a, b.network) || cidrContains(b, a.network);
}
