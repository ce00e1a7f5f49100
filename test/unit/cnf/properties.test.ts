/**
 * Properties of the replica rule over generated scale levels (fast-check): a plan either sets
 * replicas within vdu_profile or reports an error; an HPA-owned workload never has replicas; every
 * object carries the instance label. Manifests are test_cnf's; the model is the fixture's.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { planCnf } from "../../../translators/kubernetes/plan";
import { testCnfModel } from "../../fixtures/cnf/models";
import { defFiles, testCnfFiles } from "./helpers";

const files = testCnfFiles();
const HPA =
  "apiVersion: autoscaling/v2\nkind: HorizontalPodAutoscaler\nmetadata: {name: h}\nspec:\n  scaleTargetRef: {apiVersion: apps/v1, kind: Deployment, name: vdu2}\n  minReplicas: 1\n  maxReplicas: 3\n";

describe("replica rule properties", () => {
  it("replicas are within vdu_profile, or the plan has an error; HPA-owned workloads have none", () => {
    fc.assert(
      fc.property(
        fc.option(fc.constantFrom("instantiation_level_1", "instantiation_level_2"), { nil: undefined }),
        fc.option(fc.integer({ min: -1, max: 4 }), { nil: undefined }),
        fc.boolean(),
        fc.constantFrom("deployment.yaml", "statefulset.yaml", "replicaset_service_secret.yaml"),
        (level, scale, withHpa, workload) => {
          const model = testCnfModel();
          model.kubernetesManifests.push("Files/kubernetes/hpa.yaml");
          const names = ["pod.yaml", workload, ...(withHpa ? ["hpa.yaml"] : [])];
          const plan = planCnf({
            model,
            flavourId: "simple",
            instantiationLevelId: level,
            scaleLevels: scale === undefined ? undefined : { vdu2_aspect: scale },
            vnfInstanceId: "i-1",
            additionalParams: defFiles(...names),
            manifests: { read: (p) => (p === "Files/kubernetes/hpa.yaml" ? HPA : files.read(p)) },
          });
          const failed = plan.diagnostics.some((d) => d.severity === "error");
          if (scale !== undefined && (scale < 0 || scale > 2)) {
            expect(failed).toBe(true);
            return;
          }
          expect(failed).toBe(false);
          const vdu2 = plan.objects.find((p) => p.object.metadata.name === "vdu2")!.object.spec as { replicas?: number };
          const ownedByHpa = withHpa && workload === "deployment.yaml";
          if (ownedByHpa) expect(vdu2).not.toHaveProperty("replicas");
          else {
            expect(vdu2.replicas).toBeGreaterThanOrEqual(1);
            expect(vdu2.replicas).toBeLessThanOrEqual(3);
          }
          for (const p of plan.objects) expect(p.object.metadata.labels?.tacker_vnf_instance_id).toBe("i-1");
        },
      ),
      { numRuns: 60 },
    );
  });
});
