/**
 * Bad input: each case gives a clear error naming the file (with line and column when it comes
 * from a manifest) and the object, and `planOrThrow` turns them into one DiagnosticError. The
 * component calls `planOrThrow` before registering anything (components.test.ts).
 */
import { describe, expect, it } from "vitest";
import { formatDiagnostic } from "../../../translators/diagnostics";
import { planCnf, planOrThrow } from "../../../translators/kubernetes/plan";
import { testCnfModel } from "../../fixtures/cnf/models";
import { defFiles, errors, kindsAndNames, thrown, withFiles } from "./helpers";

const ID = "inst-1";
const EXTRA = ["bad.yaml", "more.yaml"];
function model() {
  const m = testCnfModel();
  m.kubernetesManifests.push(...EXTRA.map((f) => `Files/kubernetes/${f}`));
  return m;
}
const plan = (files: string[], extra: Record<string, string>, more: Record<string, unknown> = {}) =>
  planCnf({
    model: model(),
    flavourId: "simple",
    vnfInstanceId: ID,
    additionalParams: { ...defFiles(...files), ...more },
    manifests: withFiles(Object.fromEntries(Object.entries(extra).map(([k, v]) => [`Files/kubernetes/${k}`, v]))),
  });
const lines = (p: ReturnType<typeof planCnf>) => errors(p).map(formatDiagnostic);

describe("bad manifests", () => {
  it("YAML that does not parse: the YAML error at file:line:col", () => {
    const p = plan(["pod.yaml", "deployment.yaml", "bad.yaml"], { "bad.yaml": "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: x\n" });
    expect(errors(p).map((d) => [d.code, d.file, d.line])).toEqual([["YAML_SYNTAX", "pkg/Files/kubernetes/bad.yaml", 4]]);
  });

  it("documents that are not Kubernetes objects", () => {
    const p = plan(["pod.yaml", "deployment.yaml", "bad.yaml"], {
      "bad.yaml": "- a list\n---\napiVersion: v1\nmetadata: {name: x}\n---\napiVersion: v1\nkind: ConfigMap\nmetadata: {labels: {a: b}}\n",
    });
    expect(lines(p)).toEqual([
      "pkg/Files/kubernetes/bad.yaml:1:1: error CNF_NOT_KUBERNETES_OBJECT: document 1 is not a Kubernetes object (a mapping with apiVersion, kind and metadata)",
      "pkg/Files/kubernetes/bad.yaml:3:1 (kind): error CNF_NOT_KUBERNETES_OBJECT: document 2 is not a Kubernetes object: it needs string `apiVersion` and `kind`",
      "pkg/Files/kubernetes/bad.yaml:8:11 (metadata): error CNF_NOT_KUBERNETES_OBJECT: ConfigMap in document 3 has no `metadata.name`",
    ]);
  });

  it("unsupported apiVersion or kind, with the supported apiVersion when there is one", () => {
    const p = plan(["pod.yaml", "deployment.yaml", "bad.yaml"], {
      "bad.yaml":
        "apiVersion: extensions/v1beta1\nkind: Deployment\nmetadata: {name: old}\n---\napiVersion: example.com/v1\nkind: Widget\nmetadata: {name: w}\n",
    });
    expect(lines(p)).toEqual([
      "pkg/Files/kubernetes/bad.yaml:1:13 (apiVersion): error CNF_UNSUPPORTED_KIND: Deployment `old`: `extensions/v1beta1` Deployment is not supported; Deployment is supported as apps/v1",
      "pkg/Files/kubernetes/bad.yaml:5:13 (apiVersion): error CNF_UNSUPPORTED_KIND: Widget `w`: `example.com/v1` Widget is not supported; declare its CustomResourceDefinition in the manifests to deploy a custom resource",
    ]);
  });

  it("a manifest not declared in the package, and one declared but missing", () => {
    const p = plan(["pod.yaml", "deployment.yaml", "nowhere.yaml", "more.yaml"], {});
    expect(lines(p)).toEqual([
      expect.stringMatching(
        /^additionalParams\.lcm-kubernetes-def-files\[2\]: error CNF_MANIFEST_NOT_DECLARED: `Files\/kubernetes\/nowhere.yaml` is not an artifact of the package \(declared manifests: Files\/kubernetes\/bindings.yaml, /,
      ),
      "additionalParams.lcm-kubernetes-def-files[3]: error CNF_MANIFEST_MISSING: `Files/kubernetes/more.yaml` is declared in the package but the file is missing",
    ]);
  });

  it("a bad name, a duplicate object, an object of another instance", () => {
    const p = plan(["pod.yaml", "deployment.yaml", "config-map.yaml", "bad.yaml"], {
      "bad.yaml":
        "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: Bad_Name}\n---\napiVersion: v1\nkind: ConfigMap\nmetadata: {name: curry-test001, namespace: default}\n---\napiVersion: v1\nkind: Secret\nmetadata: {name: s, labels: {tacker_vnf_instance_id: someone-else}}\n",
    });
    expect(lines(p)).toEqual([
      "pkg/Files/kubernetes/bad.yaml:3:18 (metadata.name): error CNF_BAD_NAME: ConfigMap `Bad_Name`: a name is lower-case letters, digits, `-` and `.` (at most 253)",
      "pkg/Files/kubernetes/bad.yaml:7:18 (metadata.name): error CNF_DUPLICATE_OBJECT: ConfigMap `curry-test001` is defined twice (first at pkg/Files/kubernetes/config-map.yaml:7)",
      "pkg/Files/kubernetes/bad.yaml:9:1: error CNF_FOREIGN_OBJECT: Secret s is labelled tacker_vnf_instance_id=someone-else, another VNF instance; refusing to take it over",
    ]);
  });
});

describe("bad bindings and counts", () => {
  it("a VDU with no matching workload names the VDU, the flavour file and the listed manifests", () => {
    const p = plan(["deployment.yaml", "config-map.yaml"], {});
    expect(lines(p)).toEqual([
      "Definitions/helloworld3_df_simple.yaml (topology_template.node_templates.VDU1): error CNF_VDU_NO_WORKLOAD: VDU `VDU1` needs a Pod, Deployment, ReplicaSet, StatefulSet or DaemonSet named `vdu1` in the listed manifests (Files/kubernetes/deployment.yaml, Files/kubernetes/config-map.yaml)",
    ]);
  });

  it("no lcm-kubernetes-def-files at all", () => {
    const p = planCnf({ model: model(), flavourId: "simple", vnfInstanceId: ID });
    expect(errors(p).map((d) => d.code)).toEqual(["CNF_VDU_NO_WORKLOAD", "CNF_VDU_NO_WORKLOAD"]);
    expect(errors(p)[0].message).toContain("none listed in additionalParams.lcm-kubernetes-def-files");
  });

  it("two workloads with the VDU's name are ambiguous", () => {
    const p = plan(["pod.yaml", "deployment.yaml", "statefulset.yaml"], {});
    expect(errors(p).map((d) => d.code)).toEqual(["CNF_VDU_AMBIGUOUS"]);
    expect(errors(p)[0].message).toBe(
      "VDU `VDU2` (name `vdu2`) matches Deployment at pkg/Files/kubernetes/deployment.yaml:1 and StatefulSet at pkg/Files/kubernetes/statefulset.yaml:1; list only one, or use additionalParams.vdu_mapping",
    );
  });

  it("replicas outside vdu_profile, a bare Pod asked for two, a scale level beyond max_scale_level, an unknown level", () => {
    const m = model();
    m.flavours[0].vdus[1].instancesByLevel.instantiation_level_2 = 5;
    m.flavours[0].vdus[0].instancesByLevel.instantiation_level_2 = 2;
    const p = planCnf({
      model: m,
      flavourId: "simple",
      instantiationLevelId: "instantiation_level_2",
      vnfInstanceId: ID,
      additionalParams: defFiles("pod.yaml", "deployment.yaml"),
      manifests: withFiles({}),
    });
    expect(lines(p)).toEqual([
      "Definitions/helloworld3_df_simple.yaml (topology_template.node_templates.VDU1): error CNF_POD_REPLICAS: VDU `VDU1` needs 2 instance(s) but is the bare Pod `vdu1` (pkg/Files/kubernetes/pod.yaml:1), which is one",
      "Definitions/helloworld3_df_simple.yaml (topology_template.node_templates.VDU2): error CNF_REPLICAS_OUT_OF_RANGE: Deployment `vdu2` (pkg/Files/kubernetes/deployment.yaml): VDU `VDU2` would have 5 replica(s), outside vdu_profile [1, 3]",
    ]);
    const q = planCnf({
      model: model(),
      flavourId: "simple",
      instantiationLevelId: "huge",
      scaleLevels: { vdu2_aspect: 3, nope: 1 },
      vnfInstanceId: ID,
      additionalParams: defFiles("pod.yaml", "deployment.yaml"),
      manifests: withFiles({}),
    });
    expect(errors(q).map((d) => d.code)).toEqual(["CNF_UNKNOWN_LEVEL", "CNF_SCALE_LEVEL_OUT_OF_RANGE", "CNF_UNKNOWN_ASPECT"]);
  });

  it("an unknown flavour, an instance id that cannot be a label", () => {
    expect(errors(planCnf({ model: model(), flavourId: "big", vnfInstanceId: ID })).map((d) => d.message)).toEqual([
      "flavour `big` is not in the package (flavours: simple)",
    ]);
    expect(errors(plan(["pod.yaml", "deployment.yaml"], {}, {})).length).toBe(0);
    const p = planCnf({
      model: model(),
      flavourId: "simple",
      vnfInstanceId: "not a label!",
      additionalParams: defFiles("pod.yaml", "deployment.yaml"),
      manifests: withFiles({}),
    });
    expect(errors(p).map((d) => d.code)).toEqual(["CNF_BAD_INSTANCE_ID"]);
  });

  it("planOrThrow: one DiagnosticError listing every error, file:line:col first", () => {
    const e = thrown(() =>
      planOrThrow(
        {
          model: model(),
          flavourId: "simple",
          vnfInstanceId: ID,
          additionalParams: defFiles("deployment.yaml", "bad.yaml"),
          manifests: withFiles({ "Files/kubernetes/bad.yaml": "apiVersion: v9\nkind: Pod\nmetadata: {name: p}\n" }),
        },
        "ContainerizedVnf 'cnf'",
      ),
    );
    expect(e.name).toBe("DiagnosticError");
    expect(e.message).toBe(
      [
        "ContainerizedVnf 'cnf': invalid input, nothing was created (2 problems):",
        "  pkg/Files/kubernetes/bad.yaml:1:13 (apiVersion): error CNF_UNSUPPORTED_KIND: Pod `p`: `v9` Pod is not supported; Pod is supported as v1",
        "  Definitions/helloworld3_df_simple.yaml (topology_template.node_templates.VDU1): error CNF_VDU_NO_WORKLOAD: VDU `VDU1` needs a Pod, Deployment, ReplicaSet, StatefulSet or DaemonSet named `vdu1` in the listed manifests (Files/kubernetes/deployment.yaml, Files/kubernetes/bad.yaml)",
      ].join("\n"),
    );
  });
});

describe("kinds beyond Tacker's: CRDs with their custom resources, Ingress, CronJob", () => {
  const crd = `apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata: {name: widgets.example.com}
spec:
  group: example.com
  scope: Namespaced
  names: {kind: Widget, plural: widgets, singular: widget, listKind: WidgetList}
  versions:
  - name: v1
    served: true
    storage: true
    schema:
      openAPIV3Schema: {type: object, x-kubernetes-preserve-unknown-fields: true}
`;
  const more = `apiVersion: example.com/v1
kind: Widget
metadata: {name: w1}
spec: {size: 3}
---
apiVersion: networking.k8s.io/v1
kind: Ingress
metadata: {name: web}
spec:
  rules:
  - http:
      paths:
      - {path: /, pathType: Prefix, backend: {service: {name: web, port: {number: 80}}}}
---
apiVersion: batch/v1
kind: CronJob
metadata: {name: tick}
spec:
  schedule: "*/5 * * * *"
  jobTemplate:
    spec:
      template:
        spec:
          restartPolicy: OnFailure
          containers: [{name: t, image: "busybox:1.36"}]
`;
  it("are accepted: the CRD first, the custom resource last", () => {
    const p = plan(["more.yaml", "pod.yaml", "deployment.yaml", "bad.yaml"], { "bad.yaml": crd, "more.yaml": more });
    expect(errors(p)).toEqual([]);
    expect(kindsAndNames(p)).toEqual([
      "CustomResourceDefinition/widgets.example.com",
      "Ingress/web",
      "CronJob/tick",
      "Pod/vdu1",
      "Deployment/vdu2",
      "Widget/w1",
    ]);
    const widget = p.objects[p.objects.length - 1];
    // Its manifest names no namespace: it goes to the VIM's, whatever the other manifests name.
    expect(widget).toMatchObject({ namespaced: true, tier: 9, key: "widget-w1", object: { metadata: { labels: { tacker_vnf_instance_id: ID } } } });
    expect(widget!.object.metadata).not.toHaveProperty("namespace");
    expect(p.objects[0].namespaced).toBe(false);
  });
});
