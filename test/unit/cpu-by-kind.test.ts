/**
 * test/tools/cpu-by-kind.py, test/run-all's record of where the run's CPU went: a busy process and
 * the short-lived children of a shell each counted in their kind, the machine's total beside them,
 * and the summary of the lines.
 */
import { execFileSync, spawn } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, expect, it } from "vitest";

const dir = mkdtempSync(join(tmpdir(), "cpu-by-kind-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

it("counts a busy python and a shell's short-lived busy children in their kinds, next to the machine's busy time", async () => {
  const file = join(dir, "cpu.jsonl");
  const recorder = spawn("python3", ["test/tools/cpu-by-kind.py", "record", file, "1"], { stdio: "ignore" });
  // 1.5 s of CPU in one python; a shell running ten awk loops of about 0.1 s each, each gone within
  // the second; both then wait long enough to be seen with all of it.
  const busy = spawn("python3", ["-c", "import time\nt=time.process_time()\nwhile time.process_time()-t<1.5: pass\ntime.sleep(3)"]);
  const shell = spawn("sh", ["-c", "for i in 1 2 3 4 5 6 7 8 9 10; do awk 'BEGIN{for(i=0;i<3000000;i++)s+=i}'; done; sleep 3"]);
  await Promise.all([busy, shell].map((p) => new Promise((r) => p.on("exit", r))));
  recorder.kill();
  const lines = readFileSync(file, "utf8")
    .trim()
    .split("\n")
    .map((l) => JSON.parse(l) as { t: string; machine: number; kinds: Record<string, number> });
  const sum = (kind: string) => lines.reduce((n, l) => n + (l.kinds[kind] ?? 0), 0);
  expect(sum("python")).toBeGreaterThan(1.2);
  // awk is no kind of its own: its CPU, reaped by the shell, is the shell's.
  expect(sum("shell")).toBeGreaterThan(0.3);
  expect(lines.reduce((n, l) => n + l.machine, 0)).toBeGreaterThan(sum("python"));
  const summary = execFileSync("python3", ["test/tools/cpu-by-kind.py", "summary", file], { encoding: "utf8" });
  expect(summary).toMatch(/^cpu by kind, \d\d:\d\d:\d\d-\d\d:\d\d:\d\d: the machine busy /);
  expect(summary).toMatch(/^ {2}python +\d+\.\d cpu-min/m);
}, 30_000);
