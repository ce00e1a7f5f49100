/** `toComponentGraph`: pure, from hand-written models, so every rule is visible in the test. */
import { describe, expect, it } from "vitest";
import { DiagnosticError } from "../../../translators/diagnostics";
import { planComponentGraph, toComponentGraph } from "../../../translators/graph/to-component-graph";
import { renderDot } from "../../../translators/graph/render-dot";
import { renderMermaid } from "../../../translators/graph/render-mermaid";
import type { InstantiateVnfRequest } from "../../../translators/tacker/instantiate-request";
import type { ComputeVdu, ContainerVdu, Flavour, VnfModel } from "../../../translators/tosca/model";

function compute(id: string, over: Partial<ComputeVdu> = {}): ComputeVdu {
  return {
    id,
    name: id,
    kind: "compute",
    minInstances: 1,
    maxInstances: 3,
    initialInstances: 1,
    instancesByLevel: { small: 1, large: 3 },
    scaling: [],
    virtualCompute: { memoryMib: 512, numCpus: 1, localStorageGib: [3], requestedFlavorNames: ["m1.small"] },
    storageIds: [],
    ...over,
  };
}

function flavour(over: Partial<Flavour> = {}): Flavour {
  return {
    id: "simple",
    description: "",
    file: "f.yaml",
    vdus: [
      compute("VDU1", { storageIds: ["Vol1"], swImage: { name: "cirros", version: "0.5" } }),
      compute("VDU2", { swImage: { name: "cirros", version: "0.5" } }),
    ],
    storages: [{ id: "Vol1", sizeGib: 2 }],
    cps: [
      { id: "CP1", vduId: "VDU1", layerProtocols: ["ipv4"], externalRequirement: "virtual_link_external", order: 0 },
      { id: "CP2", vduId: "VDU2", virtualLinkId: "VL1", layerProtocols: ["ipv4"] },
    ],
    vls: [{ id: "VL1", layerProtocols: ["ipv4"], cidr: "10.0.0.0/24", ipVersion: "ipv4", bitrateByLevel: {} }],
    aspects: [],
    instantiationLevels: [
      { id: "small", scaleInfo: {}, isDefault: true },
      { id: "large", scaleInfo: {}, isDefault: false },
    ],
    defaultInstantiationLevelId: "small",
    placementGroups: [],
    affinityRules: [{ id: "apart", kind: "anti-affinity", scope: "nfvi_node", targets: ["G"], vduIds: ["VDU1", "VDU2"] }],
    lcmHooks: [],
    defaultLcmOperations: [],
    externalLinks: [{ name: "virtual_link_external", cpId: "CP1", requirement: "virtual_link" }],
    ...over,
  };
}

function model(...flavours: Flavour[]): VnfModel {
  return {
    format: "sol001",
    vnf: { descriptorId: "d", descriptorVersion: "1", provider: "p", productName: "Prod", softwareVersion: "1", vnfmInfo: [], nodeType: "t" },
    flavours,
    kubernetesManifests: [],
  };
}

const request: InstantiateVnfRequest = {
  flavourId: "simple",
  instantiationLevelId: "large",
  extVirtualLinks: [
    {
      id: "net0",
      resourceId: "uuid-net0",
      extCps: [
        {
          cpdId: "CP1",
          cpConfig: [
            {
              cpProtocolData: [
                { layerProtocol: "IP_OVER_ETHERNET", ipOverEthernet: { ipAddresses: [{ type: "IPV4", fixedAddresses: ["10.10.0.5"], subnetId: "uuid-sub" }] } },
              ],
            },
          ],
        },
      ],
    },
  ],
  extManagedVirtualLinks: [{ id: "m1", vnfVirtualLinkDescId: "VL1", resourceId: "uuid-vl1" }],
};

describe("toComponentGraph", () => {
  it("plans a VM VNF: VDUs at the default level, volume, ports, network, server group", () => {
    const g = toComponentGraph(model(flavour()), "simple");
    expect(g.instantiationLevelId).toBe("small");
    expect(g.nodes.map((n) => n.id)).toEqual([
      "component:vm-vnf",
      "vdu:VDU1",
      "vdu:VDU2",
      "volume:Vol1",
      "network:VL1",
      "port:CP1",
      "port:CP2",
      "server-group:apart",
    ]);
    expect(g.nodes[1]).toMatchObject({ kind: "vdu", instances: 1, memoryMib: 512, numCpus: 1, rootDiskGib: 3, flavorName: "m1.small", imageName: "cirros" });
    const nonContains = g.edges.filter((e) => e.kind !== "contains");
    expect(nonContains).toEqual([
      { from: "vdu:VDU1", to: "volume:Vol1", kind: "mounts" },
      { from: "port:CP1", to: "vdu:VDU1", kind: "binds" },
      { from: "port:CP2", to: "vdu:VDU2", kind: "binds" },
      { from: "port:CP2", to: "network:VL1", kind: "attaches" },
      { from: "vdu:VDU1", to: "server-group:apart", kind: "member-of" },
      { from: "vdu:VDU2", to: "server-group:apart", kind: "member-of" },
    ]);
    expect(g.edges.filter((e) => e.kind === "contains")).toHaveLength(g.nodes.length - 1);
  });

  it("applies the instantiate request: level, external and managed networks, fixed addresses", () => {
    const g = toComponentGraph(model(flavour()), "simple", request);
    expect(g.instantiationLevelId).toBe("large");
    expect(g.nodes.find((n) => n.id === "vdu:VDU1")).toMatchObject({ instances: 3 });
    expect(g.nodes.find((n) => n.id === "network:VL1")).toMatchObject({ external: true, resourceId: "uuid-vl1" });
    expect(g.nodes.find((n) => n.id === "network:ext:net0")).toMatchObject({ external: true, resourceId: "uuid-net0" });
    expect(g.nodes.find((n) => n.id === "port:CP1")).toMatchObject({ perInstance: [{ fixedAddresses: ["10.10.0.5"], subnetId: "uuid-sub" }] });
    expect(g.edges).toContainEqual({ from: "port:CP1", to: "network:ext:net0", kind: "attaches" });
  });

  it("carries what the VM components register from it: scaling per aspect, the level's scale levels, subnets' gateway and DHCP", () => {
    const f = flavour({
      vdus: [
        compute("VDU1", { storageIds: ["Vol1"], swImage: { name: "cirros", version: "0.5" }, keyName: "kp", userData: "#!/bin/sh" }),
        compute("VDU2", { swImage: { name: "cirros", version: "0.5" }, scaling: [{ aspectId: "out", stepDeltas: [1, 1], instancesByScaleLevel: [1, 2, 3] }] }),
      ],
      vls: [{ id: "VL1", layerProtocols: ["ipv4"], cidr: "10.0.0.0/24", ipVersion: "ipv4", gatewayIp: "10.0.0.254", dhcpEnabled: false, bitrateByLevel: {} }],
      aspects: [{ id: "out", name: "out", maxScaleLevel: 2, stepDeltas: ["d"], vduIds: ["VDU2"] }],
      instantiationLevels: [
        { id: "small", scaleInfo: { out: 1 }, isDefault: true },
        { id: "large", scaleInfo: {}, isDefault: false },
      ],
    });
    const g = toComponentGraph(model(f), "simple");
    expect(g.aspects).toEqual([{ aspectId: "out", maxScaleLevel: 2, levelScale: 1 }]);
    expect(g.nodes.find((n) => n.id === "vdu:VDU1")).toMatchObject({ keyName: "kp", userData: "#!/bin/sh" });
    expect(g.nodes.find((n) => n.id === "vdu:VDU2")).toMatchObject({ scaling: [{ aspectId: "out", instancesByScaleLevel: [1, 2, 3] }] });
    expect(g.nodes.find((n) => n.id === "network:VL1")).toMatchObject({ gatewayIp: "10.0.0.254", dhcpEnabled: false });
  });

  it("chooses the component from the Mgmt Driver, then the VDU kinds", () => {
    const hook = (file: string) => [
      { operation: "instantiate_end", artifact: "a", file, artifactType: "tosca.artifacts.Implementation.Python", dependencies: [] },
    ];
    const kind = (f: Flavour) => planComponentGraph(model(f), "simple").graph!.nodes[0];
    expect(kind(flavour({ lcmHooks: hook("Scripts/kubernetes_mgmt.py") }))).toMatchObject({ component: "kubernetes-cluster" });
    expect(kind(flavour({ lcmHooks: hook("Scripts/private_registry_mgmt.py") }))).toMatchObject({ component: "private-registry" });
    const container: ContainerVdu = {
      id: "C",
      name: "web",
      kind: "container",
      minInstances: 1,
      maxInstances: 1,
      initialInstances: 1,
      instancesByLevel: {},
      scaling: [],
      containers: [],
      labels: {},
      servicePorts: [],
    };
    expect(kind(flavour({ vdus: [container], cps: [], storages: [], affinityRules: [] }))).toMatchObject({ component: "container-vnf" });
    expect(kind(flavour({ vdus: [container, compute("VM")], cps: [], storages: [], affinityRules: [] }))).toMatchObject({
      component: "vm-vnf",
      reason: expect.stringContaining("mixed"),
    });
    // A Vdu.Compute with a container image is a container VDU: virtual_compute sizes the container.
    const sized = compute("WEB", { swImage: { name: "registry.example/web", version: "1.2.3", containerFormat: "docker" } });
    expect(kind(flavour({ vdus: [container, sized], cps: [], storages: [], affinityRules: [] }))).toMatchObject({ component: "container-vnf" });
    const vmImage = compute("VM", { swImage: { name: "cirros", version: "0.5", containerFormat: "bare" } });
    expect(kind(flavour({ vdus: [container, vmImage], cps: [], storages: [], affinityRules: [] }))).toMatchObject({ component: "vm-vnf" });
  });

  it("reports every mismatch between request and model", () => {
    const bad: InstantiateVnfRequest = {
      ...request,
      flavourId: "other",
      extVirtualLinks: [{ id: "n", resourceId: "r", extCps: [{ cpdId: "CP9", cpConfig: [] }] }],
      extManagedVirtualLinks: [{ id: "m", vnfVirtualLinkDescId: "VL9", resourceId: "r" }],
    };
    const { diagnostics } = planComponentGraph(model(flavour()), "simple", bad);
    expect(diagnostics.map((d) => [d.code, d.message])).toEqual([
      ["REQUEST_MISMATCH", "the instantiate request is for flavour `other`, not `simple`"],
      ["VNF_UNKNOWN_VL", "extManagedVirtualLinks: `VL9` is not a virtual link of flavour `simple`"],
      ["VNF_UNKNOWN_CP", "extVirtualLinks[n]: cpdId `CP9` is not a CP of flavour `simple` (CPs: CP1, CP2)"],
    ]);
    expect(() => toComponentGraph(model(flavour()), "simple", bad)).toThrow(DiagnosticError);
    expect(() => toComponentGraph(model(flavour()), "nope")).toThrow(/VNF_UNKNOWN_FLAVOUR: flavourId `nope` is not a flavour of the VNFD \(flavours: simple\)/);
    expect(planComponentGraph(model(flavour()), "simple", { flavourId: "simple", instantiationLevelId: "huge" }).diagnostics[0]).toMatchObject({
      code: "VNF_UNKNOWN_LEVEL",
      path: "instantiationLevelId",
    });
  });

  it("refuses what the VM components cannot realise, as they do: no image, no CIDR, an affinity scope Nova lacks", () => {
    const f = flavour({
      vdus: [compute("VDU1", { storageIds: ["Vol1"] }), compute("VDU2", { swImage: { name: "cirros", version: "0.5" } })],
      vls: [{ id: "VL1", layerProtocols: ["ipv4"], bitrateByLevel: {} }],
      affinityRules: [{ id: "zone_rule", kind: "anti-affinity", scope: "zone", targets: ["VDU2"], vduIds: ["VDU2"] }],
    });
    const own = { ...request, extManagedVirtualLinks: [] };
    expect(planComponentGraph(model(f), "simple", own).diagnostics.map((d) => d.code)).toEqual(["VNF_NO_IMAGE", "VNF_VL_NO_CIDR", "VNF_AFFINITY_SCOPE"]);
    // A VL handed over by extManagedVirtualLinks needs no CIDR.
    expect(planComponentGraph(model(f), "simple", request).diagnostics.map((d) => d.code)).toEqual(["VNF_NO_IMAGE", "VNF_AFFINITY_SCOPE"]);
  });

  it("is pure: the same input gives the same graph and the model is not changed", () => {
    const m = model(flavour());
    const before = JSON.stringify(m);
    expect(toComponentGraph(m, "simple", request)).toEqual(toComponentGraph(m, "simple", request));
    expect(JSON.stringify(m)).toBe(before);
  });
});

describe("diagrams", () => {
  const g = toComponentGraph(
    model(flavour({ lcmHooks: [{ operation: "heal_end", artifact: "a", file: "Scripts/x.py", artifactType: "", dependencies: [] }] })),
    "simple",
  );

  it("mermaid draws every relation, and containment only for otherwise unconnected nodes", () => {
    const text = renderMermaid(g);
    expect(text.split("\n")[0]).toBe("flowchart LR");
    expect(text).toContain('n5(["CP1"])');
    expect(text).toContain("n5 -->|binds| n1");
    expect(text).toContain("n0 -->|contains| n8"); // the hook has no other edge
    expect(text).not.toContain("n0 -->|contains| n1");
  });

  it("dot puts the resources in the component's cluster", () => {
    const text = renderDot(g);
    expect(text).toContain("subgraph cluster_component {");
    expect(text).toContain('"port:CP2" -> "network:VL1" [label="attaches"];');
    expect(text).not.toContain("contains");
  });
});
