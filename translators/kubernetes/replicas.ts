/**
 * How many pods a VDU has: Tacker's rule. The instantiation level gives a scale level per aspect
 * (`InstantiationLevels.scale_info`), stack config may override scale levels after `nfv scale`;
 * replicas = initial delta + Σ step deltas up to each aspect's scale level, or the level's
 * `VduInstantiationLevels` count when no scale level is overridden; always within vdu_profile.
 *
 * Codes: CNF_UNKNOWN_LEVEL, CNF_UNKNOWN_ASPECT, CNF_SCALE_LEVEL_OUT_OF_RANGE,
 * CNF_REPLICAS_OUT_OF_RANGE.
 */
import type { DiagnosticBag, SourceLocation } from "../diagnostics";
import type { Flavour, Vdu } from "../tosca/model";

export interface ReplicaSelection {
  /** `InstantiateVnfRequest.instantiationLevelId`; default: the flavour's default level. */
  instantiationLevelId?: string;
  /** Scale level per aspect id (stack config after `nfv scale`); overrides the level's `scale_info`. */
  scaleLevels?: Record<string, number>;
}

/** Checks the selection against the flavour; reports unknown levels/aspects and out-of-range levels. */
export function checkSelection(flavour: Flavour, sel: ReplicaSelection, bag: DiagnosticBag, where: SourceLocation = {}): boolean {
  let ok = true;
  if (sel.instantiationLevelId !== undefined && !flavour.instantiationLevels.some((l) => l.id === sel.instantiationLevelId)) {
    const known = flavour.instantiationLevels.map((l) => l.id);
    bag.error(
      "CNF_UNKNOWN_LEVEL",
      `instantiation level \`${sel.instantiationLevelId}\` is not in flavour \`${flavour.id}\` (levels: ${known.join(", ") || "none"})`,
      { ...where, path: "instantiationLevelId" },
    );
    ok = false;
  }
  for (const [aspectId, level] of Object.entries(sel.scaleLevels ?? {})) {
    const aspect = flavour.aspects.find((a) => a.id === aspectId);
    if (!aspect) {
      bag.error(
        "CNF_UNKNOWN_ASPECT",
        `scale level given for aspect \`${aspectId}\`, which flavour \`${flavour.id}\` does not declare (aspects: ${flavour.aspects.map((a) => a.id).join(", ") || "none"})`,
        { ...where, path: `scaleLevels.${aspectId}` },
      );
      ok = false;
    } else if (!Number.isInteger(level) || level < 0 || level > aspect.maxScaleLevel) {
      bag.error("CNF_SCALE_LEVEL_OUT_OF_RANGE", `aspect \`${aspectId}\`: scale level ${level} is outside 0…${aspect.maxScaleLevel} (max_scale_level)`, {
        ...where,
        path: `scaleLevels.${aspectId}`,
      });
      ok = false;
    }
  }
  return ok;
}

/** The scale level of every aspect for a selection (level `scale_info`, then overrides). */
export function scaleLevelsOf(flavour: Flavour, sel: ReplicaSelection): Record<string, number> {
  const levelId = sel.instantiationLevelId ?? flavour.defaultInstantiationLevelId;
  const level = flavour.instantiationLevels.find((l) => l.id === levelId);
  const out: Record<string, number> = {};
  for (const a of flavour.aspects) out[a.id] = sel.scaleLevels?.[a.id] ?? level?.scaleInfo[a.id] ?? 0;
  return out;
}

/** Replicas of one VDU; call `checkSelection` first. */
export function replicasOf(vdu: Vdu, flavour: Flavour, sel: ReplicaSelection): number {
  const levelId = sel.instantiationLevelId ?? flavour.defaultInstantiationLevelId;
  const overridden = vdu.scaling.some((s) => sel.scaleLevels?.[s.aspectId] !== undefined);
  if (!overridden && levelId !== undefined && vdu.instancesByLevel[levelId] !== undefined) return vdu.instancesByLevel[levelId];
  if (vdu.scaling.length === 0) return levelId === undefined ? vdu.initialInstances : (vdu.instancesByLevel[levelId] ?? vdu.initialInstances);
  const levels = scaleLevelsOf(flavour, sel);
  const base = vdu.initialDelta ?? vdu.minInstances;
  let n = base;
  for (const s of vdu.scaling) {
    const l = Math.min(levels[s.aspectId] ?? 0, s.instancesByScaleLevel.length - 1);
    n += s.instancesByScaleLevel[l] - s.instancesByScaleLevel[0];
  }
  return n;
}

/** Reports a count outside vdu_profile; true when in range. */
export function checkInProfile(vdu: Vdu, n: number, what: string, bag: DiagnosticBag, where: SourceLocation): boolean {
  if (n >= vdu.minInstances && n <= vdu.maxInstances) return true;
  bag.error(
    "CNF_REPLICAS_OUT_OF_RANGE",
    `${what}: VDU \`${vdu.id}\` would have ${n} replica(s), outside vdu_profile [${vdu.minInstances}, ${vdu.maxInstances}]`,
    where,
  );
  return false;
}
