/**
 * The cluster's private registries, as one list: those of `private_registry_connection_info`
 * (checked with the other parameters, the CA read from the package with them) and those handed over as
 * component outputs (`PrivateRegistry.connectionInfo`), known only once the registry exists, so
 * checked then, by their position in `registries`.
 */
import * as pulumi from "@pulumi/pulumi";
import type { RegistryConnectionInfo } from "../registry/private-registry";
import { validHostsLine } from "./config/hosts";
import { DEFAULT_REGISTRY_CREDENTIAL, validServer, type RegistryConnection } from "./params";

export function clusterRegistries(listed: RegistryConnection[], handed: pulumi.Input<RegistryConnectionInfo>[] = []): pulumi.Output<RegistryConnection[]> {
  if (handed.length === 0) return pulumi.output(listed);
  return pulumi.all(handed).apply((infos) => withHanded(listed, infos));
}

/** `listed` and then `infos`, each checked; an error names its position in `registries`. Pure. */
export function withHanded(listed: RegistryConnection[], infos: RegistryConnectionInfo[]): RegistryConnection[] {
  const out = [...listed];
  infos.forEach((info, i) => {
    const at = `K8sCluster registries[${i}]`;
    if (info.connection_type !== "0" && info.connection_type !== "1")
      throw new Error(`${at}: connection_type must be "0" (HTTP) or "1" (HTTPS), got ${JSON.stringify(info.connection_type)}`);
    if (!validServer(info.server)) throw new Error(`${at}: server \`${info.server}\` is not host:port`);
    if (info.hosts_string && !validHostsLine(info.hosts_string)) throw new Error(`${at}: hosts_string is not an /etc/hosts line (IP FQDN)`);
    if (out.some((r) => r.server === info.server)) throw new Error(`${at}: server \`${info.server}\` is already a registry of the cluster`);
    const r: RegistryConnection = {
      connectionType: info.connection_type,
      server: info.server,
      username: info.username ?? DEFAULT_REGISTRY_CREDENTIAL,
      password: info.password ?? DEFAULT_REGISTRY_CREDENTIAL,
    };
    if (info.connection_type === "1" && info.ca_certificate) r.caPem = info.ca_certificate;
    if (info.hosts_string) r.hostsString = info.hosts_string;
    out.push(r);
  });
  return out;
}
