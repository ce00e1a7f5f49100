/**
 * Input 1: a SOL001 VNFD plus Kubernetes manifests (test_cnf), planned without Pulumi. Exact
 * objects for two instantiation levels, the kinds and their order, labels, namespace rules,
 * the HPA/replicas rule. Proves what the program asks the cluster for, not that it accepts it
 * (schema.test.ts validates the objects offline).
 */
import { describe, expect, it } from "vitest";
import { planCnf } from "../../../translators/kubernetes/plan";
import { testCnfModel } from "../../fixtures/cnf/models";
import { defFiles, errors, kindsAndNames, testCnfFiles, warnings, withFiles } from "./helpers";

const ID = "6a1b1a52-7f5c-4c1f-a1d3-0f0e6c5d4b3a";
const base = { model: testCnfModel(), flavourId: "simple", vnfInstanceId: ID, manifests: testCnfFiles() };
const LABEL = { tacker_vnf_instance_id: ID };

describe("test_cnf: Pod + Deployment at two instantiation levels", () => {
  const deployment = (replicas: number) => ({
    apiVersion: "apps/v1",
    kind: "Deployment",
    metadata: { name: "vdu2", namespace: "default", labels: LABEL },
    spec: {
      replicas,
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
  const pod = {
    apiVersion: "v1",
    kind: "Pod",
    metadata: { namespace: "default", name: "vdu1", labels: LABEL },
    spec: { containers: [{ image: "nginx", imagePullPolicy: "IfNotPresent", name: "web-server", ports: [{ containerPort: 8080 }] }] },
  };

  for (const [level, replicas] of [
    ["instantiation_level_1", 1],
    ["instantiation_level_2", 3],
    [undefined, 1],
  ] as const) {
    it(`level ${level ?? "(default)"}: vdu2 has ${replicas} replica(s)`, () => {
      const plan = planCnf({ ...base, instantiationLevelId: level, additionalParams: defFiles("pod.yaml", "deployment.yaml") });
      expect(errors(plan)).toEqual([]);
      expect(plan.objects.map((p) => p.object)).toEqual([pod, deployment(replicas)]);
      expect(plan.objects.map((p) => p.key)).toEqual(["pod-vdu1", "deployment-vdu2"]);
      expect(plan.namespace).toEqual({ namespace: "default", source: "manifests" });
      expect(plan.vnfcs).toEqual({
        VDU1: {
          vduId: "VDU1",
          kind: "Pod",
          name: "vdu1",
          namespace: "default",
          fieldSelector: "metadata.name=vdu1",
          labelSelector: `tacker_vnf_instance_id=${ID}`,
        },
        VDU2: { vduId: "VDU2", kind: "Deployment", name: "vdu2", namespace: "default", labelSelector: "selector=curry-probe-test001", replicas },
      });
    });
  }

  it("scale levels from stack config override the level's scale_info", () => {
    const plan = planCnf({
      ...base,
      instantiationLevelId: "instantiation_level_2",
      scaleLevels: { vdu2_aspect: 1 },
      additionalParams: defFiles("pod.yaml", "deployment.yaml"),
    });
    expect(errors(plan)).toEqual([]);
    expect((plan.objects[1].object.spec as { replicas: number }).replicas).toBe(2);
  });

  it("ReplicaSet and StatefulSet get the level's replicas too; the manifest's value is replaced", () => {
    for (const file of ["replicaset_service_secret.yaml", "statefulset.yaml"]) {
      const plan = planCnf({ ...base, instantiationLevelId: "instantiation_level_2", additionalParams: defFiles("pod.yaml", file) });
      expect(errors(plan)).toEqual([]);
      const workload = plan.objects.find((p) => p.object.metadata.name === "vdu2")!;
      expect((workload.object.spec as { replicas: number }).replicas).toBe(3);
    }
  });

  it("a DaemonSet VDU gets no replicas, with a warning", () => {
    const plan = planCnf({ ...base, additionalParams: defFiles("daemon-set.yaml", "deployment.yaml") });
    expect(errors(plan)).toEqual([]);
    expect(plan.objects[0].object.spec).not.toHaveProperty("replicas");
    expect(warnings(plan).map((d) => d.code)).toEqual(["CNF_DAEMONSET_REPLICAS"]);
  });

  it("vdu_mapping (Tacker v1) binds a VDU to a workload of another name", () => {
    const plan = planCnf({
      ...base,
      instantiationLevelId: "instantiation_level_2",
      additionalParams: { ...defFiles("pod.yaml", "deployment_vdumap1.yaml"), vdu_mapping: { VDU2: { kind: "Deployment", name: "vdumap1" } } },
    });
    expect(errors(plan)).toEqual([]);
    expect(plan.vnfcs.VDU2).toMatchObject({ kind: "Deployment", name: "vdumap1", replicas: 3 });
  });
});

describe("test_cnf: every supported kind, in Tacker's creation order", () => {
  const files = [
    "deployment.yaml",
    "pod.yaml",
    "horizontal-pod-autoscaler.yaml",
    "job.yaml",
    "config-map.yaml",
    "multiple_yaml_lease.yaml",
    "multiple_yaml_network-policy.yaml",
    "pod-template.yaml",
    "controller-revision.yaml",
    "role_rolebinding_SA.yaml",
    "clusterrole_clusterrolebinding_SA.yaml",
    "limit-range.yaml",
    "resource-quota.yaml",
    "storage-class_pv_pvc.yaml",
    "persistent-volume-0.yaml",
    "persistent-volume-1.yaml",
    "storage-class.yaml",
    "multiple_yaml_priority-class.yaml",
    "namespace.yaml",
    "bindings.yaml",
    "token-review.yaml",
    "subject-access-review.yaml",
    "local-subject-access-review.yaml",
    "self-subject-access-review_and_self-subject-rule-review.yaml",
  ];
  const plan = planCnf({ ...base, additionalParams: defFiles(...files) });

  it("has no error; requests (reviews, Binding) are skipped with a warning each", () => {
    expect(errors(plan)).toEqual([]);
    expect(warnings(plan).map((d) => `${d.code} ${d.file}:${d.line}`)).toEqual([
      "CNF_KIND_IGNORED test_cnf/Files/kubernetes/bindings.yaml:2",
      "CNF_KIND_IGNORED test_cnf/Files/kubernetes/token-review.yaml:2",
      "CNF_KIND_IGNORED test_cnf/Files/kubernetes/subject-access-review.yaml:2",
      "CNF_KIND_IGNORED test_cnf/Files/kubernetes/local-subject-access-review.yaml:2",
      "CNF_KIND_IGNORED test_cnf/Files/kubernetes/self-subject-access-review_and_self-subject-rule-review.yaml:3",
      "CNF_KIND_IGNORED test_cnf/Files/kubernetes/self-subject-access-review_and_self-subject-rule-review.yaml:12",
    ]);
  });

  it("orders namespaces, cluster storage, storage, RBAC, config, services, workloads, autoscalers", () => {
    expect(kindsAndNames(plan)).toEqual([
      "Namespace/curry",
      "PersistentVolume/curry-sc-pv-1",
      "StorageClass/my-storage-class",
      "PersistentVolume/curry-sc-pv",
      "PersistentVolume/curry-sc-pv-0",
      "StorageClass/curry-sc-local",
      "PriorityClass/high-priority",
      "LimitRange/limits",
      "ResourceQuota/curry-rq",
      "PersistentVolumeClaim/curry-sc-pvc",
      "Role/curry-role",
      "ServiceAccount/curry-sa",
      "RoleBinding/curry-rolebinding",
      "ClusterRole/curry-cluster-role",
      "ServiceAccount/curry-cluster-sa",
      "ClusterRoleBinding/curry-cluster-rolebinding",
      "ConfigMap/curry-test001",
      "Lease/curry-lease",
      "NetworkPolicy/all-deny",
      "PodTemplate/curry-test001",
      "ControllerRevision/curry-test001",
      "Deployment/vdu2",
      "Pod/vdu1",
      "Job/curryjob",
      "HorizontalPodAutoscaler/curry-hpa-vdu001",
    ]);
    expect(plan.objects.map((p) => p.tier)).toEqual([1, 2, 2, 2, 2, 2, 2, 3, 3, 3, 4, 4, 4, 4, 4, 4, 5, 5, 5, 5, 5, 7, 7, 7, 8]);
  });

  it("labels every object with the instance id and forces the namespace onto namespaced kinds only", () => {
    for (const p of plan.objects) {
      expect(p.object.metadata.labels?.tacker_vnf_instance_id).toBe(ID);
      if (p.namespaced) expect(p.object.metadata.namespace).toBe("default");
      else expect(p.object.metadata).not.toHaveProperty("namespace");
    }
    // Labels the manifest had are kept.
    expect(plan.objects.find((p) => p.key === "job-curryjob")!.object.metadata.labels).toEqual({ run: "curryjob", ...LABEL });
  });
});

describe("namespace rules", () => {
  const noNs = (name: string, kind = "ConfigMap") => `apiVersion: v1\nkind: ${kind}\nmetadata:\n  name: ${name}\n`;
  const deploymentIn = (ns?: string) =>
    `apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: vdu2\n${ns ? `  namespace: ${ns}\n` : ""}spec:\n  selector:\n    matchLabels: {app: a}\n  template:\n    metadata:\n      labels: {app: a}\n    spec:\n      containers: [{name: c, image: "nginx:1.27"}]\n`;
  const model = () => {
    const m = testCnfModel();
    m.kubernetesManifests.push("Files/kubernetes/x.yaml", "Files/kubernetes/y.yaml");
    return m;
  };

  it("additionalParams.namespace wins and is forced onto every namespaced object, with a warning per differing manifest", () => {
    const plan = planCnf({ ...base, additionalParams: { ...defFiles("pod.yaml", "deployment.yaml"), namespace: "curry" } });
    expect(errors(plan)).toEqual([]);
    expect(plan.namespace).toEqual({ namespace: "curry", source: "additionalParams" });
    expect(plan.objects.map((p) => p.object.metadata.namespace)).toEqual(["curry", "curry"]);
    expect(warnings(plan).map((d) => `${d.code} ${d.file}:${d.line}:${d.column}`)).toEqual([
      "CNF_NAMESPACE_OVERRIDDEN test_cnf/Files/kubernetes/pod.yaml:4:14",
      "CNF_NAMESPACE_OVERRIDDEN test_cnf/Files/kubernetes/deployment.yaml:5:14",
    ]);
    expect(plan.vnfcs.VDU2.namespace).toBe("curry");
  });

  it("else the manifests' namespaces, several kept as Tacker does with test_cnf_multi_ns: each object and VNFC in its own, the rest in the VIM's", () => {
    const files = { "Files/kubernetes/x.yaml": deploymentIn("other"), "Files/kubernetes/y.yaml": noNs("cfg") };
    const plan = planCnf({ ...base, model: model(), additionalParams: defFiles("pod.yaml", "x.yaml", "y.yaml"), manifests: withFiles(files) });
    expect(plan.diagnostics).toEqual([]);
    expect(plan.namespace).toEqual({ source: "manifests" });
    expect(plan.objects.map((p) => `${p.object.kind}/${p.object.metadata.name} ${p.object.metadata.namespace ?? "(VIM's)"}`).sort()).toEqual([
      "ConfigMap/cfg (VIM's)",
      "Deployment/vdu2 other",
      "Pod/vdu1 default",
    ]);
    expect([plan.vnfcs.VDU1.namespace, plan.vnfcs.VDU2.namespace]).toEqual(["default", "other"]);
    // With additionalParams.namespace they are all moved there, each move warned.
    const forced = planCnf({
      ...base,
      model: model(),
      additionalParams: { ...defFiles("pod.yaml", "x.yaml", "y.yaml"), namespace: "one" },
      manifests: withFiles(files),
    });
    expect(forced.objects.map((p) => p.object.metadata.namespace)).toEqual(["one", "one", "one"]);
    expect(warnings(forced).map((d) => d.code)).toEqual(["CNF_NAMESPACE_OVERRIDDEN", "CNF_NAMESPACE_OVERRIDDEN"]);
  });

  it("else the VIM's namespace: no namespace is written, the provider's default applies", () => {
    const plan = planCnf({
      ...base,
      model: model(),
      additionalParams: defFiles("x.yaml", "y.yaml"),
      manifests: withFiles({
        "Files/kubernetes/x.yaml":
          deploymentIn() + "---\n" + noNs("vdu1", "Pod").replace("metadata:", 'spec:\n  containers: [{name: c, image: "nginx:1.27"}]\nmetadata:'),
        "Files/kubernetes/y.yaml": noNs("cfg"),
      }),
    });
    expect(errors(plan)).toEqual([]);
    expect(plan.namespace).toEqual({ source: "vim" });
    for (const p of plan.objects) expect(p.object.metadata).not.toHaveProperty("namespace");
    expect(plan.vnfcs.VDU2).not.toHaveProperty("namespace");
  });

  it("a bad additionalParams.namespace is an error", () => {
    const plan = planCnf({ ...base, additionalParams: { ...defFiles("pod.yaml", "deployment.yaml"), namespace: "Not_A_Label" } });
    expect(errors(plan).map((d) => d.code)).toEqual(["CNF_BAD_PARAM"]);
  });
});

describe("the HPA/replicas rule", () => {
  const hpa = `apiVersion: autoscaling/v2\nkind: HorizontalPodAutoscaler\nmetadata:\n  name: vdu2-hpa\nspec:\n  scaleTargetRef: {apiVersion: apps/v1, kind: Deployment, name: vdu2}\n  minReplicas: 1\n  maxReplicas: 3\n`;
  it("a workload an HPA in the manifests targets gets no replicas, whatever the level says", () => {
    const m = testCnfModel();
    m.kubernetesManifests.push("Files/kubernetes/hpa.yaml");
    const plan = planCnf({
      ...base,
      model: m,
      instantiationLevelId: "instantiation_level_2",
      additionalParams: defFiles("pod.yaml", "deployment.yaml", "hpa.yaml"),
      manifests: withFiles({ "Files/kubernetes/hpa.yaml": hpa }),
    });
    expect(errors(plan)).toEqual([]);
    const d = plan.objects.find((p) => p.key === "deployment-vdu2")!;
    expect(d.object.spec).not.toHaveProperty("replicas");
    expect(plan.vnfcs.VDU2).toEqual({
      vduId: "VDU2",
      kind: "Deployment",
      name: "vdu2",
      namespace: "default",
      labelSelector: "selector=curry-probe-test001",
      hpa: "vdu2-hpa",
    });
    expect(kindsAndNames(plan).slice(-1)).toEqual(["HorizontalPodAutoscaler/vdu2-hpa"]);
    expect(warnings(plan)).toEqual([]);
  });

  it("an HPA whose bounds leave vdu_profile is warned", () => {
    const m = testCnfModel();
    m.kubernetesManifests.push("Files/kubernetes/hpa.yaml");
    const plan = planCnf({
      ...base,
      model: m,
      additionalParams: defFiles("pod.yaml", "deployment.yaml", "hpa.yaml"),
      manifests: withFiles({ "Files/kubernetes/hpa.yaml": hpa.replace("maxReplicas: 3", "maxReplicas: 5") }),
    });
    expect(errors(plan)).toEqual([]);
    expect(warnings(plan).map((d) => d.message)).toEqual([
      "HorizontalPodAutoscaler `vdu2-hpa` scales Deployment `vdu2` between 1 and 5, outside vdu_profile [1, 3] of VDU `VDU2`",
    ]);
  });
});
