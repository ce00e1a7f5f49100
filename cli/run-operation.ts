/** The end of `nfv scale`, `heal`, `change-ext-conn` and `terminate`: an operation's config changes written, then `up` or a preview. */
import type { Stack } from "@pulumi/pulumi/automation";
import type { Operation } from "../ops/operations";
import { applyConfigChanges } from "../ops/stack-state";
import { DiagnosticError } from "../translators/diagnostics";
import { EXIT_OK, EXIT_PROBLEMS, type Io } from "./io";

export function describeError(e: unknown): string {
  return e instanceof DiagnosticError ? e.message : (e as Error).message;
}

/**
 * The end of `nfv scale`, `heal`, `change-ext-conn` and `terminate`: writes the operation's config changes,
 * then runs `up` (replacing `op.replace`); with `preview`, a diff preview, and the config is put
 * back whatever the preview did. A failed `up` keeps the changes: running `up` again converges.
 */
export async function runOperation(stack: Stack, op: Operation, preview: boolean, command: string, io: Io): Promise<number> {
  const undo = await applyConfigChanges(stack, op.configChanges);
  try {
    if (preview) {
      try {
        io.out((await stack.preview({ color: "never", diff: true, replace: op.replace })).stdout);
      } finally {
        await undo();
      }
    } else {
      const result = await stack.up({ color: "never", replace: op.replace });
      io.out(`up: ${result.summary.result}\n`);
    }
  } catch (e) {
    io.err(`nfv ${command}: ${(e as Error).message}\n`);
    return EXIT_PROBLEMS;
  }
  return EXIT_OK;
}
