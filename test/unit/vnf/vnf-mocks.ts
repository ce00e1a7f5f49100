/**
 * Pulumi mocks for VNF tests: like `helpers/pulumi-mocks`, plus what OpenStack would compute
 * (a port's `allFixedIps`) and answers for lookups (`getImage`, `getSubnet`), which are recorded.
 */
import * as path from "node:path";
import { readFileSync } from "node:fs";
import * as pulumi from "@pulumi/pulumi";
import { readInstantiateRequest, type InstantiateVnfRequest } from "../../../translators/tacker/instantiate-request";
import { translatePackage } from "../../../translators/tosca/translate";
import type { VnfModel } from "../../../translators/tosca/model";
import type { Registered } from "../helpers/pulumi-mocks";

export const PACKAGES = path.join(__dirname, "../../../../shared/vnf-packages");
export const FIXTURES = path.join(__dirname, "../../fixtures/vnf");

export interface Invoked {
  token: string;
  inputs: Record<string, unknown>;
}

export function installVnfMocks(): { registered: Registered[]; invoked: Invoked[] } {
  const registered: Registered[] = [];
  const invoked: Invoked[] = [];
  let dhcp = 100;
  pulumi.runtime.setMocks(
    {
      newResource(args) {
        registered.push({ type: args.type, name: args.name, inputs: args.inputs, provider: args.provider });
        const state: Record<string, unknown> = { ...args.inputs };
        if (args.type === "openstack:networking/port:Port") {
          const fixed = (args.inputs.fixedIps as { ipAddress?: string }[] | undefined)?.map((f) => f.ipAddress).filter((x): x is string => !!x) ?? [];
          state.allFixedIps = fixed.length > 0 ? fixed : [`10.0.0.${dhcp++}`];
        }
        return { id: `${args.name}-id`, state };
      },
      call(args) {
        invoked.push({ token: args.token, inputs: args.inputs });
        if (args.token === "openstack:images/getImage:getImage") return { ...args.inputs, id: `image-${String(args.inputs.name)}` };
        if (args.token === "openstack:networking/getSubnet:getSubnet") return { ...args.inputs, id: "looked-up-subnet" };
        return args.inputs;
      },
    },
    "pulumi-nfv",
    "test",
    false,
  );
  return { registered, invoked };
}

export async function model(pkg: string): Promise<VnfModel> {
  const r = await translatePackage(path.join(PACKAGES, pkg));
  if (!r.model) throw new Error(`cannot translate ${pkg}: ${JSON.stringify(r.diagnostics)}`);
  return r.model;
}

export function request(file: string): InstantiateVnfRequest {
  const r = readInstantiateRequest(readFileSync(path.join(FIXTURES, file), "utf8"), file);
  if (!r.request) throw new Error(`bad request ${file}: ${JSON.stringify(r.diagnostics)}`);
  return r.request;
}

/** Name and type of every registered child, in registration order. */
export function graph(registered: Registered[]): string[] {
  return registered.map((r) => `${r.type} ${r.name}`);
}
