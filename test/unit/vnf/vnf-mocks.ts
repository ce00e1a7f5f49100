/**
 * Pulumi mocks for VNF tests: like `helpers/pulumi-mocks`, plus what OpenStack would compute
 * (a port's `allFixedIps`) and answers for lookups (`getImage`, `getSubnet`, `getNetwork`), which are recorded.
 */
import * as path from "node:path";
import { readFileSync } from "node:fs";
import * as openstack from "@pulumi/openstack";
import * as pulumi from "@pulumi/pulumi";
import { readInstantiateRequest, type InstantiateVnfRequest } from "../../../translators/tacker/instantiate-request";
import { translatePackage } from "../../../translators/tosca/translate";
import type { VnfModel } from "../../../translators/tosca/model";
import { settle, type Registered } from "../helpers/pulumi-mocks";

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
        if (args.token === "openstack:networking/getNetwork:getNetwork") return { ...args.inputs, id: `network-${String(args.inputs.name)}` };
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

/**
 * What the VmVnf tests share: the mocks installed, then (after them, as Pulumi's testing guide
 * requires) the component imported, helloworld3 translated and a VIM provider made.
 */
export async function vnfTestBed() {
  const { registered, invoked } = installVnfMocks();
  const vnf = await import("../../../components/vnf");
  const hw3 = await model("helloworld3");
  const provider = new openstack.Provider("vim-provider", { authUrl: "http://192.0.2.10/identity" });
  await settle();
  return { registered, invoked, vnf, hw3, provider };
}

/** Lets a finished test's registrations land, then forgets them. */
export async function forget(...lists: unknown[][]): Promise<void> {
  await settle();
  for (const list of lists) list.length = 0;
}
