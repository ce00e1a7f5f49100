/**
 * NetworkService under Pulumi mocks, on the example NS planned by loadNsPackage: which networks,
 * ports and Kubernetes objects are asked for, on which network; not that a cloud accepts them.
 */
import { beforeAll, describe, expect, it } from "vitest";
import { installMocks, settle, valueOf, type Registered } from "../helpers/pulumi-mocks";
import { loadNsPackage, type LoadedNsPackage } from "../../../translators/load-ns-package";
import { manifestReader } from "../../../translators/kubernetes/manifests";
import type { NetworkServiceArgs } from "../../../components/ns";
import { writePackage } from "../tosca/helpers";
import { examplePackage } from "./helpers";

let registered: Registered[];
let ns: typeof import("../../../components/ns");
let loaded: LoadedNsPackage;

beforeAll(async () => {
  registered = installMocks();
  ns = await import("../../../components/ns");
  loaded = await loadNsPackage(writePackage(examplePackage("ns")), {
    client: { packagePath: writePackage(examplePackage("client-vnf")), vimKind: "openstack" },
    server: { packagePath: writePackage(examplePackage("server-cnf")), vimKind: "kubernetes" },
  });
  expect(loaded.diagnostics.filter((d) => d.severity === "error")).toEqual([]);
});

function args(): NetworkServiceArgs {
  const { client, server } = loaded.vnfs;
  return {
    plan: loaded.plan!,
    vmVnfs: { client: { flavours: client.model!.flavours, request: { flavourId: "simple" } } },
    cnfs: {
      server: {
        vim: { namespace: "default" },
        model: server.model!,
        flavourId: "simple",
        vnfInstanceId: "9f1c2d3e-0000-4000-8000-000000000001",
        manifests: manifestReader(server.pkg.source),
        additionalParams: { "lcm-kubernetes-def-files": ["Files/kubernetes/server.yaml"] },
      },
    },
  };
}

describe("NetworkService on the example NS", () => {
  it("makes the NS virtual link a network with its subnet, puts the client's CP on it, deploys the server's objects", async () => {
    const service = new ns.NetworkService("hy", args());
    expect(await valueOf(service.linkNetworkIds)).toEqual({ service_link: "hy-service_link-id" });
    await settle();
    const names = registered.map((r) => `${r.type} ${r.name}`);
    expect(names).toEqual(
      expect.arrayContaining([
        "nfv:ns:NetworkService hy",
        "openstack:networking/network:Network hy-service_link",
        "openstack:networking/subnet:Subnet hy-service_link-subnet",
        "nfv:cnf:ContainerizedVnf hy-server",
        "nfv:vnf:VmVnf hy-client",
        "kubernetes:apps/v1:Deployment hy-server-deployment-server",
        "kubernetes:core/v1:Service hy-server-service-server",
        "openstack:compute/instance:Instance hy-client-client-0",
      ]),
    );
    expect(registered.find((r) => r.name === "hy-service_link-subnet")?.inputs).toMatchObject({
      cidr: "10.30.0.0/24",
      ipVersion: 4,
      enableDhcp: true,
      networkId: "hy-service_link-id",
    });
    const ports = registered.filter((r) => r.type === "openstack:networking/port:Port" && r.name.startsWith("hy-client"));
    expect(ports.map((p) => [p.name, p.inputs.networkId])).toEqual([["hy-client-client-0-clientCp", "hy-service_link-id"]]);
    // The NSD's order: the server (which the client depends on) is registered first.
    expect(names.indexOf("nfv:cnf:ContainerizedVnf hy-server")).toBeLessThan(names.indexOf("nfv:vnf:VmVnf hy-client"));
  });

  it("an existing network for the link: nothing made, the client's port on it", async () => {
    const before = registered.length;
    new ns.NetworkService("hz", { ...args(), linkNetworkIds: { service_link: "net-existing" } });
    await settle();
    const mine = registered.slice(before);
    expect(mine.filter((r) => r.type.startsWith("openstack:networking/network") || r.type.startsWith("openstack:networking/subnet"))).toEqual([]);
    expect(mine.find((r) => r.name === "hz-client-client-0-clientCp")?.inputs.networkId).toBe("net-existing");
  });

  it("args missing for a constituent, or given for one the plan lacks: one error listing both, nothing registered", async () => {
    const before = registered.length;
    const bad = { ...args(), vmVnfs: {}, cnfs: { ...args().cnfs, client: args().cnfs!.server } };
    expect(() => new ns.NetworkService("bad", bad)).toThrow(/NS_ARGS_MISSING[\s\S]*`client`[\s\S]*NS_ARGS_UNKNOWN: cnfs\.client/);
    await settle();
    expect(registered.slice(before)).toEqual([]);
  });

  it("a link without L3 data and no existing network: NS_LINK_NO_SUBNET", () => {
    const plan = { ...loaded.plan!, virtualLinks: loaded.plan!.virtualLinks.map((vl) => ({ id: vl.id, layerProtocols: vl.layerProtocols, at: vl.at })) };
    expect(() => new ns.NetworkService("nosub", { ...args(), plan })).toThrow(/NS_LINK_NO_SUBNET: NS virtual link `service_link`/);
  });
});
