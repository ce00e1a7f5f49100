/** The block of `/etc/hosts` lines the scripts manage on every node: nodes by name, then registries' `hosts_string`. */
import { parseIpv4 } from "../cidr";
import { checkIp, checkNodeName } from "./checks";

/** A registry's `hosts_string`: an IPv4 address and one or more host names, split by blanks. */
export function validHostsLine(s: string): boolean {
  const [ip, ...names] = s.trim().split(/\s+/);
  return parseIpv4(ip) !== undefined && names.length > 0 && names.every((n) => /^[A-Za-z0-9.-]+$/.test(n));
}

export function hostsBlock(nodes: { name: string; ip: string }[], registryHostsStrings: string[]): string {
  nodes.forEach((n, i) => {
    checkNodeName(`hostsBlock: the name of node ${i}`, n.name);
    checkIp(`hostsBlock: the IP of node ${i}`, n.ip);
  });
  registryHostsStrings.forEach((s, i) => {
    if (!validHostsLine(s)) throw new Error(`hostsBlock: registry hosts_string ${i} is not an /etc/hosts line (IP FQDN)`);
  });
  const lines = [...nodes.map((n) => `${n.ip} ${n.name}`), ...registryHostsStrings.map((s) => s.trim().split(/\s+/).join(" "))];
  return [...new Set(lines)].join("\n") + "\n";
}
