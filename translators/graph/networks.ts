/**
 * CPs and VLs → `port` and `network` nodes. Internal VLs become networks the component creates,
 * unless `extManagedVirtualLinks` hands over an existing one; external CPs attach to the networks
 * of `extVirtualLinks`, which also give each instance's port its configuration (fixed addresses,
 * MAC, an existing port).
 */
import type { CpConfig, ExtVirtualLink, InstantiateVnfRequest } from "../tacker/instantiate-request";
import type { Flavour } from "../tosca/model";
import type { GraphEdge, NetworkNode, PortInstanceConfig, PortNode } from "./types";

export function networkNodes(flavour: Flavour, request: InstantiateVnfRequest | undefined): { nodes: (NetworkNode | PortNode)[]; edges: GraphEdge[] } {
  const nodes: (NetworkNode | PortNode)[] = [];
  const edges: GraphEdge[] = [];
  const managed = new Map((request?.extManagedVirtualLinks ?? []).map((m) => [m.vnfVirtualLinkDescId, m]));
  for (const vl of flavour.vls) {
    const m = managed.get(vl.id);
    const node: NetworkNode = {
      kind: "network",
      id: `network:${vl.id}`,
      label: vl.cidr ? `${vl.id} ${vl.cidr}` : vl.id,
      networkId: vl.id,
      external: m !== undefined || vl.networkName !== undefined,
    };
    if (m) node.resourceId = m.resourceId;
    else if (vl.networkName) node.resourceName = vl.networkName;
    if (vl.cidr) node.cidr = vl.cidr;
    if (vl.ipVersion) node.ipVersion = vl.ipVersion;
    if (!node.external) {
      if (vl.gatewayIp) node.gatewayIp = vl.gatewayIp;
      if (vl.dhcpEnabled !== undefined) node.dhcpEnabled = vl.dhcpEnabled;
    }
    nodes.push(node);
  }
  // cpdId → the external link and cp config the request gives it.
  const extByCp = new Map<string, ExtVirtualLink>();
  for (const link of request?.extVirtualLinks ?? []) {
    nodes.push({
      kind: "network",
      id: `network:ext:${link.id}`,
      label: `${link.id} (external)`,
      networkId: link.id,
      external: true,
      resourceId: link.resourceId,
    });
    for (const cp of link.extCps) extByCp.set(cp.cpdId, link);
  }
  for (const cp of flavour.cps) {
    const port: PortNode = { kind: "port", id: `port:${cp.id}`, label: cp.id, cpId: cp.id, vduId: cp.vduId };
    if (cp.order !== undefined) port.order = cp.order;
    edges.push({ from: port.id, to: `vdu:${cp.vduId}`, kind: "binds" });
    const ext = extByCp.get(cp.id);
    if (ext) {
      const configs = (ext.extCps.find((c) => c.cpdId === cp.id)?.cpConfig ?? []).map(instanceConfig);
      if (configs.length > 0) port.perInstance = configs;
      edges.push({ from: port.id, to: `network:ext:${ext.id}`, kind: "attaches" });
    } else if (cp.virtualLinkId) {
      edges.push({ from: port.id, to: `network:${cp.virtualLinkId}`, kind: "attaches" });
    }
    nodes.push(port);
  }
  return { nodes, edges };
}

/** One `cpConfig` entry: the port of the VDU instance at its index. */
function instanceConfig(config: CpConfig): PortInstanceConfig {
  const out: PortInstanceConfig = { fixedAddresses: [] };
  if (config.linkPortId) out.linkPortId = config.linkPortId;
  for (const data of config.cpProtocolData ?? []) {
    if (data.ipOverEthernet?.macAddress) out.macAddress = data.ipOverEthernet.macAddress;
    for (const ip of data.ipOverEthernet?.ipAddresses ?? []) {
      out.fixedAddresses.push(...(ip.fixedAddresses ?? []));
      if (ip.subnetId) out.subnetId = ip.subnetId;
    }
  }
  return out;
}
