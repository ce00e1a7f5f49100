/**
 * `nfv scale` on a CNF, planned: which aspect level changes, which workloads' `spec.replicas`
 * change and to what. Pure. The caller records `scaleLevels` in stack config and runs `up`; the
 * component then sets the new replicas (the plan's `changes` are what the preview will show).
 *
 * Tacker's rules: the aspect's delta × steps, within 0…max_scale_level and within vdu_profile;
 * Deployment, ReplicaSet and StatefulSet scale; DaemonSet and bare Pod cannot (error); a workload
 * owned by an HPA is not scaled by hand (error: the HPA would undo it).
 *
 * Codes: CNF_UNKNOWN_FLAVOUR, CNF_UNKNOWN_ASPECT, CNF_BAD_SCALE, CNF_SCALE_LEVEL_OUT_OF_RANGE,
 * CNF_REPLICAS_OUT_OF_RANGE, CNF_NOT_SCALABLE, CNF_SCALE_HPA_OWNED, CNF_VDU_NO_WORKLOAD.
 */
import { DiagnosticBag, type Diagnostic } from "../../translators/diagnostics";
import { BUILTIN_KINDS } from "../../translators/kubernetes/kinds";
import type { CnfPlan } from "../../translators/kubernetes/plan";
import { checkInProfile, replicasOf, scaleLevelsOf } from "../../translators/kubernetes/replicas";
import type { VnfModel } from "../../translators/tosca/model";

export interface ScaleRequest {
  aspectId: string;
  type: "SCALE_OUT" | "SCALE_IN";
  /** Default 1. */
  numberOfSteps?: number;
}

export interface ScalePlanInput {
  model: VnfModel;
  flavourId: string;
  instantiationLevelId?: string;
  /** Scale levels in stack config now (absent aspects: from the instantiation level). */
  scaleLevels?: Record<string, number>;
  /** The component's current plan (`ContainerizedVnf.plan`, or `planCnf` with the same inputs). */
  plan: CnfPlan;
  request: ScaleRequest;
}

export interface ReplicaChange {
  vduId: string;
  kind: string;
  name: string;
  namespace?: string;
  from: number;
  to: number;
}

export interface ScalePlan {
  /** The scale levels to write to stack config (every aspect the input had, plus this one). */
  scaleLevels: Record<string, number>;
  changes: ReplicaChange[];
  diagnostics: Diagnostic[];
}

export function planScale(input: ScalePlanInput): ScalePlan {
  const bag = new DiagnosticBag();
  const out: ScalePlan = { scaleLevels: { ...(input.scaleLevels ?? {}) }, changes: [], diagnostics: bag.items };
  const { request } = input;
  const flavour = input.model.flavours.find((f) => f.id === input.flavourId);
  if (!flavour) {
    bag.error("CNF_UNKNOWN_FLAVOUR", `flavour \`${input.flavourId}\` is not in the package`, { path: "flavourId" });
    return out;
  }
  const aspect = flavour.aspects.find((a) => a.id === request.aspectId);
  if (!aspect) {
    bag.error(
      "CNF_UNKNOWN_ASPECT",
      `aspect \`${request.aspectId}\` is not in flavour \`${flavour.id}\` (aspects: ${flavour.aspects.map((a) => a.id).join(", ") || "none"})`,
      { path: "aspectId" },
    );
    return out;
  }
  const steps = request.numberOfSteps ?? 1;
  if (!Number.isInteger(steps) || steps < 1) {
    bag.error("CNF_BAD_SCALE", `numberOfSteps must be a positive integer, found ${steps}`, { path: "numberOfSteps" });
    return out;
  }
  const sel = { instantiationLevelId: input.instantiationLevelId, scaleLevels: input.scaleLevels };
  const current = scaleLevelsOf(flavour, sel)[aspect.id];
  const next = current + (request.type === "SCALE_OUT" ? steps : -steps);
  if (next < 0 || next > aspect.maxScaleLevel) {
    bag.error(
      "CNF_SCALE_LEVEL_OUT_OF_RANGE",
      `aspect \`${aspect.id}\` is at scale level ${current}; ${request.type} by ${steps} gives ${next}, outside 0…${aspect.maxScaleLevel}`,
      { path: "numberOfSteps" },
    );
    return out;
  }
  const nextSel = { ...sel, scaleLevels: { ...(input.scaleLevels ?? {}), [aspect.id]: next } };
  for (const vdu of flavour.vdus.filter((v) => v.scaling.some((s) => s.aspectId === aspect.id))) {
    const where = { file: flavour.file, path: `topology_template.node_templates.${vdu.id}` };
    const ref = input.plan.vnfcs[vdu.id];
    if (!ref) {
      bag.error("CNF_VDU_NO_WORKLOAD", `VDU \`${vdu.id}\` has no workload in this VNF`, where);
      continue;
    }
    const what = `${ref.kind} \`${ref.name}\` (VDU \`${vdu.id}\`)`;
    if (!BUILTIN_KINDS.get(`apps/v1/${ref.kind}`)?.scalable) {
      bag.error("CNF_NOT_SCALABLE", `${what} cannot be scaled: only Deployment, ReplicaSet and StatefulSet have replicas`, where);
      continue;
    }
    if (ref.hpa) {
      bag.error("CNF_SCALE_HPA_OWNED", `${what} is scaled by the HorizontalPodAutoscaler \`${ref.hpa}\`; change its minReplicas/maxReplicas instead`, where);
      continue;
    }
    if (input.plan.helmReleases.length > 0 && ref.replicas === undefined) {
      bag.error(
        "CNF_NOT_SCALABLE",
        `${what} is rendered by a Helm chart and additionalParams.helm_value_names maps no replica value for VDU \`${vdu.id}\``,
        where,
      );
      continue;
    }
    const from = replicasOf(vdu, flavour, sel);
    const to = replicasOf(vdu, flavour, nextSel);
    if (!checkInProfile(vdu, to, `${request.type} of aspect \`${aspect.id}\``, bag, where)) continue;
    out.changes.push({ vduId: vdu.id, kind: ref.kind, name: ref.name, ...(ref.namespace ? { namespace: ref.namespace } : {}), from, to });
  }
  if (!bag.hasErrors()) out.scaleLevels = nextSel.scaleLevels;
  return out;
}
