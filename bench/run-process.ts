/** A process run to its end for the benchmarks, without blocking this one (its timers and samplers keep running). */
import { spawn } from "node:child_process";

export interface ProcessRun {
  status: number | null;
  /** Its stdout, then its stderr. */
  output: string;
  /** `performance.now()` when its first stdout bytes came (undefined: none came). */
  firstOutput?: number;
  /** `performance.now()` when it had exited and its output was closed. */
  end: number;
}

/** Runs `file` with `args` (environment: `env`, else this process's). */
export function runProcess(file: string, args: string[], env?: NodeJS.ProcessEnv): Promise<ProcessRun> {
  return new Promise((done, failed) => {
    const child = spawn(file, args, { env, stdio: ["ignore", "pipe", "pipe"] });
    const out: Buffer[] = [];
    const err: Buffer[] = [];
    let firstOutput: number | undefined;
    child.stdout.on("data", (b: Buffer) => {
      firstOutput ??= performance.now();
      out.push(b);
    });
    child.stderr.on("data", (b: Buffer) => err.push(b));
    child.on("error", failed);
    child.on("close", (status) => done({ status, output: Buffer.concat([...out, ...err]).toString("utf8"), firstOutput, end: performance.now() }));
  });
}
