/**
 * The typed checks of the values the config generators write into HAProxy, keepalived and
 * `/etc/hosts` syntax, none of which has a quoting the generators could rely on: a node name is
 * RFC 1123, an address an IP, a port 1-65535. A failed check throws naming the field, not the value.
 */
import { isIP } from "node:net";
import { parseNodeName } from "../../host-files";

export function checkNodeName(field: string, name: string): void {
  const r = parseNodeName(name);
  if ("reason" in r) throw new Error(`${field} ${r.reason}`);
}

export function checkIp(field: string, ip: string): void {
  if (isIP(ip) === 0) throw new Error(`${field} is not an IP address`);
}

export function checkPort(field: string, port: number): void {
  if (!Number.isInteger(port) || port < 1 || port > 65535) throw new Error(`${field} is not a TCP port (1-65535)`);
}
