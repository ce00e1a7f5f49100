/**
 * `nfv translate` against `up` for the components that run Tacker's Mgmt Drivers on VMs: the
 * private registry (private_registry_vnf_package with its seed parameter file) and the Kubernetes
 * cluster (kubernetes_vnf_package, with Tacker's fix, under each of its parameter files: one master,
 * three masters behind a VIP, and pod anti-affinity). The graph that `nfv translate --request`
 * prints (loadVnfPackage) and what the component registers under Pulumi mocks are exactly the same
 * servers, ports (the VIP too), volumes (the registry's storage too), networks and server groups.
 */
import { join } from "node:path";
import * as openstack from "@pulumi/openstack";
import * as pulumi from "@pulumi/pulumi";
import { beforeAll, expect, it } from "vitest";
import type { InstantiateVnfRequest } from "../../../translators/tacker/instantiate-request";
import { loadVnfPackage } from "../../../translators/load-vnf-package";
import { settle, type Registered } from "../helpers/pulumi-mocks";
import { K8S_FIXTURES, K8S_PACKAGE } from "../k8s-cluster/k8s-fixtures";
import { installK8sMocks, k8sRequest, resetAddresses } from "../k8s-cluster/k8s-mocks";
import { PACKAGES, request } from "../vnf/vnf-mocks";
import { disagreement, fromGraph, registeredResources } from "./graph-resources";

let registered: Registered[];
let k8s: typeof import("../../../components/k8s-cluster");
let reg: typeof import("../../../components/registry");
let provider: openstack.Provider;

beforeAll(async () => {
  // The cluster's mocks answer its scripts' outputs; the registry needs nothing more.
  registered = installK8sMocks();
  k8s = await import("../../../components/k8s-cluster");
  reg = await import("../../../components/registry");
  provider = new openstack.Provider("vim", { authUrl: "http://192.0.2.10/identity" });
  await settle();
});

/** The package's plan for the request, which must be accepted and be `component`'s. */
async function planned(path: string, req: InstantiateVnfRequest, component: string) {
  const p = await loadVnfPackage(path, req);
  expect(p.diagnostics.filter((d) => d.severity === "error")).toEqual([]);
  expect(p.component).toBe(component);
  return { model: p.model!, graph: p.graph! };
}

it("nfv translate and up agree on the private registry package (its storage volume too)", async () => {
  const dir = join(PACKAGES, "private_registry_vnf_package");
  const req = request("private_registry_param_file.json");
  const { model, graph } = await planned(dir, req, "private-registry");
  registered.length = 0;
  new reg.PrivateRegistry("r", { vnf: { flavours: model.flavours, request: req, provider, packageDir: dir } });
  await settle();
  const up = registeredResources(registered);
  expect(up).toContain("volume r-vnf-PrivateRegistryVDU-0-RegistryStorage");
  expect(disagreement("private_registry_vnf_package", fromGraph("r-vnf", graph, "r"), up)).toBeUndefined();
});

for (const file of ["private_registry_kubernetes_param_file.json", "complex_request.json", "podaffinity_request.json"]) {
  it(`nfv translate and up agree on kubernetes_vnf_package with ${file}`, async () => {
    const req = k8sRequest(file);
    const { model, graph } = await planned(K8S_PACKAGE, req, "kubernetes-cluster");
    registered.length = 0;
    resetAddresses();
    new k8s.K8sCluster("k", {
      flavours: model.flavours,
      request: req,
      provider,
      packageDir: K8S_FIXTURES,
      versions: { kubernetes: "1.30.14", kubernetesPackage: "1.30.14-1.1", containerdPackage: "1.7.24-0ubuntu1", etcdClientPackage: "3.4.30-1" },
      sandboxImage: "192.168.246.10:5000/pause:3.9",
      // Nova's answer for an anti-affine worker's host (the podaffinity file); registers nothing.
      placement: { placementOf: () => pulumi.output({ host: "compute1", hostIsHash: false, zone: "nova" }) },
    });
    await settle();
    const up = registeredResources(registered);
    expect(up.filter((r) => r.startsWith("server "))).not.toEqual([]);
    expect(disagreement(file, fromGraph("k-vnf", graph, "k"), up)).toBeUndefined();
  });
}
