/**
 * `nfv translate` against `up`: on every VM VNF package of the shared corpus and samples, the
 * component graph that `nfv translate --request` prints (loadVnfPackage) and what VmVnf registers
 * under Pulumi mocks for the same package and request agree: both refuse, or both accept and the
 * graph's VDUs × instances, their CPs, the networks it creates, the volumes its VDUs mount and its
 * server groups are exactly the servers, ports, networks and subnets, volumes and server groups
 * registered. The request links every external CP to a network of its own, as an operator's does.
 */
import { join } from "node:path";
import * as openstack from "@pulumi/openstack";
import { beforeAll, expect, it } from "vitest";
import type { ComponentGraph, GraphNode } from "../../../translators/graph/types";
import type { InstantiateVnfRequest } from "../../../translators/tacker/instantiate-request";
import { planComponentGraph } from "../../../translators/graph/to-component-graph";
import { loadVnfPackage } from "../../../translators/load-vnf-package";
import { installVnfMocks } from "../vnf/vnf-mocks";
import { settle, valueOf, type Registered } from "../helpers/pulumi-mocks";
import { SHARED_PACKAGES, target, verdicts } from "./corpus";
import { disagreement, fromGraph, registeredResources } from "./graph-resources";

let registered: Registered[];
let invoked: { token: string; inputs: Record<string, unknown> }[];
let vnf: typeof import("../../../components/vnf");
let provider: openstack.Provider;

beforeAll(async () => {
  ({ registered, invoked } = installVnfMocks());
  vnf = await import("../../../components/vnf");
  provider = new openstack.Provider("vim", { authUrl: "http://192.0.2.10/identity" });
  await settle();
});

/** The request an operator writes for the package: the graph's flavour, each external CP on a network of its own. */
function requestFor(graph: ComponentGraph): InstantiateVnfRequest {
  const attached = new Set(graph.edges.filter((e) => e.kind === "attaches").map((e) => e.from));
  const external = graph.nodes.filter((n): n is Extract<GraphNode, { kind: "port" }> => n.kind === "port" && !attached.has(n.id));
  const request: InstantiateVnfRequest = { flavourId: graph.flavourId };
  if (graph.instantiationLevelId !== undefined) request.instantiationLevelId = graph.instantiationLevelId;
  if (external.length > 0)
    request.extVirtualLinks = external.map((p, i) => ({
      id: `ext-${p.cpId}`,
      resourceId: `00000000-0000-4000-8000-${String(i).padStart(12, "0")}`,
      extCps: [{ cpdId: p.cpId, cpConfig: [{}] }],
    }));
  return request;
}

function packages(): { id: string; path: string }[] {
  const samples = ["helloworld3"].map((id) => ({ id, path: join(SHARED_PACKAGES, id) }));
  return [...samples, ...verdicts().map((v) => ({ id: v.id, path: target(v) }))];
}

it("nfv translate and up agree on every VM VNF package of the shared corpus and samples", async () => {
  const disagreements: string[] = [];
  let compared = 0;
  let refused = 0;
  for (const { id, path } of packages()) {
    const planned = await loadVnfPackage(path);
    // A package Tacker refuses has no model; one whose flavour cannot be realised still has a graph.
    if (!planned.model || !planned.graph || planned.component !== "vm-vnf") continue;
    const request = requestFor(planned.graph);
    // What loadVnfPackage(path, request) does once the package is read, without reading it again.
    const translated = planComponentGraph(planned.model, request.flavourId, request);
    const translateErrors = translated.diagnostics.filter((d) => d.severity === "error").map((d) => d.code);
    // The previous package's registrations have landed (settled below).
    registered.length = 0;
    invoked.length = 0;
    let upError: string | undefined;
    try {
      const v = new vnf.VmVnf("v", { flavours: planned.model.flavours, request, provider, packageSource: planned.pkg.source });
      await valueOf(v.vnfcs);
      await settle();
    } catch (e) {
      const codes = (e as { diagnostics?: { code: string }[] }).diagnostics?.map((d) => d.code);
      upError = codes ? [...new Set(codes)].sort().join(",") : String(e);
    }
    compared++;
    if (translateErrors.length > 0 || upError !== undefined) {
      const codes = [...new Set(translateErrors)].sort().join(",");
      refused++;
      if (codes !== upError) disagreements.push(`${id}: translate ${codes || "accepts"}, up ${upError ?? "accepts"}`);
      continue;
    }
    const differs = disagreement(id, fromGraph("v", translated.graph!), registeredResources(registered));
    if (differs) disagreements.push(differs);
  }
  console.log(`translate vs up: ${compared - disagreements.length}/${compared} VM VNF packages agree (${refused} refused by one or both)`);
  expect(compared).toBeGreaterThan(90);
  expect(disagreements).toEqual([]);
}, 300_000);
