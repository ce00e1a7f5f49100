/**
 * Kubernetes' names for a node, as types: an RFC 1123 DNS label (a hostname: `[a-z0-9]`, `-`
 * inside, at most 63 characters; what `hostnamectl` and prepare-node.sh get) and an RFC 1123 DNS
 * subdomain (labels joined by `.`, at most 253 characters; what the API server requires of a Node's
 * name, the kubelet's `--hostname-override`, kubeadm's `nodeRegistration.name`). The rules of
 * k8s.io/apimachinery's IsDNS1123Label and IsDNS1123Subdomain, and RFC 1123's 63 characters per
 * label inside a subdomain too (apimachinery bounds only the total); only these parsers make the types.
 */
import type { Parsed } from "./proxy-values";

declare const dnsLabel: unique symbol;
/** An RFC 1123 DNS label, checked by `parseDnsLabel`. */
export type DnsLabel = string & { readonly [dnsLabel]: true };

declare const dnsSubdomain: unique symbol;
/** An RFC 1123 DNS subdomain, checked by `parseDnsSubdomain`. */
export type DnsSubdomain = string & { readonly [dnsSubdomain]: true };

export const DNS_LABEL_MAX = 63;
export const DNS_SUBDOMAIN_MAX = 253;
const LABEL = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?$/;

export function parseDnsLabel(text: string): Parsed<DnsLabel> {
  if (text === "") return { reason: "is empty" };
  if (text.length > DNS_LABEL_MAX) return { reason: `is ${text.length} characters; a DNS label has at most ${DNS_LABEL_MAX}` };
  if (LABEL.test(text)) return { value: text as DnsLabel };
  if (/[A-Z]/.test(text)) return { reason: "has upper-case letters; an RFC 1123 name is lower case" };
  if (text.startsWith("-") || text.endsWith("-")) return { reason: "starts or ends with `-`; an RFC 1123 label starts and ends with a letter or digit" };
  return { reason: "has a character other than a-z, 0-9 and `-`" };
}

export function parseDnsSubdomain(text: string): Parsed<DnsSubdomain> {
  if (text === "") return { reason: "is empty" };
  if (text.length > DNS_SUBDOMAIN_MAX) return { reason: `is ${text.length} characters; a DNS subdomain has at most ${DNS_SUBDOMAIN_MAX}` };
  const labels = text.split(".");
  for (const [i, label] of labels.entries()) {
    if (label === "") return { reason: "has an empty label (`..`, or a `.` at an end)" };
    const r = parseDnsLabel(label);
    if ("reason" in r) return { reason: `has a label (the ${ordinal(i + 1)}) that ${r.reason}` };
  }
  return { value: text as DnsSubdomain };
}

/**
 * A node's name: a DNS label, since it is also the node's hostname, and so a DNS subdomain, as
 * Kubernetes requires of a Node. The reason names what is wrong (node names hold no secret).
 */
export function parseNodeName(text: string): Parsed<DnsLabel & DnsSubdomain> {
  const sub = parseDnsSubdomain(text);
  if ("reason" in sub) return { reason: `is not an RFC 1123 DNS subdomain (a Kubernetes node name): it ${sub.reason}` };
  const label = parseDnsLabel(text);
  if ("reason" in label) return { reason: `is not an RFC 1123 DNS label (the node's hostname): it ${label.reason}` };
  return { value: text as DnsLabel & DnsSubdomain };
}

const ordinal = (n: number) => `${n}${n % 100 >= 11 && n % 100 <= 13 ? "th" : (["th", "st", "nd", "rd"][n % 10] ?? "th")}`;
