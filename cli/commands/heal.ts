/**
 * `nfv heal --stack S [--vnfc ID ...] [--vnf NAME] [--preview] [--cwd DIR]`: heal as a targeted
 * replace. VM VNFs: the listed VNFCs' servers (or all) are replaced with `up --replace`, ports and
 * volumes kept, heal hooks run. CNFs: listed pods are deleted through the Kubernetes API (their
 * controller, or we, create them again); no ids replaces every workload.
 */
import { kubeApi, runHeal, type LivePod } from "../../ops/cnf";
import { EVENT_LOG_USAGE } from "../event-log";
import { parseArgs, UsageError } from "../args";
import { EXIT_OK, EXIT_PROBLEMS, type Command } from "../io";
import { planHealOperation, type DeployedVnf } from "../../ops/operations";
import { loadStackVnfsAndOutputs } from "../../ops/stack-state";
import { describeError, runOperation } from "../run-operation";
import { openStack, projectDir } from "../stack";

export const command: Command = {
  usage:
    [
      "usage: nfv heal --stack S [--vnfc ID ...] [--vnf NAME] [--preview] [--event-log FILE] [--cwd DIR]",
      "",
      "  --vnfc      a VNFC to heal (repeatable): `<VDU>-<index>` for VM VNFs, a pod name for CNFs;",
      "              none: heal the whole VNF",
      "  --vnf       the VNF, when the stack has more than one",
      "  --preview   show exactly what would be replaced; the stack is left as it was",
      EVENT_LOG_USAGE,
      "",
      "Exit status: 0 done, 1 refused or failed, 2 bad usage.",
    ].join("\n") + "\n",
  async run(args, io) {
    const { positionals, options, flags, lists } = parseArgs(args, ["stack", "vnf", "cwd", "event-log"], ["preview"], ["vnfc"]);
    const vnfcIds = lists.get("vnfc") ?? [];
    if (positionals.length > 0) throw new UsageError(`unexpected argument ${positionals[0]}`);
    const stackName = options.get("stack");
    if (!stackName) throw new UsageError("--stack is required");
    const root = projectDir(options.get("cwd") ?? process.cwd());
    const stack = openStack(stackName, root);
    let op;
    try {
      const { vnfs: prepared, outputs } = await loadStackVnfsAndOutputs(stack, root);
      const deployed = (outputs.vnfs?.value ?? {}) as Record<string, DeployedVnf & { vim?: string; namespace?: string }>;
      const target = options.get("vnf") ?? (prepared.length === 1 ? prepared[0].entry.name : undefined);
      const cnf = target ? prepared.find((p) => p.entry.name === target && p.component === "container-vnf") : undefined;
      // Pods are VNFCs of a CNF: only the live cluster knows them.
      let pods: LivePod[] = [];
      let api: ReturnType<typeof kubeApi> | undefined;
      if (cnf && vnfcIds.length > 0) {
        const kubeconfig = outputs.kubeconfigs?.value?.[cnf.entry.vim!] as string | undefined;
        if (!kubeconfig) throw new Error(`the stack has no kubeconfig output for VIM '${cnf.entry.vim}'; run up first`);
        api = kubeApi(kubeconfig);
        pods = await api.listPods(deployed[cnf.entry.name]?.namespace ?? "default");
      }
      op = planHealOperation(prepared, deployed, { vnf: options.get("vnf"), vnfcIds }, pods);
      io.out(`heal ${op.vnf}:\n${op.summary.map((l) => `  ${l}\n`).join("")}`);
      if (op.podDeletions.length > 0) {
        if (!flags.has("preview")) {
          const namespace = deployed[op.vnf]?.namespace ?? "default";
          const plan = { mode: "vnfc" as const, deletions: op.podDeletions, diagnostics: [] };
          const done = await runHeal(plan, api!, { defaultNamespace: namespace });
          io.out(`healed: ${done.join(", ")}\n`);
        }
        return EXIT_OK;
      }
    } catch (e) {
      io.err(`nfv heal: ${describeError(e)}\n`);
      return EXIT_PROBLEMS;
    }
    return runOperation(stack, op, flags.has("preview"), "heal", io, options.get("event-log"));
  },
};
