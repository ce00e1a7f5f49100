/**
 * `nfv change-ext-conn --stack S --request FILE [--vnf NAME] [--preview] [--cwd DIR]`: Tacker's
 * ChangeExtVnfConnectivity. The request file (as Tacker takes it) is added to the VNF's
 * `change_ext_conn.requests` in stack config, with each VNFC's current SSH address, and `up`
 * runs: ports move or get their new addresses, `change_external_connectivity_start` runs before
 * (on the old address) and `_end` after (on the new one). `--preview` restores the config.
 */
import { readFileSync } from "node:fs";
import * as path from "node:path";
import { EVENT_LOG_USAGE } from "../event-log";
import { parseArgs, UsageError } from "../args";
import { unreadableFile } from "../../translators/user-file";
import { EXIT_PROBLEMS, UserError, type Command } from "../io";
import { planChangeExtConnOperation } from "../../ops/change-ext-conn";
import type { DeployedVnf } from "../../ops/operations";
import { loadStackVnfsAndOutputs } from "../../ops/stack-state";
import { describeError, runOperation } from "../run-operation";
import { openStack, projectDir } from "../stack";

export const command: Command = {
  usage:
    [
      "usage: nfv change-ext-conn --stack S --request FILE [--vnf NAME] [--preview] [--event-log FILE] [--cwd DIR]",
      "",
      "  --request   a ChangeExtVnfConnectivityRequest JSON (Tacker's param file, as it is)",
      "  --vnf       the VNF, when the stack has more than one VM-based VNF",
      "  --preview   show what would change; the stack is left as it was",
      EVENT_LOG_USAGE,
      "",
      "Exit status: 0 done, 1 refused or failed, 2 bad usage.",
    ].join("\n") + "\n",
  async run(args, io) {
    const { positionals, options, flags } = parseArgs(args, ["stack", "request", "vnf", "cwd", "event-log"], ["preview"]);
    if (positionals.length > 0) throw new UsageError(`unexpected argument ${positionals[0]}`);
    const stackName = options.get("stack");
    const requestFile = options.get("request");
    if (!stackName || !requestFile) throw new UsageError("--stack and --request are required");
    const requestPath = path.resolve(requestFile);
    // Checked before the stack is opened; a directory would otherwise end as a bare EISDIR naming no file.
    const problem = unreadableFile(requestPath);
    if (problem) throw new UserError(`--request ${requestPath} ${problem}`);
    const root = projectDir(options.get("cwd") ?? process.cwd());
    const stack = openStack(stackName, root);
    let op;
    try {
      const requestText = readFileSync(requestPath, "utf8");
      const { vnfs, outputs } = await loadStackVnfsAndOutputs(stack, root);
      op = planChangeExtConnOperation(vnfs, (outputs.vnfs?.value ?? {}) as Record<string, DeployedVnf>, { vnf: options.get("vnf"), requestPath, requestText });
    } catch (e) {
      io.err(`nfv change-ext-conn: ${describeError(e)}\n`);
      return EXIT_PROBLEMS;
    }
    io.out(`change-ext-conn ${op.vnf}:\n${op.summary.map((l) => `  ${l}\n`).join("")}`);
    return runOperation(stack, op, flags.has("preview"), "change-ext-conn", io, options.get("event-log"));
  },
};
