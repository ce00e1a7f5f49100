/**
 * ContainerizedVnf under Pulumi mocks: the exact children (types, names, inputs), the VIM's
 * provider on every child, creation order as dependencies, outputs, and nothing registered on bad
 * input. Proves what the program asks for, not that a cluster accepts it.
 */
import * as pulumi from "@pulumi/pulumi";
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from "vitest";
import { dependenciesOf } from "../../../translators/kubernetes/order";
import { containerVduModel, testCnfModel } from "../../fixtures/cnf/models";
import { installMocks, isSecretValue, plain, settle, valueOf, type Registered } from "../helpers/pulumi-mocks";
import { defFiles, testCnfFiles } from "./helpers";

let registered: Registered[];
let cnf: typeof import("../../../components/cnf");
let vim: typeof import("../../../components/vim");

beforeAll(async () => {
  registered = installMocks();
  cnf = await import("../../../components/cnf");
  vim = await import("../../../components/vim");
});
beforeEach(() => {
  vi.spyOn(pulumi.log, "warn").mockImplementation(() => Promise.resolve());
});
afterEach(async () => {
  await settle();
  registered.length = 0;
  vi.restoreAllMocks();
});

const ID = "6a1b1a52-7f5c-4c1f-a1d3-0f0e6c5d4b3a";
const byName = (a: Registered, b: Registered) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0);
const edge = () => new vim.KubernetesVim("edge", { authUrl: "https://192.0.2.10:6443", bearerToken: "tok", sslCaCert: "None", projectName: "nfv" });

describe("ContainerizedVnf", () => {
  it("registers each manifest object with its typed class, on the VIM's provider, named from the component", async () => {
    const v = edge();
    const c = new cnf.ContainerizedVnf("hello", {
      vim: v,
      model: testCnfModel(),
      flavourId: "simple",
      instantiationLevelId: "instantiation_level_2",
      vnfInstanceId: ID,
      refuseAdoption: false,
      additionalParams: defFiles("deployment.yaml", "pod.yaml", "config-map.yaml", "namespace.yaml", "horizontal-pod-autoscaler.yaml"),
      manifests: testCnfFiles(),
    });
    expect(await valueOf(c.namespace)).toBe("default");
    await settle();
    // Registration order depends on when dependencies resolve; creation order is asserted below.
    const mine = registered.filter((r) => r.name.startsWith("hello")).sort(byName);
    expect(mine.map((r) => [r.type, r.name])).toEqual([
      ["nfv:cnf:ContainerizedVnf", "hello"],
      ["kubernetes:core/v1:ConfigMap", "hello-configmap-curry-test001"],
      ["kubernetes:apps/v1:Deployment", "hello-deployment-vdu2"],
      ["kubernetes:autoscaling/v1:HorizontalPodAutoscaler", "hello-horizontalpodautoscaler-curry-hpa-vdu001"],
      ["kubernetes:core/v1:Namespace", "hello-namespace-curry"],
      ["kubernetes:core/v1:Pod", "hello-pod-vdu1"],
    ]);
    for (const r of mine.slice(1)) expect(r.provider).toMatch(/::edge-provider::/);
    const deployment = mine.find((r) => r.name === "hello-deployment-vdu2")!;
    expect(deployment.inputs).toEqual({
      apiVersion: "apps/v1",
      kind: "Deployment",
      metadata: { name: "vdu2", namespace: "default", labels: { tacker_vnf_instance_id: ID } },
      spec: {
        replicas: 3,
        selector: { matchLabels: { selector: "curry-probe-test001" } },
        template: {
          metadata: { labels: { selector: "curry-probe-test001", app: "webserver" } },
          spec: {
            containers: [
              { name: "nginx-liveness-probe", image: "nginx", imagePullPolicy: "IfNotPresent", ports: [{ containerPort: 80, protocol: "TCP" }] },
              { image: "nginx", imagePullPolicy: "IfNotPresent", name: "nginx-readiness-probe", ports: [{ containerPort: 8080, protocol: "TCP" }] },
            ],
          },
        },
      },
    });
    expect(await valueOf(c.objects)).toEqual([
      { apiVersion: "v1", kind: "Namespace", name: "curry", resourceName: "hello-namespace-curry" },
      { apiVersion: "v1", kind: "ConfigMap", name: "curry-test001", namespace: "default", resourceName: "hello-configmap-curry-test001" },
      { apiVersion: "apps/v1", kind: "Deployment", name: "vdu2", namespace: "default", resourceName: "hello-deployment-vdu2", vduId: "VDU2" },
      { apiVersion: "v1", kind: "Pod", name: "vdu1", namespace: "default", resourceName: "hello-pod-vdu1", vduId: "VDU1" },
      {
        apiVersion: "autoscaling/v1",
        kind: "HorizontalPodAutoscaler",
        name: "curry-hpa-vdu001",
        namespace: "default",
        resourceName: "hello-horizontalpodautoscaler-curry-hpa-vdu001",
      },
    ]);
    expect(Object.keys(c.resources)).toEqual([
      "namespace-curry",
      "configmap-curry-test001",
      "deployment-vdu2",
      "pod-vdu1",
      "horizontalpodautoscaler-curry-hpa-vdu001",
    ]);
    expect((await valueOf(c.vnfcs)).VDU2).toEqual({
      vduId: "VDU2",
      kind: "Deployment",
      name: "vdu2",
      namespace: "default",
      labelSelector: "selector=curry-probe-test001",
      replicas: 3,
    });
  });

  it("creation order: each tier depends on the previous non-empty tier", () => {
    const plan = cnf.planCnf({
      model: testCnfModel(),
      flavourId: "simple",
      vnfInstanceId: ID,
      additionalParams: defFiles("deployment.yaml", "pod.yaml", "config-map.yaml", "namespace.yaml", "horizontal-pod-autoscaler.yaml"),
      manifests: testCnfFiles(),
    });
    expect(Object.fromEntries(dependenciesOf(plan.objects))).toEqual({
      "namespace-curry": [],
      "configmap-curry-test001": ["namespace-curry"],
      "deployment-vdu2": ["configmap-curry-test001"],
      "pod-vdu1": ["configmap-curry-test001"],
      "horizontalpodautoscaler-curry-hpa-vdu001": ["deployment-vdu2", "pod-vdu1"],
    });
  });

  it("namespace: the VIM's when neither the request nor the objects name one", async () => {
    const v = edge();
    const c = new cnf.ContainerizedVnf("web", {
      vim: v,
      model: containerVduModel(),
      flavourId: "default",
      vnfInstanceId: "i-1",
      refuseAdoption: false,
      additionalParams: { container_vdus: { WEB: { ports: ["80"] }, PROBE: { pod: true } } },
    });
    expect(await valueOf(c.namespace)).toBe("nfv");
    await settle();
    const mine = registered.filter((r) => r.name.startsWith("web")).sort(byName);
    expect(mine.map((r) => [r.type, r.name])).toEqual([
      ["nfv:cnf:ContainerizedVnf", "web"],
      ["kubernetes:apps/v1:Deployment", "web-deployment-cache"],
      ["kubernetes:apps/v1:Deployment", "web-deployment-web"],
      ["kubernetes:autoscaling/v2:HorizontalPodAutoscaler", "web-horizontalpodautoscaler-cache"],
      ["kubernetes:core/v1:Pod", "web-pod-probe"],
      ["kubernetes:core/v1:Service", "web-service-web"],
    ]);
    for (const r of mine.slice(1)) expect((r.inputs.metadata as Record<string, unknown>).namespace).toBeUndefined();
    expect((await valueOf(c.vnfcs)).WEB.namespace).toBe("nfv");
    expect((await valueOf(c.objects)).map((o) => o.namespace)).toEqual(["nfv", "nfv", "nfv", "nfv", "nfv"]);
  });

  it("custom resources are apiextensions.CustomResource children", async () => {
    const m = testCnfModel();
    m.kubernetesManifests.push("Files/kubernetes/crd.yaml");
    const crd =
      "apiVersion: apiextensions.k8s.io/v1\nkind: CustomResourceDefinition\nmetadata: {name: widgets.example.com}\nspec:\n  group: example.com\n  scope: Cluster\n  names: {kind: Widget, plural: widgets}\n  versions: [{name: v1, served: true, storage: true, schema: {openAPIV3Schema: {type: object}}}]\n---\napiVersion: example.com/v1\nkind: Widget\nmetadata: {name: w1}\n";
    const files = testCnfFiles();
    new cnf.ContainerizedVnf("cr", {
      vim: edge(),
      model: m,
      flavourId: "simple",
      vnfInstanceId: ID,
      refuseAdoption: false,
      additionalParams: defFiles("pod.yaml", "deployment.yaml", "crd.yaml"),
      manifests: { read: (p) => (p === "Files/kubernetes/crd.yaml" ? crd : files.read(p)) },
    });
    await settle();
    const mine = registered.filter((r) => r.name.startsWith("cr-")).sort(byName);
    expect(mine.map((r) => [r.type, r.name])).toEqual([
      ["kubernetes:apiextensions.k8s.io/v1:CustomResourceDefinition", "cr-customresourcedefinition-widgets.example.com"],
      ["kubernetes:apps/v1:Deployment", "cr-deployment-vdu2"],
      ["kubernetes:core/v1:Pod", "cr-pod-vdu1"],
      ["kubernetes:example.com/v1:Widget", "cr-widget-w1"],
    ]);
    expect(mine[3].inputs).toEqual({ apiVersion: "example.com/v1", kind: "Widget", metadata: { name: "w1", labels: { tacker_vnf_instance_id: ID } } });
  });

  it("bad input: one DiagnosticError, and nothing at all is registered", async () => {
    const v = edge();
    await settle();
    registered.length = 0;
    expect(
      () =>
        new cnf.ContainerizedVnf("bad", {
          vim: v,
          model: testCnfModel(),
          flavourId: "simple",
          vnfInstanceId: ID,
          refuseAdoption: false,
          additionalParams: defFiles("deployment.yaml", "daemon-set.yaml", "pod.yaml"),
          manifests: testCnfFiles(),
        }),
    ).toThrow(
      /^ContainerizedVnf 'bad': invalid input, nothing was created \(1 problem\):\n.*CNF_VDU_AMBIGUOUS: VDU `VDU1` \(name `vdu1`\) matches DaemonSet at test_cnf\/Files\/kubernetes\/daemon-set.yaml:1 and Pod at test_cnf\/Files\/kubernetes\/pod.yaml:1/,
    );
    await settle();
    expect(registered).toEqual([]);
  });

  it("child options: parent, provider, dependsOn; healGeneration replaces only the VDUs' workloads", async () => {
    const { childOptions } = await import("../../../components/cnf/containerized-vnf");
    const v = edge();
    const c = new cnf.ContainerizedVnf("opt", {
      vim: v,
      model: testCnfModel(),
      flavourId: "simple",
      vnfInstanceId: ID,
      refuseAdoption: false,
      additionalParams: defFiles("pod.yaml", "deployment.yaml", "config-map.yaml"),
      manifests: testCnfFiles(),
    });
    const [config, pod] = c.plan.objects;
    const deps = [c.resources["configmap-curry-test001"]];
    expect(childOptions(pod, c, v.provider, deps, 3)).toEqual({
      parent: c,
      provider: v.provider,
      dependsOn: deps,
      deleteBeforeReplace: true,
      replacementTrigger: 3,
    });
    expect(childOptions(config, c, v.provider, [], 3)).toEqual({ parent: c, provider: v.provider, dependsOn: [], deleteBeforeReplace: true });
    // Set from the start, so that the first heal (0 → 1) is a change the engine acts on.
    expect(childOptions(pod, c, v.provider, deps, undefined)).toEqual({
      parent: c,
      provider: v.provider,
      dependsOn: deps,
      deleteBeforeReplace: true,
      replacementTrigger: 0,
    });
  });

  it("a Secret's data is a secret from the input on", async () => {
    new cnf.ContainerizedVnf("sec", {
      vim: edge(),
      model: testCnfModel(),
      flavourId: "simple",
      vnfInstanceId: ID,
      refuseAdoption: false,
      additionalParams: defFiles("pod.yaml", "replicaset_service_secret.yaml"),
      manifests: testCnfFiles(),
    });
    await settle();
    const secret = registered.find((r) => r.name === "sec-secret-curry-sc-multiple")!;
    expect(secret.type).toBe("kubernetes:core/v1:Secret");
    expect(isSecretValue(secret.inputs.data)).toBe(true);
    expect(plain(secret.inputs.data)).toEqual({ param0: "a2V5MQ==", param1: "a2V5Mg==" });
  });

  it("services: each Service by name with its ports as the API server returned its spec (the mock returns the inputs)", async () => {
    const c = new cnf.ContainerizedVnf("svc", {
      vim: edge(),
      model: testCnfModel(),
      flavourId: "simple",
      vnfInstanceId: ID,
      refuseAdoption: false,
      additionalParams: defFiles("pod.yaml", "replicaset_service_secret.yaml"),
      manifests: testCnfFiles(),
    });
    expect(await valueOf(c.services)).toEqual({
      "curry-svc-vdu001-multiple": { namespace: "default", type: "NodePort", ports: [{ name: "80", port: 80, targetPort: 8080, protocol: "TCP" }] },
    });
    const none = new cnf.ContainerizedVnf("nosvc", {
      vim: edge(),
      model: testCnfModel(),
      flavourId: "simple",
      vnfInstanceId: ID,
      refuseAdoption: false,
      additionalParams: defFiles("pod.yaml", "deployment.yaml"),
      manifests: testCnfFiles(),
    });
    expect(await valueOf(none.services)).toEqual({});
  });

  it("manifests may be given as a map path → text", async () => {
    const files = testCnfFiles();
    const map = Object.fromEntries(["Files/kubernetes/pod.yaml", "Files/kubernetes/deployment.yaml"].map((p) => [p, files.read(p)!]));
    const c = new cnf.ContainerizedVnf("map", {
      vim: edge(),
      model: testCnfModel(),
      flavourId: "simple",
      vnfInstanceId: ID,
      refuseAdoption: false,
      additionalParams: defFiles("pod.yaml", "deployment.yaml"),
      manifests: map,
    });
    expect((await valueOf(c.objects)).map((o) => o.resourceName)).toEqual(["map-pod-vdu1", "map-deployment-vdu2"]);
  });
});
