/** The end of `nfv scale`, `heal`, `change-ext-conn`, `terminate` and `rollback`: config written, then `up` or a preview. */
import type { EngineEvent } from "@pulumi/pulumi/automation";
import type { Operation } from "../ops/operations";
import { clearRollbackPoint, readRollbackPoint, saveRollbackPoint } from "../ops/rollback";
import { applyConfigChanges, restoreSettings, snapshotSettings, type SettingsSnapshot } from "../ops/stack-state";
import { DiagnosticError } from "../translators/diagnostics";
import { stepEventLogger } from "./event-log";
import { EXIT_OK, EXIT_PROBLEMS, pulumiCommandProblem, type Io } from "./io";
import type { PulumiStack } from "../ops/pulumi-stack";

/** A refusal's message; a failed pulumi CLI call (reading the stack's config or outputs) by its `error:` line. */
export function describeError(e: unknown): string {
  return e instanceof DiagnosticError ? e.message : (pulumiCommandProblem(e) ?? (e as Error).message);
}

/**
 * Writes the operation's config changes, then runs `up` (replacing `op.replace`); with `preview`,
 * a diff preview, and the settings file is put back whatever the preview did. A failed `up` keeps
 * the changes (running `up` again retries the operation) and keeps the settings file as it was
 * before as the stack's rollback point (`nfv rollback`); a successful one removes a stale point.
 * `eventLog`: a file for the step events of the `up` (`--event-log`, cli/event-log).
 */
export async function runOperation(stack: PulumiStack, op: Operation, preview: boolean, command: string, io: Io, eventLog?: string): Promise<number> {
  return runSteps(stack, [op], preview, command, io, eventLog);
}

/**
 * `runOperation` for an operation of several steps (`nfv change-vnfpkg`, batch by batch): each
 * step's changes written, then its `up`. A failed step stops there; the rollback point is the
 * settings file as it was before the first step, so `nfv rollback` undoes every step. `preview`
 * shows the first step's diff. The event log holds every step's `up`.
 */
export async function runSteps(stack: PulumiStack, steps: Operation[], preview: boolean, command: string, io: Io, eventLog?: string): Promise<number> {
  const before = snapshotSettings(stack);
  const onEvent = preview ? undefined : stepEventLogger(eventLog);
  for (const [i, step] of steps.entries()) {
    await applyConfigChanges(stack, step.configChanges);
    if (preview) return previewThenRestore(stack, step.replace, before, command, io);
    try {
      await upThenClearPoint(stack, step.replace, io, onEvent, steps.length > 1 ? `step ${i + 1} of ${steps.length} ` : "");
    } catch (e) {
      saveRollbackPoint(stack, command, before);
      const which = steps.length > 1 ? `step ${i + 1} of ${steps.length}: ` : "";
      io.err(
        `nfv ${command}: ${which}${(e as Error).message}\n` +
          `nfv ${command}: the config change stays (\`up\` again retries it); \`nfv rollback --stack ${stack.name}\` puts the config back as it was before and converges on it\n`,
      );
      return EXIT_PROBLEMS;
    }
  }
  return EXIT_OK;
}

/**
 * `nfv rollback`: the settings file of the stack's rollback point written back, then `up`, which
 * deletes what the failed operation half-made; the point is removed once `up` succeeds. With
 * `preview`, the diff of that, and the settings file as it is now put back.
 */
export async function runRollback(stack: PulumiStack, preview: boolean, io: Io, eventLog?: string): Promise<number> {
  const found = readRollbackPoint(stack);
  if (!found) {
    io.err(`nfv rollback: stack '${stack.name}' has no failed operation to roll back (a failed nfv scale, heal, change-ext-conn or terminate leaves one)\n`);
    return EXIT_PROBLEMS;
  }
  io.out(`rollback of the ${found.command} that failed at ${found.failedAt}: the stack config as it was before it\n`);
  const now = snapshotSettings(stack);
  restoreSettings({ file: now.file, ...(found.saved ? { saved: found.saved } : {}) });
  if (preview) return previewThenRestore(stack, [], now, "rollback", io);
  try {
    return await upThenClearPoint(stack, [], io, stepEventLogger(eventLog));
  } catch (e) {
    io.err(`nfv rollback: ${(e as Error).message}\nnfv rollback: the config stays rolled back and the point kept: run \`nfv rollback\` again\n`);
    return EXIT_PROBLEMS;
  }
}

/** `up`; once it succeeds, any rollback point is stale and goes. */
async function upThenClearPoint(stack: PulumiStack, replace: string[], io: Io, onEvent: ((e: EngineEvent) => void) | undefined, step = ""): Promise<number> {
  await stack.up({ replace, onEvent });
  clearRollbackPoint(stack);
  io.out(`${step}up: succeeded\n`);
  return EXIT_OK;
}

async function previewThenRestore(stack: PulumiStack, replace: string[], restore: SettingsSnapshot, command: string, io: Io): Promise<number> {
  try {
    io.out((await stack.preview({ diff: true, replace })).stdout);
    return EXIT_OK;
  } catch (e) {
    io.err(`nfv ${command}: ${(e as Error).message}\n`);
    return EXIT_PROBLEMS;
  } finally {
    restoreSettings(restore);
  }
}
