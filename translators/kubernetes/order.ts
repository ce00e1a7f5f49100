/**
 * Creation order as dependencies: every object depends on every object of the previous non-empty
 * tier (`kinds.ts`), so Pulumi creates tier by tier (namespaces, storage, RBAC, config, services,
 * workloads, autoscalers, custom resources) and deletes in reverse, and objects of one tier are
 * created in parallel.
 */
import type { PlannedObject } from "./objects";

/** Child key → keys it depends on. `objects` must be in plan order (sorted by tier). */
export function dependenciesOf(objects: readonly PlannedObject[]): Map<string, string[]> {
  const out = new Map<string, string[]>();
  let previous: string[] = [];
  let current: string[] = [];
  let tier: number | undefined;
  for (const p of objects) {
    if (p.tier !== tier) {
      if (current.length) previous = current;
      current = [];
      tier = p.tier;
    }
    out.set(p.key, [...previous]);
    current.push(p.key);
  }
  return out;
}
