/**
 * `npm run bench:cli`: the `nfv` CLI as a process, against node itself, in one run. Each command
 * runs RUNS times (default 11; BENCH_RUNS), the commands taking turns so that a drift in the
 * machine's load touches them alike; the table gives the median time to the first byte on stdout
 * and to exit, and what the command costs beyond starting node (`node -e 0`).
 *
 * - `nfv --help`: the entry and its table of commands;
 * - `nfv validate` of a real package (helloworld3, and the largest package of Tacker's own that
 *   Tacker accepts): reading, validating and planning, no Pulumi module loaded;
 * - `nfv heal --help`: an operations command's modules, what every `nfv scale`, `heal`,
 *   `change-*`, `terminate` and `rollback` loads before its first CLI call (no Pulumi SDK since they
 *   run the CLI themselves; with the Automation API, 1.1 s).
 */
import { existsSync } from "node:fs";
import { cpus, loadavg } from "node:os";
import { join, resolve } from "node:path";
import { REPO } from "./bench-stack";
import { runProcess } from "./run-process";

const NFV_CLI = resolve(__dirname, "../cli/nfv.js"); // built with this bench (.bench-build)
const RUNS = Number(process.env.BENCH_RUNS ?? 11);
const PACKAGES = join(REPO, "../shared/vnf-packages");
const LARGEST_ACCEPTED = "tacker-corpus/packages/etsi_stack_update_in_heal";

interface Case {
  name: string;
  argv: string[];
  /** The exit status it must end with (a refused package would measure the wrong work). */
  status: number;
}

interface Timing {
  firstOutputMs: number;
  exitMs: number;
}

async function run(c: Case): Promise<Timing> {
  const start = performance.now();
  const r = await runProcess(process.execPath, c.argv);
  if (r.status !== c.status) throw new Error(`${c.name}: exit ${r.status}, want ${c.status}: ${r.output.slice(-600)}`);
  return { firstOutputMs: (r.firstOutput ?? r.end) - start, exitMs: r.end - start };
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

async function main(): Promise<void> {
  for (const p of ["helloworld3", LARGEST_ACCEPTED])
    if (!existsSync(join(PACKAGES, p))) throw new Error(`bench: ${join(PACKAGES, p)} is missing (../shared beside the repository)`);
  const cases: Case[] = [
    { name: "node itself (node -e 0)", argv: ["-e", "0"], status: 0 },
    { name: "nfv --help", argv: [NFV_CLI, "--help"], status: 0 },
    { name: "nfv validate helloworld3", argv: [NFV_CLI, "validate", join(PACKAGES, "helloworld3")], status: 0 },
    { name: "nfv validate etsi_stack_update_in_heal", argv: [NFV_CLI, "validate", join(PACKAGES, LARGEST_ACCEPTED)], status: 0 },
    { name: "nfv heal --help (an operation's modules)", argv: [NFV_CLI, "heal", "--help"], status: 0 },
  ];
  const load0 = loadavg();
  const timings = new Map<string, Timing[]>(cases.map((c) => [c.name, []]));
  for (let i = 0; i < RUNS; i++) for (const c of cases) timings.get(c.name)!.push(await run(c));
  const nodeMs = median(timings.get(cases[0].name)!.map((t) => t.exitMs));
  const header = ["command", "first output ms", "exit ms", "beyond node ms"];
  const cells = cases.map((c) => {
    const ts = timings.get(c.name)!;
    const exit = median(ts.map((t) => t.exitMs));
    return [c.name, median(ts.map((t) => t.firstOutputMs)).toFixed(0), exit.toFixed(0), c === cases[0] ? "-" : (exit - nodeMs).toFixed(0)];
  });
  const widths = header.map((h, i) => Math.max(h.length, ...cells.map((r) => r[i].length)));
  const line = (r: string[]) => "| " + r.map((x, i) => (i === 0 ? x.padEnd(widths[i]) : x.padStart(widths[i]))).join(" | ") + " |";
  const out = [line(header), "|" + widths.map((w, i) => (i === 0 ? "-".repeat(w + 2) : "-".repeat(w + 1) + ":")).join("|") + "|", ...cells.map(line)];
  out.push(
    "",
    `medians of ${RUNS} runs each, the commands taking turns; node ${process.version}`,
    `load average ${load0.map((l) => l.toFixed(1)).join(" ")} at the start, ${loadavg()
      .map((l) => l.toFixed(1))
      .join(" ")} at the end, on ${cpus().length} cores`,
  );
  process.stdout.write(out.join("\n") + "\n");
}

main().catch((e: unknown) => {
  process.stderr.write(`${e instanceof Error ? (e.stack ?? e.message) : String(e)}\n`);
  process.exitCode = 1;
});
