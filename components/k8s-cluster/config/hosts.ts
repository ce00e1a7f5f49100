/** The block of `/etc/hosts` lines the scripts manage on every node: nodes by name, then registries' `hosts_string`. */

export function hostsBlock(nodes: { name: string; ip: string }[], registryHostsStrings: string[]): string {
  const lines = [...nodes.map((n) => `${n.ip} ${n.name}`), ...registryHostsStrings.map((s) => s.trim().split(/\s+/).join(" "))];
  return [...new Set(lines)].join("\n") + "\n";
}
