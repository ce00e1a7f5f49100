/**
 * Pulumi mocks for the cluster tests: what OpenStack would compute (a port's `allFixedIps`, from
 * 10.10.0.100 up in registration order) and what the scripts would print (init-master.sh and
 * join-credentials.sh stdout, key=value). Records every resource and, through a transformation on
 * the component, every child's `dependsOn` by name.
 */
import { readFileSync } from "node:fs";
import * as path from "node:path";
import * as openstack from "@pulumi/openstack";
import * as pulumi from "@pulumi/pulumi";
import { readInstantiateRequest, type InstantiateVnfRequest } from "../../../translators/tacker/instantiate-request";
import type { VnfModel } from "../../../translators/tosca/model";
import { settle, type Registered } from "../helpers/pulumi-mocks";
import { K8S_FIXTURES, k8sModel } from "./k8s-fixtures";

export const CA_PEM = readFileSync(path.join(__dirname, "../../fixtures/pki/ca-a.crt"), "utf8");
export const TOKEN = "abcdef.0123456789abcdef";
export const CA_HASH = `sha256:${"c".repeat(64)}`;
export const CERT_KEY = "d".repeat(64);
export const ADMIN_TOKEN = "admin-bearer-t0ken";

let ip = 100;
/** Addresses start again at 10.10.0.100 (call before building a component). */
export function resetAddresses(): void {
  ip = 100;
}

export function installK8sMocks(): Registered[] {
  const registered: Registered[] = [];
  pulumi.runtime.setMocks(
    {
      newResource(args) {
        registered.push({ type: args.type, name: args.name, inputs: args.inputs, provider: args.provider });
        const state: Record<string, unknown> = { ...args.inputs };
        if (args.type === "openstack:networking/port:Port") state.allFixedIps = [`10.10.0.${ip++}`];
        if (args.type === "command:remote:Command" && args.name.endsWith("-init")) {
          state.stdout = `initialized=yes\nca_crt_b64=${Buffer.from(CA_PEM).toString("base64")}\nadmin_token=${ADMIN_TOKEN}\n`;
        }
        if (args.type === "command:remote:Command" && args.name.endsWith("-join-credentials")) {
          state.stdout = `token=${TOKEN}\nca_cert_hash=${CA_HASH}\n${JSON.stringify(args.inputs.stdin).includes("ROLE=master") ? `certificate_key=${CERT_KEY}\n` : ""}`;
        }
        return { id: `${args.name}-id`, state };
      },
      call(args) {
        if (args.token === "openstack:images/getImage:getImage") return { ...args.inputs, id: `image-${String(args.inputs.name)}` };
        return args.inputs;
      },
    },
    "pulumi-nfv",
    "test",
    false,
  );
  return registered;
}

export function k8sRequest(file: string): InstantiateVnfRequest {
  const r = readInstantiateRequest(readFileSync(path.join(K8S_FIXTURES, file), "utf8"), file);
  if (!r.request) throw new Error(`bad request ${file}: ${JSON.stringify(r.diagnostics)}`);
  return r.request;
}

/** Mocks installed first, then (as Pulumi's testing guide requires) the component imported. */
export async function k8sTestBed() {
  const registered = installK8sMocks();
  const mod = await import("../../../components/k8s-cluster");
  const pkg: VnfModel = await k8sModel();
  const provider = new openstack.Provider("vim-provider", { authUrl: "http://192.0.2.10/identity" });
  await settle();
  return { registered, mod, pkg, provider };
}

/** A transformation that records each resource's `dependsOn` by name. */
export function recordDependsOn(deps: Map<string, string[]>): pulumi.ResourceTransformation {
  return (a) => {
    deps.set(
      a.name,
      [a.opts.dependsOn ?? []].flat().map((r) => (r as unknown as { __name?: string }).__name ?? "?"),
    );
    return undefined;
  };
}
