/**
 * `InstantiationLevels`, `VduInstantiationLevels` and `VirtualLinkInstantiationLevels`:
 * the levels, the default level, and explicit per-VDU and per-VL numbers.
 */
import type { InstantiationLevel, ScalingAspect, VirtualLink } from "../model";
import { policyPath, type PolicyTemplate, type Topology } from "../phase4-templates/topology";
import type { SemanticContext } from "./context";
import { int, obj, str } from "./read";
import { vduTargets } from "./scaling";
import { readBitrate } from "./virtual-link";
import { T } from "./sol001-types";

export interface LevelPolicies {
  levels: InstantiationLevel[];
  defaultLevelId?: string;
  /** VDU id → level id → instances, from VduInstantiationLevels. */
  vduLevels: Map<string, { levels: Record<string, number>; policy: PolicyTemplate }>;
}

export function readLevels(topo: Topology, vduIds: Set<string>, aspects: ScalingAspect[], vls: VirtualLink[], ctx: SemanticContext): LevelPolicies {
  const result: LevelPolicies = { levels: [], vduLevels: new Map() };
  const is = (p: PolicyTemplate, t: string) => ctx.types.isA(p.type, t);
  const aspectById = new Map(aspects.map((a) => [a.id, a]));
  let levelsPolicy: PolicyTemplate | undefined;
  for (const p of topo.policies) {
    if (!is(p, T.INSTANTIATION_LEVELS)) continue;
    if (levelsPolicy) {
      ctx.problems.error("POLICY_DUPLICATE", "a flavour has one InstantiationLevels policy", topo.file, policyPath(p));
      continue;
    }
    levelsPolicy = p;
    const path = [...policyPath(p), "properties"];
    const defaultLevel = str(p.properties.default_level);
    for (const [id, def] of Object.entries(obj(p.properties.levels))) {
      const scaleInfo: Record<string, number> = {};
      // One entry per aspect, so per VDU in large VNFDs: no entry pairs, and paths only for problems.
      const infos = obj(obj(def).scale_info);
      for (const aspectId of Object.keys(infos)) {
        const level = int(obj(infos[aspectId]).scale_level) ?? 0;
        scaleInfo[aspectId] = level;
        const aspect = aspectById.get(aspectId);
        if (!aspect)
          ctx.problems.error(
            "POLICY_UNKNOWN_ASPECT",
            `scale_info names aspect \`${aspectId}\`, which no ScalingAspects policy declares`,
            topo.file,
            [...path, "levels", id, "scale_info", aspectId],
            true,
          );
        else if (level > aspect.maxScaleLevel)
          ctx.problems.error(
            "POLICY_SCALE_LEVEL_RANGE",
            `scale_level ${level} exceeds max_scale_level ${aspect.maxScaleLevel} of aspect \`${aspectId}\``,
            topo.file,
            [...path, "levels", id, "scale_info", aspectId, "scale_level"],
          );
      }
      const level: InstantiationLevel = { id, scaleInfo, isDefault: id === defaultLevel };
      const description = str(obj(def).description);
      if (description !== undefined) level.description = description;
      result.levels.push(level);
    }
    if (defaultLevel !== undefined) {
      if (!result.levels.some((l) => l.id === defaultLevel)) {
        ctx.problems.error(
          "POLICY_DEFAULT_LEVEL_MISSING",
          `default_level \`${defaultLevel}\` is not one of the levels (${result.levels.map((l) => l.id).join(", ")})`,
          topo.file,
          [...path, "default_level"],
        );
      } else result.defaultLevelId = defaultLevel;
    } else if (result.levels.length === 1) {
      result.levels[0].isDefault = true;
      result.defaultLevelId = result.levels[0].id;
    } else if (result.levels.length > 1) {
      // L19: SOL001 asks for it only in a comment; Tacker then instantiates at the request's level,
      // or without one from the initial deltas.
      ctx.problems.tolerated(
        "L19",
        "POLICY_DEFAULT_LEVEL_MISSING",
        "default_level is required when there is more than one level; without it an instantiate request names the level, or the initial deltas apply",
        topo.file,
        path,
      );
    }
  }
  const levelIds = new Set(result.levels.map((l) => l.id));
  const vlById = new Map(vls.map((v) => [v.id, v]));
  for (const p of topo.policies) {
    const perVdu = is(p, T.VDU_INSTANTIATION_LEVELS);
    const perVl = is(p, T.VL_INSTANTIATION_LEVELS);
    if (!perVdu && !perVl) continue;
    if (!levelsPolicy) {
      ctx.problems.error(
        "POLICY_LEVELS_WITHOUT_INSTANTIATION_LEVELS",
        `\`${p.name}\` needs an InstantiationLevels policy in the same flavour`,
        topo.file,
        policyPath(p),
      );
      continue;
    }
    const levels = obj(p.properties.levels);
    for (const id of Object.keys(levels)) {
      if (!levelIds.has(id))
        ctx.problems.error(
          "POLICY_UNKNOWN_LEVEL",
          `level \`${id}\` is not declared by InstantiationLevels`,
          topo.file,
          [...policyPath(p), "properties", "levels", id],
          true,
        );
    }
    if (perVdu) {
      const counts: Record<string, number> = {};
      for (const [id, def] of Object.entries(levels)) counts[id] = int(obj(def).number_of_instances) ?? 0;
      for (const vdu of vduTargets(p, topo, vduIds, ctx, true)) result.vduLevels.set(vdu, { levels: counts, policy: p });
    } else {
      p.targets.forEach((t, i) => {
        const vl = vlById.get(t);
        if (!vl) {
          if (topo.nodes.has(t))
            ctx.problems.error("POLICY_BAD_TARGET", `VirtualLinkInstantiationLevels targets VnfVirtualLink nodes; \`${t}\` is not one`, topo.file, [
              ...policyPath(p),
              "targets",
              i,
            ]);
          return;
        }
        for (const [id, def] of Object.entries(levels)) {
          const rate = readBitrate(obj(def).bitrate_requirements);
          if (rate) vl.bitrateByLevel[id] = rate;
        }
      });
    }
  }
  return result;
}
