/** Scale and heal planning for CNFs (pure functions the `nfv scale` / `nfv heal` commands call). */
import { describe, expect, it } from "vitest";
import { planHeal, planScale, type LivePod } from "../../../ops/cnf";
import { checkAdoption } from "../../../translators/kubernetes/labels";
import { DiagnosticBag } from "../../../translators/diagnostics";
import { planCnf } from "../../../translators/kubernetes/plan";
import { containerVduModel, testCnfModel } from "../../fixtures/cnf/models";
import { defFiles, errors, testCnfFiles } from "../cnf/helpers";

const ID = "inst-1";
const cnf = (files: string[], scaleLevels?: Record<string, number>, level?: string) =>
  planCnf({
    model: testCnfModel(),
    flavourId: "simple",
    instantiationLevelId: level,
    scaleLevels,
    vnfInstanceId: ID,
    additionalParams: defFiles(...files),
    manifests: testCnfFiles(),
  });

describe("planScale", () => {
  it("SCALE_OUT of a Deployment aspect: the next scale level and the new replicas", () => {
    const plan = cnf(["pod.yaml", "deployment.yaml"]);
    const s = planScale({ model: testCnfModel(), flavourId: "simple", plan, request: { aspectId: "vdu2_aspect", type: "SCALE_OUT" } });
    expect(s).toEqual({
      scaleLevels: { vdu2_aspect: 1 },
      changes: [{ vduId: "VDU2", kind: "Deployment", name: "vdu2", namespace: "default", from: 1, to: 2 }],
      diagnostics: [],
    });
    // Written back to stack config, the next plan sets the replicas.
    const next = cnf(["pod.yaml", "deployment.yaml"], s.scaleLevels);
    expect((next.objects[1].object.spec as { replicas: number }).replicas).toBe(2);
  });

  it("SCALE_IN from instantiation level 2 by two steps, on a StatefulSet and a ReplicaSet", () => {
    for (const file of ["statefulset.yaml", "replicaset_service_secret.yaml"]) {
      const plan = cnf(["pod.yaml", file], undefined, "instantiation_level_2");
      const s = planScale({
        model: testCnfModel(),
        flavourId: "simple",
        instantiationLevelId: "instantiation_level_2",
        plan,
        request: { aspectId: "vdu2_aspect", type: "SCALE_IN", numberOfSteps: 2 },
      });
      expect(s.diagnostics).toEqual([]);
      expect(s.scaleLevels).toEqual({ vdu2_aspect: 0 });
      expect(s.changes).toMatchObject([{ vduId: "VDU2", from: 3, to: 1 }]);
    }
  });

  it("beyond max_scale_level, an unknown aspect, a bad step count", () => {
    const plan = cnf(["pod.yaml", "deployment.yaml"]);
    const run = (request: Parameters<typeof planScale>[0]["request"], scaleLevels?: Record<string, number>) =>
      planScale({ model: testCnfModel(), flavourId: "simple", plan, scaleLevels, request }).diagnostics.map((d) => `${d.code}: ${d.message}`);
    expect(run({ aspectId: "vdu2_aspect", type: "SCALE_OUT", numberOfSteps: 3 })).toEqual([
      "CNF_SCALE_LEVEL_OUT_OF_RANGE: aspect `vdu2_aspect` is at scale level 0; SCALE_OUT by 3 gives 3, outside 0…2",
    ]);
    expect(run({ aspectId: "vdu2_aspect", type: "SCALE_IN" })).toEqual([
      "CNF_SCALE_LEVEL_OUT_OF_RANGE: aspect `vdu2_aspect` is at scale level 0; SCALE_IN by 1 gives -1, outside 0…2",
    ]);
    expect(run({ aspectId: "nope", type: "SCALE_OUT" })).toEqual(["CNF_UNKNOWN_ASPECT: aspect `nope` is not in flavour `simple` (aspects: vdu2_aspect)"]);
    expect(run({ aspectId: "vdu2_aspect", type: "SCALE_OUT", numberOfSteps: 0 })).toEqual(["CNF_BAD_SCALE: numberOfSteps must be a positive integer, found 0"]);
  });

  it("a DaemonSet or a bare Pod cannot be scaled: a clear error naming the object", () => {
    const m = testCnfModel();
    m.flavours[0].vdus[0].scaling = [{ aspectId: "vdu2_aspect", stepDeltas: [0, 0], instancesByScaleLevel: [1, 1, 1] }];
    for (const [file, kind] of [
      ["daemon-set.yaml", "DaemonSet"],
      ["pod.yaml", "Pod"],
    ]) {
      const plan = planCnf({
        model: m,
        flavourId: "simple",
        vnfInstanceId: ID,
        additionalParams: defFiles(file, "deployment.yaml"),
        manifests: testCnfFiles(),
      });
      expect(errors(plan)).toEqual([]);
      const s = planScale({ model: m, flavourId: "simple", plan, request: { aspectId: "vdu2_aspect", type: "SCALE_OUT" } });
      expect(s.diagnostics.map((d) => `${d.file}: ${d.code}: ${d.message}`)).toEqual([
        `Definitions/helloworld3_df_simple.yaml: CNF_NOT_SCALABLE: ${kind} \`vdu1\` (VDU \`VDU1\`) cannot be scaled: only Deployment, ReplicaSet and StatefulSet have replicas`,
      ]);
      // Nothing is recorded when the plan has errors.
      expect(s.scaleLevels).toEqual({});
    }
  });

  it("an HPA-owned workload is not scaled by hand", () => {
    const m = containerVduModel();
    const plan = planCnf({ model: m, flavourId: "default", vnfInstanceId: ID });
    const s = planScale({ model: m, flavourId: "default", plan, request: { aspectId: "cache_aspect", type: "SCALE_OUT" } });
    expect(s.diagnostics.map((d) => d.code)).toEqual(["CNF_SCALE_HPA_OWNED"]);
  });
});

describe("planHeal", () => {
  const plan = cnf(["pod.yaml", "deployment.yaml", "config-map.yaml"]);
  const pods: LivePod[] = [
    { metadata: { name: "vdu1", namespace: "default", labels: {} } },
    {
      metadata: {
        name: "vdu2-5d9c7b8f6-abcde",
        namespace: "default",
        labels: { selector: "curry-probe-test001", app: "webserver" },
        ownerReferences: [{ kind: "ReplicaSet", name: "vdu2-5d9c7b8f6", controller: true }],
      },
    },
    { metadata: { name: "curryjob-x1y2z", namespace: "default", ownerReferences: [{ kind: "Job", name: "curryjob", controller: true }] } },
    {
      metadata: {
        name: "other-7f-aaaaa",
        namespace: "default",
        labels: { selector: "curry-probe-test001" },
        ownerReferences: [{ kind: "ReplicaSet", name: "other-7f", controller: true }],
      },
    },
  ];

  it("VNFC ids: delete each pod in the foreground; a bare Pod is recreated from its planned object", () => {
    const h = planHeal(plan, ["vdu2-5d9c7b8f6-abcde", "vdu1"], pods);
    expect(h.diagnostics).toEqual([]);
    expect(h).toMatchObject({
      mode: "vnfc",
      deletions: [
        { vnfcId: "vdu2-5d9c7b8f6-abcde", vduId: "VDU2", namespace: "default", name: "vdu2-5d9c7b8f6-abcde", propagationPolicy: "Foreground" },
        {
          vnfcId: "vdu1",
          vduId: "VDU1",
          namespace: "default",
          name: "vdu1",
          propagationPolicy: "Foreground",
          recreate: plan.objects.find((p) => p.key === "pod-vdu1")!.object,
        },
      ],
    });
    if (h.mode === "vnfc") expect(h.deletions[0]).not.toHaveProperty("recreate");
  });

  it("refuses pods of other workloads (even with the same labels) and pods of jobs", () => {
    const h = planHeal(plan, ["other-7f-aaaaa", "curryjob-x1y2z", "ghost"], pods);
    expect(h.diagnostics.map((d) => d.code)).toEqual(["CNF_UNKNOWN_VNFC", "CNF_HEAL_UNSUPPORTED", "CNF_UNKNOWN_VNFC"]);
  });

  it("without ids: every workload is replaced", () => {
    expect(planHeal(plan, undefined, [])).toEqual({ mode: "entire", replace: ["pod-vdu1", "deployment-vdu2"], diagnostics: [] });
  });
});

describe("checkAdoption", () => {
  it("refuses live objects of another instance or of none; accepts this instance's", () => {
    const plan = cnf(["pod.yaml", "deployment.yaml", "config-map.yaml"]);
    const bag = new DiagnosticBag();
    checkAdoption(
      plan.objects.map((p) => p.object),
      [
        { kind: "Pod", metadata: { name: "vdu1", namespace: "default", labels: { tacker_vnf_instance_id: ID } } },
        { kind: "Deployment", metadata: { name: "vdu2", namespace: "default", labels: { tacker_vnf_instance_id: "someone" } } },
        { kind: "ConfigMap", metadata: { name: "curry-test001", namespace: "default" } },
        { kind: "ConfigMap", metadata: { name: "curry-test001", namespace: "elsewhere" } },
      ],
      ID,
      bag,
    );
    expect(bag.items.map((d) => d.message)).toEqual([
      "ConfigMap default/curry-test001 already exists and is not labelled with any VNF instance; refusing to adopt it",
      "Deployment default/vdu2 already exists and belongs to VNF instance someone; refusing to adopt it",
    ]);
  });
});
