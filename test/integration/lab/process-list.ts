/**
 * The process list during an integration file, for the canary scan: process-sampler.mjs, a separate
 * process (a test blocked in execFileSync is still seen), reads every command line every 200 ms and
 * matches them against the forms of the secrets it is told; it keeps command lines in memory only
 * and answers with the matches.
 */
import { spawn, type ChildProcess } from "node:child_process";
import * as path from "node:path";
import { encodedForms, type Secret } from "./canary";

export interface ProcessHit {
  purpose: string;
  form: string;
  pid: string;
  /** The program's file name (not its command line). */
  argv0: string;
}

export interface ProcessListResult {
  /** Distinct command lines seen; -1 when the sampler did not answer. */
  commandLines: number;
  hits: ProcessHit[];
}

export class ProcessSampler {
  private readonly child: ChildProcess;
  private readonly result: Promise<ProcessListResult>;
  private sent = -1;

  constructor(intervalMs = 200) {
    this.child = spawn(process.execPath, [path.join(__dirname, "process-sampler.mjs"), String(intervalMs)], { stdio: ["ignore", "ignore", "inherit", "ipc"] });
    this.result = new Promise((resolve) => {
      this.child.on("message", (m: { type: string } & ProcessListResult) => {
        if (m.type === "result") resolve({ commandLines: m.commandLines, hits: m.hits });
      });
      this.child.on("exit", () => resolve({ commandLines: -1, hits: [] }));
    });
    // It must not keep the test's process alive.
    this.child.unref();
    (this.child.channel as { unref?: () => void } | undefined)?.unref?.();
  }

  /** What to look for: every form of every secret (again whenever one is added). */
  lookFor(secrets: Secret[]): void {
    if (!this.child.connected || secrets.length === this.sent) return;
    this.sent = secrets.length;
    this.child.send({
      type: "needles",
      needles: secrets.flatMap((s) => encodedForms(s.value).map((f) => ({ purpose: s.purpose, form: f.form, needle: f.needle }))),
    });
  }

  /** The matches of the whole run; the sampler then exits (killed after 10 s without an answer). */
  async finish(): Promise<ProcessListResult> {
    if (!this.child.connected) return { commandLines: -1, hits: [] };
    this.child.send({ type: "finish" });
    const r = await Promise.race([this.result, new Promise<ProcessListResult>((resolve) => setTimeout(() => resolve({ commandLines: -1, hits: [] }), 10_000))]);
    if (this.child.exitCode === null && this.child.signalCode === null) this.child.kill();
    return r;
  }
}
