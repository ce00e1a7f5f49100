/** Container resources from VNFD sizes: CPU in cores → millicores, memory in bytes or MiB. */

/** `0.5` → `500m`; whole cores stay whole (`2` → `2`). */
export function cpuQuantity(cores: number): string {
  const milli = Math.round(cores * 1000);
  return milli % 1000 === 0 ? String(milli / 1000) : `${milli}m`;
}

/** Requests equal limits (Tacker's legacy rule): a guaranteed-QoS container when both are set. */
export function requestsAndLimits(
  cpu: string | undefined,
  memory: string | undefined,
): { requests: Record<string, string>; limits: Record<string, string> } | undefined {
  const r: Record<string, string> = {};
  if (cpu !== undefined) r.cpu = cpu;
  if (memory !== undefined) r.memory = memory;
  return Object.keys(r).length ? { requests: { ...r }, limits: { ...r } } : undefined;
}
