/**
 * `nfv terminate --stack S (--ns N | --vnf V) [--preview] [--cwd DIR]`: Tacker's terminate of a
 * network service (its entry and its constituents' VNF entries) or of one VNF, as a config change
 * and `up`. Refused when the config left would be invalid (another VNF's hook_parameters or a CNF's
 * VIM naming what goes). `--preview` shows the deletions and restores the config.
 */
import { EVENT_LOG_USAGE } from "../event-log";
import { parseArgs, UsageError } from "../args";
import { EXIT_PROBLEMS, type Command } from "../io";
import { checkConfigLeft, terminateOperation, terminateTargets } from "../../ops/terminate";
import { loadStack, readRawConfig } from "../../ops/stack-state";
import { describeError, runOperation } from "../run-operation";
import { openStack, projectDir } from "../stack";

export const command: Command = {
  usage:
    [
      "usage: nfv terminate --stack S (--ns NAME | --vnf NAME) [--preview] [--event-log FILE] [--cwd DIR]",
      "",
      "  --ns        a network service: its entry and its constituents' VNF entries go",
      "  --vnf       a VNF that no network service holds",
      "  --preview   show what would be deleted; the stack is left as it was",
      EVENT_LOG_USAGE,
      "",
      "Exit status: 0 done, 1 refused or failed, 2 bad usage.",
    ].join("\n") + "\n",
  async run(args, io) {
    const { positionals, options, flags } = parseArgs(args, ["stack", "ns", "vnf", "cwd", "event-log"], ["preview"]);
    if (positionals.length > 0) throw new UsageError(`unexpected argument ${positionals[0]}`);
    const stackName = options.get("stack");
    if (!stackName) throw new UsageError("--stack is required");
    if (options.has("ns") === options.has("vnf")) throw new UsageError("give one of --ns and --vnf");
    const root = projectDir(options.get("cwd") ?? process.cwd());
    const stack = openStack(stackName, root);
    let op;
    try {
      const raw = await readRawConfig(stack);
      const targets = terminateTargets(await loadStack(stack, root, raw), { ns: options.get("ns"), vnf: options.get("vnf") });
      await checkConfigLeft(raw, targets, root, stack.name);
      op = terminateOperation(targets);
    } catch (e) {
      io.err(`nfv terminate: ${describeError(e)}\n`);
      return EXIT_PROBLEMS;
    }
    io.out(`terminate ${op.vnf}:\n${op.summary.map((l) => `  ${l}\n`).join("")}`);
    return runOperation(stack, op, flags.has("preview"), "terminate", io, options.get("event-log"));
  },
};
