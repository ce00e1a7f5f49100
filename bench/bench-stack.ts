/** The Pulumi side of a benchmark: a stack of the project's stack program on a private file backend. */
import { execFileSync } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { cpus, tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { LocalWorkspace, PulumiCommand, type Stack } from "@pulumi/pulumi/automation";
import { toolchainEnv } from "../lab/toolchain/env";
import { parallelismEnv } from "../cli/engine-parallelism";
import { pulumiEnv } from "../cli/pulumi-env";

export const REPO = resolve(__dirname, "../..");
const PASSPHRASE = "pulumi-nfv-local-lab"; // the lab's public passphrase (stacks/Pulumi.local.yaml)

export interface BenchStack {
  stack: Stack;
  name: string;
  /** The environment of the stack's backend, for `nfv` run as a process of its own. */
  env: Record<string, string>;
  /** Removes the stack, its stack file, its backend and its processes' TMPDIR. */
  dispose(): Promise<void>;
}

/** Stack `name` with `config` (keys as `pulumi-nfv:vnfs.x.package`, set by path). */
export async function openBenchStack(name: string, config: Record<string, string>): Promise<BenchStack> {
  const backend = mkdtempSync(join(tmpdir(), "nfv-bench-state-"));
  // The engine's and plugins' environment as `nfv` gives it (cli/pulumi-env.ts: its parallelism, a
  // private TMPDIR): the kubernetes provider leaves a copy of each kubeconfig it is given there
  // (bench:cnf left four in /tmp).
  const operationTmp = mkdtempSync(join(tmpdir(), "nfv-bench-tmp-"));
  const env: Record<string, string> = {
    ...toolchainEnv(REPO),
    PULUMI_BACKEND_URL: `file://${backend}`,
    PULUMI_CONFIG_PASSPHRASE: PASSPHRASE,
    ...pulumiEnv(operationTmp),
  };
  delete env.PULUMI_CONFIG_PASSPHRASE_FILE;
  delete env.KUBECONFIG;
  const pulumi = execFileSync("bash", ["-c", "command -v pulumi"], { env, encoding: "utf8" }).trim();
  const pulumiCommand = await PulumiCommand.get({ root: resolve(pulumi, "../..") });
  const stack = await LocalWorkspace.createOrSelectStack({ stackName: name, workDir: REPO }, { envVars: env, pulumiCommand });
  for (const [key, value] of Object.entries(config)) await stack.setConfig(key, { value }, true);
  return {
    stack,
    name,
    env,
    dispose: async () => {
      await stack.workspace.removeStack(name).catch(() => undefined);
      rmSync(join(REPO, `stacks/Pulumi.${name}.yaml`), { force: true });
      rmSync(backend, { recursive: true, force: true });
      rmSync(operationTmp, { recursive: true, force: true });
    },
  };
}

/** One row of a benchmark: seconds of ours and of the peer (`null`: the peer has no such step). */
export interface RatioRow {
  op: string;
  ours?: number;
  peer?: number | null;
}

/** The Markdown table of a benchmark: both sides' seconds and ours / peer; a side that failed says so. */
export function ratioTable(peer: string, rows: RatioRow[]): string {
  const header = ["operation", "pulumi s", `${peer} s`, `pulumi / ${peer}`];
  const cells = rows.map((r) => [
    r.op,
    r.ours === undefined ? "failed" : r.ours.toFixed(1),
    r.peer === null ? "-" : r.peer === undefined ? "failed" : r.peer.toFixed(1),
    r.peer === null ? "-" : r.ours !== undefined && r.peer !== undefined ? `${(r.ours / r.peer).toFixed(2)}x` : "n/a",
  ]);
  const widths = header.map((h, i) => Math.max(h.length, ...cells.map((c) => c[i].length)));
  const line = (c: string[]) => "| " + c.map((x, i) => (i === 0 ? x.padEnd(widths[i]) : x.padStart(widths[i]))).join(" | ") + " |";
  const rule = "|" + widths.map((w, i) => (i === 0 ? "-" : "") + "-".repeat(w + 1) + (i === 0 ? "" : ":")).join("|") + "|";
  return [line(header), rule, ...cells.map(line)].join("\n");
}

/** The line of a benchmark's output saying how many steps the engine ran at once, and why. */
export function parallelismLine(): string {
  const ours = parallelismEnv().PULUMI_PARALLEL;
  return `engine parallelism: ${ours ?? process.env.PULUMI_PARALLEL} steps at once (${ours ? "nfv's default" : "PULUMI_PARALLEL"}; Pulumi's own default here: 4 per core, ${4 * cpus().length})`;
}
