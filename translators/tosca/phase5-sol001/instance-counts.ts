/**
 * Derived numbers: instances of every VDU at every instantiation level and every scale level,
 * as Tacker computes them (`initial delta + Σ step deltas`), checked against `vdu_profile`. A count
 * outside the profile is a warning kept on the VDU: SOL001 has no such validity rule and Tacker
 * onboards it, refusing only the instantiate or scale that would reach it.
 */
import type { InstantiationLevel, ProfileViolation, Vdu } from "../model";
import { nodePath, policyPath, type Topology } from "../phase4-templates/topology";
import type { SemanticContext } from "./context";
import type { LevelPolicies } from "./instantiation-levels";
import type { ScalingPolicies } from "./scaling";

export function computeInstances(vdu: Vdu, scaling: ScalingPolicies, levels: LevelPolicies, topo: Topology, ctx: SemanticContext): void {
  const initial = scaling.initialDeltas.get(vdu.id);
  if (initial) vdu.initialDelta = initial.value;
  const base = initial?.value ?? vdu.minInstances;
  // Checked before a message and path are built: most numbers are in range.
  const inRange = (n: number) => n >= vdu.minInstances && n <= vdu.maxInstances;
  const outOfRange = (n: number, what: string, at: Omit<ProfileViolation, "instances" | "where">, path: (string | number)[], atKey = false) => {
    const where = ctx.problems.warning(
      "INSTANCES_OUT_OF_RANGE",
      `VDU \`${vdu.id}\` would have ${n} instance(s) ${what}, outside vdu_profile [${vdu.minInstances}, ${vdu.maxInstances}]; Tacker onboards this and refuses the operation that reaches it`,
      topo.file,
      path,
      atKey,
    );
    (vdu.profileViolations ??= []).push({ ...at, instances: n, where });
  };
  if (vdu.minInstances > vdu.maxInstances) {
    ctx.problems.error(
      "INSTANCES_OUT_OF_RANGE",
      `VDU \`${vdu.id}\`: min_number_of_instances ${vdu.minInstances} exceeds max_number_of_instances ${vdu.maxInstances}`,
      topo.file,
      [...nodePath(vdu.id), "properties", "vdu_profile"],
    );
  }
  if (initial && !inRange(base)) outOfRange(base, "initially", {}, [...policyPath(initial.policy), "properties", "initial_delta"]);

  const steps = new Map<string, number[]>();
  for (const [aspectId, { deltas, policy, missing }] of scaling.vduDeltas.get(vdu.id) ?? []) {
    const aspect = scaling.aspectById.get(aspectId)!;
    // Steps beyond the listed step_deltas repeat the last one (uniform scaling, as Tacker assumes).
    const perStep: number[] = [];
    for (let s = 0; s < aspect.maxScaleLevel; s++) {
      const deltaId = aspect.stepDeltas[Math.min(s, aspect.stepDeltas.length - 1)];
      perStep.push(deltaId === undefined ? 0 : (deltas[deltaId] ?? 0));
    }
    const byLevel = [base];
    perStep.forEach((d) => byLevel.push(byLevel[byLevel.length - 1] + d));
    byLevel.forEach((n, level) => {
      if (!inRange(n)) outOfRange(n, `at scale level ${level} of aspect \`${aspectId}\``, { aspectId, scaleLevel: level }, policyPath(policy));
    });
    steps.set(aspectId, perStep);
    vdu.scaling.push({ aspectId, stepDeltas: perStep, instancesByScaleLevel: byLevel, ...(missing ? { missingDelta: missing } : {}) });
  }

  const explicit = levels.vduLevels.get(vdu.id);
  for (const level of levels.levels) {
    const computed = atLevel(base, level, steps);
    const given = explicit?.levels[level.id];
    const n = given ?? computed;
    vdu.instancesByLevel[level.id] = n;
    if (explicit && given === undefined) {
      ctx.problems.error("POLICY_LEVEL_MISSING", `VduInstantiationLevels of \`${vdu.id}\` has no entry for level \`${level.id}\``, topo.file, [
        ...policyPath(explicit.policy),
        "properties",
        "levels",
      ]);
    } else if (explicit && given !== computed && steps.size > 0) {
      ctx.problems.warning(
        "INSTANCES_LEVEL_MISMATCH",
        `VDU \`${vdu.id}\` at level \`${level.id}\`: VduInstantiationLevels says ${given}, initial delta plus scale_info gives ${computed}; Tacker uses ${given}`,
        topo.file,
        [...policyPath(explicit.policy), "properties", "levels", level.id],
      );
    }
    if (!inRange(n))
      outOfRange(
        n,
        `at instantiation level \`${level.id}\``,
        { levelId: level.id },
        explicit ? [...policyPath(explicit.policy), "properties", "levels", level.id] : nodePath(vdu.id),
        !explicit,
      );
  }
  vdu.initialInstances = levels.defaultLevelId !== undefined ? vdu.instancesByLevel[levels.defaultLevelId] : base;
}

function atLevel(base: number, level: InstantiationLevel, steps: Map<string, number[]>): number {
  let n = base;
  for (const [aspectId, perStep] of steps) {
    const scaleLevel = level.scaleInfo[aspectId] ?? 0;
    for (let s = 0; s < scaleLevel && s < perStep.length; s++) n += perStep[s];
  }
  return n;
}
