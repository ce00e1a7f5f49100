/**
 * `nfv rollback --stack S [--preview] [--cwd DIR]`: Tacker's rollback of a failed LCM operation.
 * After a `nfv scale`, `heal`, `change-ext-conn` or `terminate` whose `up` failed, puts the stack
 * config back as it was before that operation and runs `up`, which deletes what it half-made.
 */
import { EVENT_LOG_USAGE } from "../event-log";
import { parseArgs, UsageError } from "../args";
import type { Command } from "../io";
import { runRollback } from "../run-operation";
import { openStack, projectDir } from "../stack";

export const command: Command = {
  usage:
    [
      "usage: nfv rollback --stack S [--preview] [--event-log FILE] [--cwd DIR]",
      "",
      "  --preview   show what the rollback would change; the stack is left as it is",
      EVENT_LOG_USAGE,
      "",
      "Exit status: 0 done, 1 nothing to roll back or failed, 2 bad usage.",
    ].join("\n") + "\n",
  async run(args, io) {
    const { positionals, options, flags } = parseArgs(args, ["stack", "cwd", "event-log"], ["preview"]);
    if (positionals.length > 0) throw new UsageError(`unexpected argument ${positionals[0]}`);
    const stackName = options.get("stack");
    if (!stackName) throw new UsageError("--stack is required");
    const stack = openStack(stackName, projectDir(options.get("cwd") ?? process.cwd()));
    return runRollback(stack, flags.has("preview"), io, options.get("event-log"));
  },
};
