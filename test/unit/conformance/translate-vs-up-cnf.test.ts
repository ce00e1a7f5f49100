/**
 * `nfv translate` against `up` for containerized VNFs: on every CNF package of the shared corpus
 * and samples, under requests as Tacker's functional tests write them, the component graph that
 * `nfv translate --request` prints (loadVnfPackage) and what ContainerizedVnf registers under
 * Pulumi mocks agree: both refuse with the same codes, or both accept and the graph's Kubernetes
 * objects (type, child name, namespace, name, replicas) and Helm releases are exactly the
 * resources registered.
 */
import { join } from "node:path";
import { beforeAll, expect, it } from "vitest";
import type { ComponentGraph } from "../../../translators/graph/types";
import type { InstantiateVnfRequest } from "../../../translators/tacker/instantiate-request";
import { loadVnfPackage } from "../../../translators/load-vnf-package";
import { manifestReader } from "../../../translators/kubernetes/manifests";
import { settle, installMocks, type Registered } from "../helpers/pulumi-mocks";
import { charts } from "../helpers/recording-chart";
import { SHARED_PACKAGES } from "./corpus";
import { disagreement } from "./graph-resources";

let registered: Registered[];
let cnf: typeof import("../../../components/cnf");

beforeAll(async () => {
  registered = installMocks();
  cnf = await import("../../../components/cnf");
});

const INSTANCE_ID = "3f0c5c6e-0b9e-4c51-9a57-1d2b3c4d5e6f";
const CORPUS = join(SHARED_PACKAGES, "tacker-corpus/packages");
const defFiles = (...files: string[]) => ({ "lcm-kubernetes-def-files": files.map((f) => `Files/kubernetes/${f}`) });

interface Case {
  name: string;
  path: string;
  request?: InstantiateVnfRequest;
  /** `lcm-kubernetes-def-files` is every manifest the package declares, as an operator who deploys all of it writes. */
  everyManifest?: boolean;
}

/** The packages and the requests of Tacker's functional tests (sol_kubernetes, sol_kubernetes_v2) for them. */
const CASES: Case[] = [
  ...["instantiation_level_1", "instantiation_level_2"].map((level) => ({
    name: `test_cnf simple at ${level}`,
    path: join(SHARED_PACKAGES, "test_cnf"),
    request: {
      flavourId: "simple",
      instantiationLevelId: level,
      additionalParams: defFiles(
        "pod.yaml",
        "deployment.yaml",
        "config-map.yaml",
        "horizontal-pod-autoscaler.yaml",
        "role_rolebinding_SA.yaml",
        "clusterrole_clusterrolebinding_SA.yaml",
        "storage-class.yaml",
        "persistent-volume-0.yaml",
        "limit-range.yaml",
        "resource-quota.yaml",
        "multiple_yaml_priority-class.yaml",
        "multiple_yaml_network-policy.yaml",
        "multiple_yaml_lease.yaml",
      ),
    },
  })),
  {
    name: "test_cnf vdumap with vdu_mapping",
    path: join(SHARED_PACKAGES, "test_cnf"),
    request: {
      flavourId: "vdumap",
      instantiationLevelId: "instantiation_level_2",
      additionalParams: { ...defFiles("deployment_vdumap1.yaml"), vdu_mapping: { VDU1: { kind: "Deployment", name: "vdumap1" } } },
    },
  },
  {
    name: "test_cnf vdumap without vdu_mapping (refused)",
    path: join(SHARED_PACKAGES, "test_cnf"),
    request: { flavourId: "vdumap", additionalParams: defFiles("deployment_vdumap1.yaml") },
  },
  {
    name: "test_cnf simple, every manifest of the package",
    path: join(SHARED_PACKAGES, "test_cnf"),
    request: { flavourId: "simple" },
    everyManifest: true,
  },
  ...[{}, { namespace: "multi-namespace02" }].map((extra) => ({
    name: `etsi_test_cnf_multi_ns${"namespace" in extra ? " with additionalParams.namespace" : ""}`,
    path: join(CORPUS, "etsi_test_cnf_multi_ns"),
    request: {
      flavourId: "simple",
      additionalParams: {
        ...defFiles("namespace01.yaml", "namespace02.yaml", "deployment_has_namespace.yaml", "deployment_no_namespace.yaml"),
        ...extra,
      },
    },
  })),
  ...[
    ["simple", "deployment_scale.yaml"],
    ["simple", "statefulset_scale.yaml"],
    ["scalingsteps", "replicaset_scale.yaml"],
  ].map(([flavourId, file]) => ({
    name: `etsi_test_cnf_scale ${flavourId} with ${file}`,
    path: join(CORPUS, "etsi_test_cnf_scale"),
    request: { flavourId, instantiationLevelId: "instantiation_level_2", additionalParams: defFiles(file) },
  })),
  {
    name: "func_sol_kubernetes_v2_test_helm_change_vnf_pkg_contents",
    path: join(CORPUS, "func_sol_kubernetes_v2_test_helm_change_vnf_pkg_contents"),
    request: {
      flavourId: "simple",
      instantiationLevelId: "instantiation_level_2",
      additionalParams: {
        helm_chart_path: "Files/kubernetes/test-chart-0.1.1.tgz",
        helm_parameters: { service: { port: 8081 } },
        helm_value_names: { VDU1: { replica: "replicaCountVdu1" }, VDU2: { replica: "replicaCountVdu2" } },
      },
    },
  },
  ...["tosca-vnfd-containerized.yaml", "tosca-vnfd-containerized-two-containers.yaml"].map((file) => ({
    name: `legacy ${file} (no request)`,
    path: join(SHARED_PACKAGES, "legacy-containerized", file),
  })),
];

/** A Kubernetes apiVersion's Pulumi type token prefix: `v1` is `core/v1`. */
const typeOf = (apiVersion: string, kind: string) => `kubernetes:${apiVersion.includes("/") ? apiVersion : `core/${apiVersion}`}:${kind}`;

/** What the graph says `up` registers in the ContainerizedVnf named `component`. */
function fromGraph(component: string, graph: ComponentGraph): string[] {
  const out: string[] = [];
  for (const n of graph.nodes) {
    if (n.kind === "k8s-object")
      out.push(
        `${typeOf(n.apiVersion, n.objectKind)} ${component}-${n.key} ${n.namespace ?? "-"}/${n.name}${n.replicas !== undefined ? ` x${n.replicas}` : ""}`,
      );
    if (n.kind === "helm-release") out.push(`helm ${component}-${n.key} ${n.releaseName}`);
  }
  return out.sort();
}

/** The Kubernetes objects and charts registered. */
function registeredObjects(): string[] {
  const objects = registered
    .filter((r) => r.type.startsWith("kubernetes:") && !r.type.startsWith("kubernetes:helm.sh/"))
    .map((r) => {
      const metadata = r.inputs.metadata as { name: string; namespace?: string };
      const replicas = (r.inputs.spec as { replicas?: number } | undefined)?.replicas;
      return `${r.type} ${r.name} ${metadata.namespace ?? "-"}/${metadata.name}${replicas !== undefined ? ` x${replicas}` : ""}`;
    });
  return [...objects, ...charts.map((c) => `helm ${c.name} ${c.args.name as string}`)].sort();
}

it("nfv translate and up agree on every CNF package of the shared corpus and samples", async () => {
  const disagreements: string[] = [];
  let refused = 0;
  let objects = 0;
  for (const c of CASES) {
    let request = c.request;
    if (c.everyManifest) request = { ...request!, additionalParams: { "lcm-kubernetes-def-files": (await loadVnfPackage(c.path)).model!.kubernetesManifests } };
    const planned = await loadVnfPackage(c.path, request, { vnfInstanceId: INSTANCE_ID });
    expect(planned.component, c.name).toBe("container-vnf");
    const translateErrors = [...new Set(planned.diagnostics.filter((d) => d.severity === "error").map((d) => d.code))].sort().join(",");
    await settle();
    registered.length = 0;
    charts.length = 0;
    let upError: string | undefined;
    try {
      new cnf.ContainerizedVnf("c", {
        vim: { namespace: "default" },
        model: planned.model!,
        flavourId: request?.flavourId ?? planned.graph!.flavourId,
        ...(request?.instantiationLevelId !== undefined ? { instantiationLevelId: request.instantiationLevelId } : {}),
        ...(request?.additionalParams !== undefined ? { additionalParams: request.additionalParams } : {}),
        vnfInstanceId: INSTANCE_ID,
        manifests: manifestReader(planned.pkg.source),
        packageSource: planned.pkg.source,
      });
      await settle();
    } catch (e) {
      const codes = (e as { diagnostics?: { code: string }[] }).diagnostics?.map((d) => d.code);
      upError = codes ? [...new Set(codes)].sort().join(",") : String(e);
    }
    if (translateErrors !== "" || upError !== undefined) {
      refused++;
      if (translateErrors !== upError) disagreements.push(`${c.name}: translate ${translateErrors || "accepts"}, up ${upError ?? "accepts"}`);
      continue;
    }
    const expected = fromGraph("c", planned.graph!);
    objects += expected.length;
    const differs = disagreement(c.name, expected, registeredObjects());
    if (differs) disagreements.push(differs);
  }
  console.log(
    `translate vs up: ${CASES.length - disagreements.length}/${CASES.length} CNF cases agree (${refused} refused), ${objects} objects and releases compared`,
  );
  expect(refused).toBeGreaterThan(0);
  expect(objects).toBeGreaterThan(20);
  expect(disagreements).toEqual([]);
});
