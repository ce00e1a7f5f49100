/**
 * Where Nova placed a server (compute host and availability zone), read from the Compute API with
 * a VIM's credentials (clients/openstack.ts). The openstack provider does not expose the host, and
 * a hardware-aware Kubernetes cluster labels its nodes with it (Tacker's `CIS-node`).
 */
import type * as pulumi from "@pulumi/pulumi";
import { apiMessage, keystoneSession, request, type KeystoneCredentials } from "../../clients/openstack";

export interface ServerPlacement {
  /**
   * The compute host (`OS-EXT-SRV-ATTR:host`, shown to admins only), else Nova's `hostId`: a hash
   * of host and project, shown to every member, equal for two servers exactly when they share a host.
   */
  host: string;
  /** `host` is the opaque `hostId` (the VIM's user is not an admin). */
  hostIsHash: boolean;
  /** `OS-EXT-AZ:availability_zone`, when Nova reports one. */
  zone?: string;
}

/** What a component asks for placements: `OpenStackVim` answers with its credentials. */
export interface ServerPlacementSource {
  placementOf(serverId: pulumi.Input<string>): pulumi.Output<ServerPlacement>;
}

/** GET /servers/{id}: the server's host (or hostId) and zone. */
export async function fetchServerPlacement(creds: KeystoneCredentials, serverId: string): Promise<ServerPlacement> {
  const session = await keystoneSession(creds);
  const compute = session.endpoint("compute");
  if (!compute) throw new Error(`Keystone ${creds.authUrl}: no public compute endpoint${creds.region ? ` in region ${creds.region}` : ""} in the catalog`);
  const token = session.token;
  const r = await request(`${compute}/servers/${encodeURIComponent(serverId)}`, creds, {
    method: "GET",
    headers: { "x-auth-token": token, accept: "application/json" },
  });
  if (r.status !== 200) throw new Error(`Nova ${compute}: server ${serverId}: HTTP ${r.status}${apiMessage(r.body)}`);
  const server = (JSON.parse(r.body) as { server: Record<string, unknown> }).server;
  const host = server["OS-EXT-SRV-ATTR:host"];
  const hostId = server.hostId;
  const zone = server["OS-EXT-AZ:availability_zone"];
  const placement: ServerPlacement =
    typeof host === "string" && host ? { host, hostIsHash: false } : { host: typeof hostId === "string" ? hostId : "", hostIsHash: true };
  if (!placement.host) throw new Error(`Nova ${compute}: server ${serverId} has no host yet (status ${String(server.status)})`);
  if (typeof zone === "string" && zone) placement.zone = zone;
  return placement;
}
