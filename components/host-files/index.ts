export { parseProxyUrl, parseNoProxy, validNoProxyToken, type ProxyUrl, type NoProxyToken, type Parsed } from "./proxy-values";
export { aptProxyConf, proxyDropIn, proxyFileFields, systemdQuote, type ProxySettings } from "./proxy-files";
export { isDebianPackageName, isDebianVersion } from "./debian";
export { parseDnsLabel, parseDnsSubdomain, parseNodeName, DNS_LABEL_MAX, DNS_SUBDOMAIN_MAX, type DnsLabel, type DnsSubdomain } from "./dns-names";
