/** `tosca.nodes.nfv.VnfVirtualLink` → `VirtualLink` (layer protocols, first L3 protocol data, bitrates). */
import type { Bitrate, VirtualLink } from "../model";
import type { NodeTemplate } from "../phase4-templates/topology";
import { bool, int, obj, str, strings } from "./read";

export function readVirtualLink(node: NodeTemplate): VirtualLink {
  const p = node.properties;
  const vl: VirtualLink = { id: node.name, layerProtocols: strings(obj(p.connectivity_type).layer_protocols), bitrateByLevel: {} };
  const description = str(p.description);
  if (description !== undefined) vl.description = description;
  const profile = obj(p.vl_profile);
  const max = readBitrate(profile.max_bitrate_requirements);
  if (max) vl.maxBitrate = max;
  const min = readBitrate(profile.min_bitrate_requirements);
  if (min) vl.minBitrate = min;
  const protocols = Array.isArray(profile.virtual_link_protocol_data) ? profile.virtual_link_protocol_data : [];
  const l3 = protocols.map((d) => obj(obj(d).l3_protocol_data)).find((d) => Object.keys(d).length > 0);
  if (l3) {
    const version = str(l3.ip_version);
    if (version === "ipv4" || version === "ipv6") vl.ipVersion = version;
    const cidr = str(l3.cidr);
    if (cidr !== undefined) vl.cidr = cidr;
    const gateway = str(l3.gateway_ip);
    if (gateway !== undefined) vl.gatewayIp = gateway;
    const dhcp = bool(l3.dhcp_enabled);
    if (dhcp !== undefined) vl.dhcpEnabled = dhcp;
  }
  return vl;
}

export function readBitrate(v: unknown): Bitrate | undefined {
  const root = int(obj(v).root);
  if (root === undefined) return undefined;
  const leaf = int(obj(v).leaf);
  return leaf === undefined ? { root } : { root, leaf };
}
