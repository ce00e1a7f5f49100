/**
 * Rollback of a failed `nfv` operation (Tacker's rollback of a FAILED_TEMP instantiate, scale,
 * heal or change of connectivity): the operation's `up` failed, so the stack's settings file as
 * it was before the operation is kept as the stack's rollback point, and `nfv rollback` writes it
 * back and runs `up`, which deletes what the operation half-made and converges on the previous
 * config. A later successful operation makes the point stale: it is removed.
 */
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import * as path from "node:path";
import type { PulumiStack } from "./pulumi-stack";
import { shortName, type SettingsSnapshot } from "./stack-state";

/** What `.pulumi-nfv/rollback/<stack>.json` in the project holds. */
export interface RollbackPoint {
  /** The `nfv` command that failed. */
  command: string;
  /** When it failed (ISO 8601). */
  failedAt: string;
  /** The settings file's bytes before it, in base64 (encrypted secrets and all); absent: there was none. */
  settingsBase64?: string;
}

function pointFile(stack: PulumiStack): string {
  return path.join(stack.workDir, ".pulumi-nfv", "rollback", `${shortName(stack)}.json`);
}

export function saveRollbackPoint(stack: PulumiStack, command: string, before: SettingsSnapshot, now = new Date()): void {
  const file = pointFile(stack);
  mkdirSync(path.dirname(file), { recursive: true });
  const point: RollbackPoint = {
    command,
    failedAt: now.toISOString(),
    ...(before.saved ? { settingsBase64: before.saved.toString("base64") } : {}),
  };
  writeFileSync(file, JSON.stringify(point, null, 2) + "\n", { mode: 0o600 });
}

/** The stack's rollback point, with the settings file's bytes it holds (`saved`; absent: there was no file). */
export function readRollbackPoint(stack: PulumiStack): (RollbackPoint & { saved?: Buffer }) | undefined {
  const file = pointFile(stack);
  if (!existsSync(file)) return undefined;
  const point = JSON.parse(readFileSync(file, "utf8")) as RollbackPoint;
  return point.settingsBase64 === undefined ? point : { ...point, saved: Buffer.from(point.settingsBase64, "base64") };
}

export function clearRollbackPoint(stack: PulumiStack): void {
  rmSync(pointFile(stack), { force: true });
}
