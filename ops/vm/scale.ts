/**
 * `planScale`: the new scale level of one aspect and what it adds or removes. Pure.
 * Scale-out adds VNFCs at the next indexes; scale-in removes the highest indexes first, as Tacker does.
 */
import { DiagnosticError, type Diagnostic } from "../../translators/diagnostics";
import { scaleLevelsOf } from "../../translators/kubernetes/replicas";
import type { Flavour } from "../../translators/tosca/model";

export interface ScaleRequest {
  flavour: Flavour;
  /** Current scale level per aspect (stack config); absent: the instantiation level's. */
  currentLevels: Record<string, number>;
  /** The level the VNF was instantiated at (the request's); absent: the flavour's default. */
  instantiationLevelId?: string;
  aspectId: string;
  /** Number of steps, ≥ 1. */
  steps: number;
  type: "out" | "in";
}

export interface ScalePlan {
  aspectId: string;
  from: number;
  to: number;
  /** New stack config value for `scaleLevels`. */
  scaleLevels: Record<string, number>;
  /** Instance count per VDU the aspect scales. */
  instances: Record<string, { from: number; to: number }>;
  /** VNFC ids created (scale-out), in index order. */
  added: string[];
  /** VNFC ids removed (scale-in), highest index first. */
  removed: string[];
  /** Hooks: `scale_end` on added VNFCs; `scale_start` (delete command) on removed ones. */
  hooks: { vnfcId: string; operation: "scale_start" | "scale_end" }[];
}

const problem = (code: string, message: string): Diagnostic => ({ severity: "error", code, message });

export function planScale(req: ScaleRequest): ScalePlan {
  const { flavour } = req;
  const aspect = flavour.aspects.find((a) => a.id === req.aspectId);
  if (!aspect)
    throw new DiagnosticError("cannot plan scale", [
      problem(
        "SCALE_UNKNOWN_ASPECT",
        `aspect \`${req.aspectId}\` does not exist in flavour \`${flavour.id}\` (aspects: ${flavour.aspects.map((a) => a.id).join(", ") || "none"})`,
      ),
    ]);
  if (!Number.isInteger(req.steps) || req.steps < 1)
    throw new DiagnosticError("cannot plan scale", [problem("SCALE_STEPS", `steps must be a whole number ≥ 1, got ${req.steps}`)]);
  // Until the first scale writes it to config, an aspect is at the level its VNF was instantiated
  // at (its scale_info), as in Tacker, as VmVnf deploys it and as a CNF's scale reads it.
  const from = scaleLevelsOf(flavour, { instantiationLevelId: req.instantiationLevelId, scaleLevels: req.currentLevels })[aspect.id];
  const to = req.type === "out" ? from + req.steps : from - req.steps;
  const problems: Diagnostic[] = [];
  if (to > aspect.maxScaleLevel)
    problems.push(
      problem(
        "SCALE_BEYOND_MAX",
        `scale out by ${req.steps} from level ${from} of \`${aspect.id}\` reaches ${to}, beyond max_scale_level ${aspect.maxScaleLevel}`,
      ),
    );
  if (to < 0) problems.push(problem("SCALE_BELOW_ZERO", `scale in by ${req.steps} from level ${from} of \`${aspect.id}\` reaches ${to}, below 0`));
  const instances: Record<string, { from: number; to: number }> = {};
  const added: string[] = [];
  const removed: string[] = [];
  if (problems.length === 0) {
    for (const vdu of flavour.vdus) {
      const s = vdu.scaling.find((x) => x.aspectId === aspect.id);
      if (!s) continue;
      if (s.missingDelta) {
        // What Tacker does at this point: the VNFD was onboarded, the scale fails.
        problems.push({
          ...s.missingDelta.where,
          ...problem("SCALE_NO_DELTA", `VDU \`${vdu.id}\` has no number_of_instances for step delta \`${s.missingDelta.deltaId}\` of \`${aspect.id}\``),
        });
        continue;
      }
      const a = s.instancesByScaleLevel[from];
      const b = s.instancesByScaleLevel[to];
      if (a === undefined || b === undefined) {
        problems.push(problem("SCALE_NO_DELTA", `VDU \`${vdu.id}\` has no instance count for level ${a === undefined ? from : to} of \`${aspect.id}\``));
        continue;
      }
      if (b > vdu.maxInstances || b < vdu.minInstances) {
        // Located at the VNFD's deltas (kept by the translator) when it knows them, as Tacker names the VDU and level.
        const where = vdu.profileViolations?.find((v) => v.aspectId === aspect.id && v.scaleLevel === to)?.where;
        problems.push({
          ...where,
          ...problem(
            "SCALE_OUT_OF_PROFILE",
            `VDU \`${vdu.id}\` would have ${b} instances at scale level ${to} of \`${aspect.id}\`, outside vdu_profile ${vdu.minInstances}..${vdu.maxInstances}`,
          ),
        });
      }
      instances[vdu.id] = { from: a, to: b };
      for (let i = a; i < b; i++) added.push(`${vdu.id}-${i}`);
      for (let i = a - 1; i >= b; i--) removed.push(`${vdu.id}-${i}`);
    }
  }
  if (problems.length > 0) throw new DiagnosticError("cannot plan scale", problems);
  return {
    aspectId: aspect.id,
    from,
    to,
    scaleLevels: { ...req.currentLevels, [aspect.id]: to },
    instances,
    added,
    removed,
    hooks: [
      ...removed.map((vnfcId) => ({ vnfcId, operation: "scale_start" as const })),
      ...added.map((vnfcId) => ({ vnfcId, operation: "scale_end" as const })),
    ],
  };
}
