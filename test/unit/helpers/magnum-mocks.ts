/**
 * Pulumi mocks (recording, as pulumi-mocks.ts) in which a Magnum Cluster reports what Magnum gives
 * once the cluster is up: a kubeconfig made of the fixture PKI, and its Heat stack.
 */
import { readFileSync } from "node:fs";
import * as path from "node:path";
import * as pulumi from "@pulumi/pulumi";
import type { Registered } from "./pulumi-mocks";

const PKI = path.join(__dirname, "../../fixtures/pki");
/** The cluster CA, client certificate and key in the reported kubeconfig. */
export const [MAGNUM_CA, MAGNUM_CERT, MAGNUM_KEY] = ["ca-a.crt", "client.crt", "client.key"].map((f) => readFileSync(path.join(PKI, f), "utf8"));
export const MAGNUM_ENDPOINT = "https://192.0.2.50:6443";

/** `extra`: state to report by resource type, over the above (e.g. a StackReference's outputs). */
export function installMagnumMocks(extra: Record<string, Record<string, unknown>> = {}): Registered[] {
  const registered: Registered[] = [];
  pulumi.runtime.setMocks(
    {
      newResource(args) {
        registered.push({ type: args.type, name: args.name, inputs: args.inputs, provider: args.provider });
        const state: Record<string, unknown> = { ...args.inputs };
        if (args.type === "openstack:containerinfra/cluster:Cluster") {
          state.kubeconfig = {
            host: MAGNUM_ENDPOINT,
            cluster_ca_certificate: MAGNUM_CA,
            client_certificate: MAGNUM_CERT,
            client_key: MAGNUM_KEY,
            raw_config: "…",
          };
          state.stackId = "heat-stack-id";
        }
        Object.assign(state, extra[args.type]);
        return { id: `${args.name}-id`, state };
      },
      call: (args) => args.inputs,
    },
    "pulumi-nfv",
    "unit",
    false,
  );
  return registered;
}
