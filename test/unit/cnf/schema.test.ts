/**
 * Every object the CNF translator generates, for every input used in the CNF tests, validated
 * offline against the Kubernetes OpenAPI schema (the `kubernetes-models` package: JSON-schema
 * validators generated from the Kubernetes 1.34 OpenAPI document; resource.k8s.io/v1 is there).
 * Custom resources have no built-in schema: their CRD is validated instead.
 *
 * Does not prove: unknown fields are rejected (the OpenAPI schemas allow additional properties,
 * as `kubectl apply` without `--validate=strict` does), nor admission-time rules (immutable
 * fields, quota, name uniqueness across the cluster).
 */
import * as path from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { BUILTIN_KINDS } from "../../../translators/kubernetes/kinds";
import type { KubeObject } from "../../../translators/kubernetes/objects";
import { planCnf, type CnfPlan } from "../../../translators/kubernetes/plan";
import { translatePackage } from "../../../translators/tosca/translate";
import { containerVduModel, testCnfModel } from "../../fixtures/cnf/models";
import { defFiles, errors, LEGACY, testCnfFiles } from "./helpers";

interface Model {
  validate(): void;
}
type ModelClass = new (data: unknown) => Model;

async function modelClass(apiVersion: string, kind: string): Promise<ModelClass | undefined> {
  const mod = (await import(/* @vite-ignore */ `kubernetes-models/${apiVersion}`)) as Record<string, ModelClass | undefined>;
  return mod[kind];
}

/** Validates one object; returns the schema errors as text ("" when valid). */
async function validate(o: KubeObject): Promise<string> {
  const cls = await modelClass(o.apiVersion, o.kind);
  if (!cls) return `no schema for ${o.apiVersion} ${o.kind}`;
  try {
    new cls(o).validate();
    return "";
  } catch (e) {
    return `${o.kind}/${o.metadata.name}: ${(e as Error).message}`;
  }
}

const ID = "6a1b1a52-7f5c-4c1f-a1d3-0f0e6c5d4b3a";
const scenarios: Record<string, CnfPlan> = {};

beforeAll(async () => {
  const cnf = (files: string[], level?: string) =>
    planCnf({
      model: testCnfModel(),
      flavourId: "simple",
      instantiationLevelId: level,
      vnfInstanceId: ID,
      additionalParams: defFiles(...files),
      manifests: testCnfFiles(),
    });
  const everything = [
    "namespace.yaml",
    "storage-class.yaml",
    "persistent-volume-0.yaml",
    "persistent-volume-1.yaml",
    "storage-class_pv_pvc.yaml",
    "multiple_yaml_priority-class.yaml",
    "limit-range.yaml",
    "resource-quota.yaml",
    "role_rolebinding_SA.yaml",
    "clusterrole_clusterrolebinding_SA.yaml",
    "config-map.yaml",
    "multiple_yaml_lease.yaml",
    "multiple_yaml_network-policy.yaml",
    "pod-template.yaml",
    "controller-revision.yaml",
    "job.yaml",
    "horizontal-pod-autoscaler.yaml",
  ];
  scenarios["test_cnf every kind, level 1"] = cnf([...everything, "pod.yaml", "deployment.yaml"], "instantiation_level_1");
  scenarios["test_cnf every kind, level 2"] = cnf([...everything, "pod.yaml", "deployment.yaml"], "instantiation_level_2");
  scenarios["test_cnf ReplicaSet, Service, Secret"] = cnf(["pod.yaml", "replicaset_service_secret.yaml"], "instantiation_level_2");
  scenarios["test_cnf StatefulSet + DaemonSet"] = cnf(["daemon-set.yaml", "statefulset.yaml"], "instantiation_level_2");
  scenarios["test_cnf StatefulSet (fail sample)"] = planCnf({
    model: testCnfModel(),
    flavourId: "simple",
    vnfInstanceId: ID,
    manifests: testCnfFiles(),
    additionalParams: {
      ...defFiles("pod.yaml", "statefulset_fail.yaml", "deployment_vdumap2.yaml"),
      vdu_mapping: { VDU2: { kind: "StatefulSet", name: "vdu2-fail" } },
    },
  });
  for (const f of ["tosca-vnfd-containerized.yaml", "tosca-vnfd-containerized-two-containers.yaml"]) {
    const model = (await translatePackage(path.join(LEGACY, f))).model!;
    scenarios[`legacy ${f}`] = planCnf({ model, flavourId: "default", vnfInstanceId: ID });
  }
  for (const level of ["small", "large"]) {
    scenarios[`container VDUs, level ${level}`] = planCnf({
      model: containerVduModel(),
      flavourId: "default",
      instantiationLevelId: level,
      vnfInstanceId: ID,
      additionalParams: { container_vdus: { WEB: { ports: ["80:8080", "443"], service_type: "LoadBalancer" }, PROBE: { pod: true } }, mode: "x" },
    });
  }
});

describe("generated objects are valid against the Kubernetes OpenAPI schema", () => {
  it("every scenario plans without error", () => {
    for (const [name, plan] of Object.entries(scenarios)) expect(errors(plan), name).toEqual([]);
    expect(Object.keys(scenarios)).toHaveLength(9);
  });

  it("every object of every scenario validates", async () => {
    const problems: string[] = [];
    let count = 0;
    for (const [name, plan] of Object.entries(scenarios)) {
      for (const p of plan.objects) {
        const r = await validate(p.object);
        count++;
        if (r) problems.push(`${name}: ${r}`);
      }
    }
    expect(problems).toEqual([]);
    expect(count).toBeGreaterThan(60);
  });

  it("every built-in kind the translator accepts has a schema at the targeted version", async () => {
    const missing: string[] = [];
    for (const k of BUILTIN_KINDS.values()) if (!(await modelClass(k.apiVersion, k.kind))) missing.push(`${k.apiVersion}/${k.kind}`);
    expect(missing).toEqual([]);
  });

  it("the validator does catch a wrong object (so the checks above mean something)", async () => {
    const bad: KubeObject = { apiVersion: "apps/v1", kind: "Deployment", metadata: { name: "x" }, spec: { replicas: "3", template: {} } };
    expect(await validate(bad)).toMatch(/selector|replicas/);
  });
});
