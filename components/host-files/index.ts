export { parseProxyUrl, parseNoProxy, validNoProxyToken, type ProxyUrl, type NoProxyToken, type Parsed } from "./proxy-values";
export { aptProxyConf, proxyDropIn, proxyFileFields, systemdQuote, type ProxySettings } from "./proxy-files";
export { isDebianPackageName, isDebianVersion } from "./debian";
