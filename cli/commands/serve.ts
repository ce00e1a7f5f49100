/**
 * `nfv serve --stack S [--listen HOST:PORT] [--cwd DIR]`: auto-heal and auto-scale from
 * Prometheus alerts (Tacker's Prometheus plugin). Receives Alertmanager's webhooks, maps each
 * firing alert to a heal or a scale of the stack's `auto_heal`/`auto_scale` policies, and runs
 * it as `nfv heal`/`nfv scale` do (config, then `up`), one at a time.
 * Runs until SIGTERM or SIGINT, then lets the running operation end (later signals do not stop it).
 */
import { startAlertServer } from "../alert-server";
import { parseArgs, UsageError } from "../args";
import { EXIT_OK, type Command, type Io } from "../io";
import { StopSignals } from "../stop-signals";
import { AutoDispatcher, type AutoOperation, type VnfPolicies } from "../../ops/auto/dispatcher";
import { loadStack } from "../../ops/stack-state";
import { openStack, projectDir } from "../stack";
import { command as heal } from "./heal";
import { command as scale } from "./scale";

/** Tacker's API is on 9890: the port beside it. */
const DEFAULT_LISTEN = "127.0.0.1:9891";

export const command: Command = {
  usage:
    [
      "usage: nfv serve --stack S [--listen HOST:PORT] [--cwd DIR]",
      "",
      `  --listen    where Alertmanager's webhook_configs url points (default ${DEFAULT_LISTEN}; port 0: a free one)`,
      "",
      "POST /alert, /alert/auto_healing, /alert/auto_scaling: Alertmanager webhooks; GET /operations: what ran.",
      "A firing alert with labels receiver_type=tacker and function_type=auto_heal (vnf_instance_id,",
      "vnfc_info_id) or auto_scale (vnf_instance_id, aspect_id, auto_scale_type SCALE_OUT|SCALE_IN)",
      "heals or scales a VNF whose stack entry has auto_heal or auto_scale.",
      "",
      "Exit status: 0 stopped by a signal, 1 could not start, 2 bad usage.",
    ].join("\n") + "\n",
  async run(args, io) {
    const { positionals, options } = parseArgs(args, ["stack", "listen", "cwd"]);
    if (positionals.length > 0) throw new UsageError(`unexpected argument ${positionals[0]}`);
    const stackName = options.get("stack");
    if (!stackName) throw new UsageError("--stack is required");
    const root = projectDir(options.get("cwd") ?? process.cwd());
    const stack = openStack(stackName, root);
    const dispatcher = new AutoDispatcher((op) => runOperation(op, stackName, root, io));
    const policies = async (): Promise<VnfPolicies[]> =>
      (await loadStack(stack, root)).vnfs.map(({ entry }) => ({
        name: entry.name,
        vnfInstanceId: entry.vnfInstanceId,
        autoHeal: entry.autoHeal,
        autoScale: entry.autoScale,
      }));
    await policies(); // A config that cannot be read stops serve before it listens.
    const server = await startAlertServer({ listen: options.get("listen") ?? DEFAULT_LISTEN, dispatcher, policies, io });
    const signals = new StopSignals((s) => io.out(`nfv serve: ${s} again: still waiting for the operations queued (SIGKILL stops now)\n`));
    try {
      io.out(`nfv serve: stack ${stackName}, listening on ${server.url}\n`);
      io.out(`nfv serve: ${await signals.first}: no new alerts; waiting for the operations queued\n`);
      await server.close();
      await dispatcher.idle();
      return EXIT_OK;
    } finally {
      signals.dispose();
    }
  },
};

/** The operation as its `nfv` command, in this process, its output kept for the report. */
async function runOperation(op: AutoOperation, stack: string, root: string, io: Io): Promise<{ exitCode: number; output: string }> {
  const args =
    op.kind === "heal"
      ? ["--vnf", op.vnf, ...op.vnfcs.flatMap((v) => ["--vnfc", v])]
      : ["--vnf", op.vnf, "--aspect", op.aspect!, "--steps", "1", "--type", op.type!];
  io.out(`operation ${op.id}: nfv ${op.kind} ${args.join(" ")} (alerts ${op.alerts.join(", ")})\n`);
  const started = Date.now();
  const out: string[] = [];
  const exitCode = await (op.kind === "heal" ? heal : scale).run([...args, "--stack", stack, "--cwd", root], {
    out: (t) => out.push(t),
    err: (t) => out.push(t),
  });
  io.out(`operation ${op.id}: ${exitCode === 0 ? "succeeded" : `failed (exit ${exitCode})`} in ${((Date.now() - started) / 1000).toFixed(1)} s\n`);
  if (exitCode !== 0) io.out(out.join(""));
  return { exitCode, output: out.join("") };
}
