/**
 * `nfv scale --stack S --aspect A --steps N --type out|in [--vnf NAME] [--preview] [--cwd DIR]`:
 * writes the VNF's new scale level to stack config and runs `up` (VM VNFs gain or lose VNFCs,
 * highest index removed first; CNFs change replicas). `--preview` shows the change and restores
 * the config.
 */
import { EVENT_LOG_USAGE } from "../event-log";
import { parseArgs, UsageError } from "../args";
import { EXIT_PROBLEMS, type Command } from "../io";
import { planScaleOperation } from "../../ops/operations";
import { loadStackVnfs } from "../../ops/stack-state";
import { describeError, runOperation } from "../run-operation";
import { openStack, projectDir } from "../stack";

export const command: Command = {
  usage:
    [
      "usage: nfv scale --stack S --aspect A --steps N --type out|in [--vnf NAME] [--preview] [--event-log FILE] [--cwd DIR]",
      "",
      "  --aspect    a scaling aspect of the VNF's flavour (SOL001 ScalingAspects)",
      "  --steps     number of steps, ≥ 1",
      "  --type      out adds instances, in removes them (highest index first)",
      "  --vnf       the VNF, when more than one has the aspect",
      "  --preview   show what would change; the stack is left as it was",
      EVENT_LOG_USAGE,
      "",
      "Exit status: 0 done, 1 refused or failed, 2 bad usage.",
    ].join("\n") + "\n",
  async run(args, io) {
    const { positionals, options, flags } = parseArgs(args, ["stack", "aspect", "steps", "type", "vnf", "cwd", "event-log"], ["preview"]);
    if (positionals.length > 0) throw new UsageError(`unexpected argument ${positionals[0]}`);
    const stackName = options.get("stack") ?? "";
    const aspectId = options.get("aspect") ?? "";
    const steps = Number(options.get("steps") ?? "1");
    const type = options.get("type");
    if (!stackName || !aspectId) throw new UsageError("--stack and --aspect are required");
    if (!Number.isInteger(steps) || steps < 1) throw new UsageError("--steps must be a whole number ≥ 1");
    if (type !== "out" && type !== "in") throw new UsageError("--type must be out or in");
    const root = projectDir(options.get("cwd") ?? process.cwd());
    const stack = openStack(stackName, root);
    let op;
    try {
      op = planScaleOperation(await loadStackVnfs(stack, root), { vnf: options.get("vnf"), aspectId, steps, type });
    } catch (e) {
      io.err(`nfv scale: ${describeError(e)}\n`);
      return EXIT_PROBLEMS;
    }
    io.out(`scale ${op.vnf}:\n${op.summary.map((l) => `  ${l}\n`).join("")}`);
    return runOperation(stack, op, flags.has("preview"), "scale", io, options.get("event-log"));
  },
};
