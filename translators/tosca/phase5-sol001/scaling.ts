/**
 * `ScalingAspects`, `VduInitialDelta` and `VduScalingAspectDeltas`: the aspects, and per VDU its
 * initial delta and the instances each aspect's deltas add.
 */
import type { MissingDelta, ScalingAspect } from "../model";
import { policyPath, type PolicyTemplate, type Topology } from "../phase4-templates/topology";
import type { SemanticContext } from "./context";
import { int, obj, str, strings } from "./read";
import { T } from "./sol001-types";

export interface ScalingPolicies {
  aspects: ScalingAspect[];
  aspectById: Map<string, ScalingAspect>;
  /** VDU id → initial delta. */
  initialDeltas: Map<string, { value: number; policy: PolicyTemplate }>;
  /** VDU id → aspect id → delta id → instances. */
  vduDeltas: Map<string, Map<string, { deltas: Record<string, number>; policy: PolicyTemplate; missing?: MissingDelta }>>;
  /** Where each aspect is declared, for messages. */
  aspectPolicy?: PolicyTemplate;
}

export function readScaling(topo: Topology, vduIds: Set<string>, ctx: SemanticContext): ScalingPolicies {
  const result: ScalingPolicies = { aspects: [], aspectById: new Map(), initialDeltas: new Map(), vduDeltas: new Map() };
  const is = (p: PolicyTemplate, t: string) => ctx.types.isA(p.type, t);
  for (const p of topo.policies) {
    if (!is(p, T.SCALING_ASPECTS)) continue;
    if (result.aspectPolicy) {
      ctx.problems.error("POLICY_DUPLICATE", "a flavour has one ScalingAspects policy", topo.file, policyPath(p));
      continue;
    }
    result.aspectPolicy = p;
    for (const [id, def] of Object.entries(obj(p.properties.aspects))) {
      const a = obj(def);
      const aspect: ScalingAspect = { id, name: str(a.name) ?? id, maxScaleLevel: int(a.max_scale_level) ?? 0, stepDeltas: strings(a.step_deltas), vduIds: [] };
      const description = str(a.description);
      if (description !== undefined) aspect.description = description;
      result.aspects.push(aspect);
    }
  }
  const aspects = result.aspectById;
  for (const a of result.aspects) aspects.set(a.id, a);
  for (const p of topo.policies) {
    const initialDelta = is(p, T.VDU_INITIAL_DELTA);
    if (!initialDelta && !is(p, T.VDU_SCALING_ASPECT_DELTAS)) continue;
    const targets = vduTargets(p, topo, vduIds, ctx, true);
    if (initialDelta) {
      const value = int(obj(p.properties.initial_delta).number_of_instances) ?? 0;
      for (const vdu of targets) {
        if (result.initialDeltas.has(vdu))
          ctx.problems.error(
            "POLICY_DUPLICATE",
            `VDU \`${vdu}\` already has an initial delta (policy \`${result.initialDeltas.get(vdu)!.policy.name}\`)`,
            topo.file,
            policyPath(p),
          );
        else result.initialDeltas.set(vdu, { value, policy: p });
      }
    } else {
      const aspectId = str(p.properties.aspect) ?? "";
      const aspect = aspects.get(aspectId);
      if (!aspect) {
        ctx.problems.error("POLICY_UNKNOWN_ASPECT", `aspect \`${aspectId}\` is not declared by a ScalingAspects policy`, topo.file, [
          ...policyPath(p),
          "properties",
          "aspect",
        ]);
        continue;
      }
      const deltas: Record<string, number> = {};
      for (const [id, d] of Object.entries(obj(p.properties.deltas))) {
        // L14: Tacker looks deltas up by step delta id when it scales; any other key is never read.
        if (!aspect.stepDeltas.includes(id)) {
          ctx.problems.tolerated(
            "L14",
            "POLICY_UNKNOWN_DELTA",
            `delta \`${id}\` is not a step delta of aspect \`${aspectId}\` (step_deltas: ${aspect.stepDeltas.join(", ") || "none"})`,
            topo.file,
            [...policyPath(p), "properties", "deltas", id],
            true,
          );
        }
        deltas[id] = int(obj(d).number_of_instances) ?? 0;
      }
      // L14: Tacker onboards this and fails the scale that needs the delta; so does `planScale`.
      let missing: MissingDelta | undefined;
      for (const step of aspect.stepDeltas) {
        if (step in deltas) continue;
        const where = ctx.problems.tolerated(
          "L14",
          "POLICY_DELTA_MISSING",
          `step delta \`${step}\` of aspect \`${aspectId}\` has no number_of_instances here; scaling this aspect will be refused`,
          topo.file,
          [...policyPath(p), "properties", "deltas"],
        );
        missing ??= { deltaId: step, where };
      }
      for (const vdu of targets) {
        if (!result.vduDeltas.has(vdu)) result.vduDeltas.set(vdu, new Map());
        result.vduDeltas.get(vdu)!.set(aspectId, { deltas, policy: p, ...(missing ? { missing } : {}) });
        aspect.vduIds.push(vdu);
      }
    }
  }
  return result;
}

/** Targets of a VDU policy; a target that exists but is not a VDU is an error. */
export function vduTargets(p: PolicyTemplate, topo: Topology, vduIds: Set<string>, ctx: SemanticContext, check: boolean): string[] {
  const out: string[] = [];
  p.targets.forEach((t, i) => {
    if (vduIds.has(t)) out.push(t);
    else if (check && (topo.nodes.has(t) || topo.groups.has(t))) {
      ctx.problems.error("POLICY_BAD_TARGET", `\`${p.typeName}\` targets Vdu.Compute nodes; \`${t}\` is not one`, topo.file, [...policyPath(p), "targets", i]);
    }
  });
  return out;
}
