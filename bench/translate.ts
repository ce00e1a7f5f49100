/**
 * `npm run bench:translate`: our translator against tosca-parser 2.6.0 on synthetic SOL001
 * packages from ../shared/bench/gen_vnfd.py (N VDUs, 2N CPs, N/4 VLs, N aspects).
 *
 * For each N it times: our translate in-process (median after warm-up), a whole
 * `nfv translate --format json` process (median), and tosca-parser parsing the same flavour file
 * (one run, import excluded, as in ../shared/peers/tosca-parser/README.md). Peak memory is the
 * maximum RSS of a fresh process translating the largest package.
 *
 * Each time is given as wall clock and as CPU time (user + system). On a shared machine the wall
 * clock includes waiting for a core; CPU time does not, so its ratio is the fairer comparison
 * when the load average is above the number of cores (printed with the table).
 */
import { execFileSync, spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, statSync } from "node:fs";
import { cpus, loadavg, tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { translatePackage } from "../translators/tosca/translate";

const SIZES = [10, 100, 500, 1000];
const REPO = resolve(__dirname, "../..");
const GENERATOR = resolve(REPO, "../shared/bench/gen_vnfd.py");
const ETSI_TYPES = resolve(REPO, "../shared/vnf-packages/etsi-sol001-2.6.1");
const CLI = resolve(__dirname, "../cli/nfv.js");
const PYTHON = "/usr/bin/python3"; // Debian's interpreter, where python3-tosca-parser lives

/** tosca-parser's YAML loader uses urllib.error without importing it (see the peer README). */
const TOSCA_PARSER_HARNESS = `
import sys, time, urllib.error
from toscaparser.tosca_template import ToscaTemplate
t, c = time.perf_counter(), time.process_time()
ToscaTemplate(sys.argv[1], None, True)
print(time.perf_counter() - t, time.process_time() - c)
`;

/** Wall-clock and CPU milliseconds; `bestCpu` is the fastest run, the least disturbed by other load. */
interface Timing {
  wall: number;
  cpu: number;
  bestCpu?: number;
}

function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)];
}

function medianTiming(ts: Timing[]): Timing {
  return { wall: median(ts.map((t) => t.wall)), cpu: median(ts.map((t) => t.cpu)) };
}

async function inProcess(dir: string, runs: number): Promise<Timing> {
  for (let i = 0; i < 2; i++) await translatePackage(dir); // warm-up: JIT and file cache
  const times: Timing[] = [];
  for (let i = 0; i < runs; i++) {
    const t = performance.now();
    const c = process.cpuUsage();
    const result = await translatePackage(dir);
    const used = process.cpuUsage(c);
    times.push({ wall: performance.now() - t, cpu: (used.user + used.system) / 1000 });
    if (!result.model) throw new Error(`${dir}: ${JSON.stringify(result.diagnostics.slice(0, 3))}`);
  }
  return { ...medianTiming(times), bestCpu: Math.min(...times.map((t) => t.cpu)) };
}

/** A whole `nfv translate` process, timed by GNU time for its CPU use (NaN without GNU time). */
function wholeProcess(dir: string, runs: number): Timing {
  const gnuTime = existsSync("/usr/bin/time");
  const args = [CLI, "translate", dir, "--format", "json"];
  const times: Timing[] = [];
  for (let i = 0; i < runs; i++) {
    const t = performance.now();
    const r = gnuTime
      ? spawnSync("/usr/bin/time", ["-f", "%U %S", process.execPath, ...args], { encoding: "utf8", stdio: ["ignore", "ignore", "pipe"] })
      : spawnSync(process.execPath, args, { encoding: "utf8", stdio: ["ignore", "ignore", "pipe"] });
    const wall = performance.now() - t;
    if (r.status !== 0) throw new Error(`nfv translate ${dir} exited ${r.status}: ${r.stderr}`);
    const [user, sys] = gnuTime ? r.stderr.trim().split("\n").pop()!.split(" ").map(Number) : [NaN, NaN];
    times.push({ wall, cpu: (user + sys) * 1000 });
  }
  return medianTiming(times);
}

function toscaParser(file: string): Timing | undefined {
  const r = spawnSync(PYTHON, ["-c", TOSCA_PARSER_HARNESS, file], { encoding: "utf8" });
  if (r.status !== 0) {
    process.stderr.write(`tosca-parser failed on ${file}: ${r.stderr.split("\n").slice(-3).join(" ")}\n`);
    return undefined;
  }
  const [wall, cpu] = r.stdout.trim().split(" ").map(Number);
  return { wall: wall * 1000, cpu: cpu * 1000 };
}

/** Maximum RSS (MB) of a fresh process that translates `dir` once. */
function peakMemoryMb(dir: string): number {
  const r = spawnSync(process.execPath, [__filename, "--peak", dir], { encoding: "utf8" });
  return Number(r.stdout.trim());
}

async function main(): Promise<void> {
  if (process.argv[2] === "--peak") {
    await translatePackage(process.argv[3]);
    process.stdout.write(`${(process.resourceUsage().maxRSS / 1024).toFixed(0)}\n`);
    return;
  }
  const work = mkdtempSync(join(tmpdir(), "nfv-bench-"));
  const rows: string[][] = [];
  let peak = 0;
  for (const n of SIZES) {
    const dir = join(work, `n${n}`);
    execFileSync(PYTHON, [GENERATOR, String(n), dir, ETSI_TYPES], { stdio: "ignore" });
    const file = join(dir, "Definitions/bench_df.yaml");
    const ours = await inProcess(dir, n >= 500 ? 5 : 10);
    const proc = wholeProcess(dir, 3);
    const peer = existsSync(PYTHON) ? toscaParser(file) : undefined;
    if (n === SIZES[SIZES.length - 1]) peak = peakMemoryMb(dir);
    const pair = (t: Timing) => `${t.wall.toFixed(0)} / ${t.cpu.toFixed(0)}`;
    const ratio = (t: Timing) => (peer === undefined ? "n/a" : `${(peer.wall / t.wall).toFixed(1)}x / ${(peer.cpu / t.cpu).toFixed(1)}x`);
    rows.push([
      String(n),
      (statSync(file).size / 1024).toFixed(0),
      pair(ours),
      ours.bestCpu!.toFixed(0),
      ((ours.cpu * 1000) / n).toFixed(0),
      pair(proc),
      peer === undefined ? "n/a" : pair(peer),
      ratio(ours),
      ratio(proc),
    ]);
  }
  const header = [
    "N VDUs",
    "VNFD KiB",
    "ours in-process ms wall / CPU",
    "best CPU ms",
    "CPU µs/VDU",
    "`nfv translate` process ms wall / CPU",
    "tosca-parser ms wall / CPU",
    "speed-up in-process wall / CPU",
    "speed-up process wall / CPU",
  ];
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i].length)));
  const line = (cells: string[]) => "| " + cells.map((c, i) => c.padStart(widths[i])).join(" | ") + " |";
  process.stdout.write([line(header), "|" + widths.map((w) => "-".repeat(w + 2)).join("|") + "|", ...rows.map(line)].join("\n") + "\n");
  process.stdout.write(`peak memory, fresh process translating N=${SIZES[SIZES.length - 1]}: ${peak} MB\n`);
  process.stdout.write(
    `load average at the end ${loadavg()
      .map((l) => l.toFixed(1))
      .join(" ")} on ${cpus().length} cores\n`,
  );
  process.stdout.write(`packages in ${work}\n`);
}

main().catch((e: unknown) => {
  process.stderr.write(`${e instanceof Error ? (e.stack ?? e.message) : String(e)}\n`);
  process.exitCode = 1;
});
