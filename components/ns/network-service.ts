/**
 * `NetworkService` (`nfv:ns:NetworkService`): an NS plan (`loadNsPackage(...).plan`) deployed.
 * Each NS virtual link a VM VNF joins becomes a Neutron network and subnet (the link's L3
 * protocol data) on the OpenStack VIM, or for a legacy NSD's VL the existing network it names;
 * each constituent is the component its plan names, given by the caller's args, in the NSD's
 * dependency order. A VM VNF's external CPs that the NSD puts on a link get one `extVirtualLinks`
 * entry each, on that network.
 *
 * A CNF's link is not wired here: a CNF is reached through a Service on its cluster's nodes, so
 * the nodes must be on the link's network (a cluster of the same stack attached to it, or an
 * existing network given for the link); `linkNetworkIds` gives such a network instead of creating
 * one.
 */
import * as openstack from "@pulumi/openstack";
import * as pulumi from "@pulumi/pulumi";
import { DiagnosticError, type Diagnostic } from "../../translators/diagnostics";
import type { NsPlan, PlannedConstituent } from "../../translators/ns/plan-ns";
import type { ExtVirtualLink } from "../../translators/tacker/instantiate-request";
import { ContainerizedVnf, type ContainerizedVnfArgs } from "../cnf/containerized-vnf";
import { VmVnf, type VmVnfArgs } from "../vnf/vm-vnf";

export interface NetworkServiceArgs {
  /** The NS planned with its constituents: `loadNsPackage(...).plan`. */
  plan: NsPlan;
  /** The OpenStack provider the NS virtual links are created with; undefined: the provider of `opts`. */
  provider?: openstack.Provider;
  /** Existing networks for NS virtual links, by link id: nothing is created for them. */
  linkNetworkIds?: Record<string, pulumi.Input<string>>;
  /** Args of each VM VNF of the plan, by NSD VNF id; the NS adds the external links it joins. */
  vmVnfs?: Record<string, ConstituentArgs<VmVnfArgs>>;
  /** Args of each CNF of the plan, by NSD VNF id. */
  cnfs?: Record<string, ConstituentArgs<ContainerizedVnfArgs>>;
}

/**
 * A constituent's args, or a function that makes them from the constituents deployed before it
 * (the NSD's order): how one VNF's parameters take another's outputs (an address, a Service's
 * node port) as Pulumi outputs.
 */
export type ConstituentArgs<A> = A | ((before: Readonly<Record<string, VmVnf | ContainerizedVnf>>) => A);

const argsOf = <A>(given: ConstituentArgs<A>, before: Readonly<Record<string, VmVnf | ContainerizedVnf>>): A =>
  typeof given === "function" ? (given as (b: typeof before) => A)(before) : given;

export class NetworkService extends pulumi.ComponentResource {
  /** The networks made for NS virtual links, by link id. */
  readonly networks: Record<string, openstack.networking.Network>;
  /** Network id of every NS virtual link a constituent joins (made or given). */
  readonly linkNetworkIds: pulumi.Output<Record<string, string>>;
  /** The constituents, by NSD VNF id. */
  readonly vnfs: Record<string, VmVnf | ContainerizedVnf>;

  constructor(name: string, args: NetworkServiceArgs, opts?: pulumi.ComponentResourceOptions) {
    // Everything is checked before anything, even this component, is registered.
    checkArgs(name, args);
    super("nfv:ns:NetworkService", name, {}, opts);
    const child = { parent: this, ...(args.provider ? { provider: args.provider } : {}) };
    this.networks = {};
    const networkIds: Record<string, pulumi.Input<string>> = {};
    for (const vl of args.plan.virtualLinks) {
      const given = args.linkNetworkIds?.[vl.id];
      if (given !== undefined) {
        networkIds[vl.id] = given;
        continue;
      }
      if (vl.networkName !== undefined) {
        // A legacy NSD's VL: the existing network of that name.
        networkIds[vl.id] = openstack.networking.getNetworkOutput({ name: vl.networkName }, child).id;
        continue;
      }
      const net = new openstack.networking.Network(`${name}-${vl.id}`, { name: `${name}-${vl.id}`, adminStateUp: true }, child);
      new openstack.networking.Subnet(
        `${name}-${vl.id}-subnet`,
        {
          name: `${name}-${vl.id}`,
          networkId: net.id,
          cidr: vl.cidr!,
          ipVersion: vl.ipVersion === "ipv6" ? 6 : 4,
          enableDhcp: vl.dhcpEnabled ?? true,
          ...(vl.gatewayIp ? { gatewayIp: vl.gatewayIp } : {}),
        },
        child,
      );
      this.networks[vl.id] = net;
      networkIds[vl.id] = net.id;
    }
    this.vnfs = {};
    for (const vnf of args.plan.vnfs) {
      const after = { parent: this, dependsOn: vnf.dependsOn.map((d) => this.vnfs[d]) };
      const before = { ...this.vnfs };
      this.vnfs[vnf.id] =
        vnf.component === "vm-vnf"
          ? new VmVnf(`${name}-${vnf.id}`, withLinks(argsOf(args.vmVnfs![vnf.id], before), vnf, networkIds), after)
          : new ContainerizedVnf(`${name}-${vnf.id}`, argsOf(args.cnfs![vnf.id], before), after);
    }
    this.linkNetworkIds = pulumi.output(networkIds);
    this.registerOutputs({ linkNetworkIds: this.linkNetworkIds });
  }
}

/** The NS's links of a VM VNF as `extVirtualLinks` entries `ns-<link>`, one port per CP, on the link's network. */
function withLinks(args: VmVnfArgs, vnf: PlannedConstituent, networkIds: Record<string, pulumi.Input<string>>): VmVnfArgs {
  const links: ExtVirtualLink[] = vnf.extLinks.map((l) => ({
    id: `ns-${l.virtualLinkId}`,
    resourceId: `(NS virtual link ${l.virtualLinkId})`,
    extCps: [{ cpdId: l.cpId, cpConfig: [{}] }],
  }));
  const ids = Object.fromEntries(vnf.extLinks.map((l) => [`ns-${l.virtualLinkId}`, networkIds[l.virtualLinkId]]));
  return {
    ...args,
    request: { ...args.request, extVirtualLinks: [...(args.request.extVirtualLinks ?? []), ...links] },
    externalNetworkIds: { ...args.externalNetworkIds, ...ids },
  };
}

/** Args for every constituent of the plan, of the kind it needs, and for nothing else; links with a subnet to make. */
function checkArgs(name: string, args: NetworkServiceArgs): void {
  const problems: Diagnostic[] = [];
  const error = (code: string, message: string) => problems.push({ severity: "error", code, message });
  const kinds: Record<string, Record<string, unknown> | undefined> = { "vm-vnf": args.vmVnfs, "container-vnf": args.cnfs };
  for (const vnf of args.plan.vnfs) {
    if (!(vnf.component in kinds))
      error("NS_COMPONENT_UNSUPPORTED", `\`${vnf.id}\` is deployed by ${vnf.component}, which a NetworkService does not deploy yet (VM VNFs and CNFs only)`);
    else if (kinds[vnf.component]?.[vnf.id] === undefined)
      error("NS_ARGS_MISSING", `no ${vnf.component === "vm-vnf" ? "vmVnfs" : "cnfs"} entry for \`${vnf.id}\` (a ${vnf.component})`);
  }
  for (const [field, given] of [
    ["vmVnfs", args.vmVnfs],
    ["cnfs", args.cnfs],
  ] as const) {
    for (const id of Object.keys(given ?? {})) {
      const planned = args.plan.vnfs.find((v) => v.id === id);
      if (!planned || (field === "vmVnfs") !== (planned.component === "vm-vnf"))
        error("NS_ARGS_UNKNOWN", `${field}.${id}: the plan has no ${field === "vmVnfs" ? "VM VNF" : "CNF"} \`${id}\``);
    }
  }
  for (const vl of args.plan.virtualLinks) {
    if (args.linkNetworkIds?.[vl.id] === undefined && vl.cidr === undefined && vl.networkName === undefined) {
      error(
        "NS_LINK_NO_SUBNET",
        `NS virtual link \`${vl.id}\` has no L3 protocol data (vl_profile.virtual_link_protocol_data[].l3_protocol_data.cidr) to make its subnet from, and no linkNetworkIds entry`,
      );
    }
  }
  if (problems.length > 0) throw new DiagnosticError(`NetworkService '${name}'`, problems);
}
