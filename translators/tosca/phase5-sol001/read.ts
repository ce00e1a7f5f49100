/**
 * Reading already type-checked values. Phase 4 has reported anything malformed, so these helpers
 * only pick values out and fall back quietly (an error already exists for the bad value).
 */
import { isMap } from "../phase3-types/type-system";

export function obj(v: unknown): Record<string, unknown> {
  return isMap(v) ? v : {};
}

export function str(v: unknown): string | undefined {
  return typeof v === "string" ? v : typeof v === "number" || typeof v === "boolean" ? String(v) : undefined;
}

export function int(v: unknown): number | undefined {
  return typeof v === "number" && Number.isFinite(v) ? v : undefined;
}

export function strings(v: unknown): string[] {
  return Array.isArray(v) ? v.map(str).filter((s): s is string => s !== undefined) : [];
}

export function bool(v: unknown): boolean | undefined {
  return typeof v === "boolean" ? v : undefined;
}
