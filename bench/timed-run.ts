/**
 * A Pulumi run of a benchmark, timed: where its seconds went (bench/step-budget, from its step
 * events) and its processes' peak memory by role (bench/process-memory). Shared by
 * `bench:openstack` and `bench:cnf`, so that every row either loses says where its time went.
 */
import { join, resolve } from "node:path";
import type { EngineEvent } from "@pulumi/pulumi/automation";
import { readStepEvents, stepEvent, type StepEvent } from "../cli/event-log";
import { REPO, type BenchStack } from "./bench-stack";
import { describeMemory, PulumiMemorySampler } from "./process-memory";
import { runProcess } from "./run-process";
import { describeBudget, stepBudget } from "./step-budget";

const NFV_CLI = resolve(__dirname, "../cli/nfv.js"); // built with the bench (.bench-build)

export interface Timed {
  seconds: number;
  /** Where the seconds went: one line for the run, one per kind of step. */
  budget: string[];
  /** Peak memory of the run's processes by role. */
  memory?: string;
}

/** Runs `run` while sampling its processes' memory; when it began and ended. */
async function sampled<T>(run: () => Promise<T>): Promise<{ start: number; end: number; memory: string; result: T }> {
  const memory = new PulumiMemorySampler();
  memory.start();
  try {
    const start = Date.now();
    const result = await run();
    return { start, end: Date.now(), memory: describeMemory(memory.peaks()), result };
  } finally {
    memory.stop();
  }
}

/** Times `run`, given an `onEvent` collecting its step events, and samples its processes' memory; with what it returned. */
export async function budgeted<T>(run: (onEvent: (e: EngineEvent) => void) => Promise<T>): Promise<Timed & { result: T }> {
  const events: StepEvent[] = [];
  const s = await sampled(() =>
    run((e) => {
      const step = stepEvent(e, Date.now());
      if (step) events.push(step);
    }),
  );
  return { seconds: (s.end - s.start) / 1000, budget: describeBudget(stepBudget(events, s.start, s.end)), memory: s.memory, result: s.result };
}

/**
 * `nfv <operation> … --stack <the bench's stack>` as an operator runs it, in its own process (the
 * bench's build): timed, its step events from its `--event-log` (written in `work`), its
 * processes' memory sampled.
 */
export async function nfvRun(p: BenchStack, operation: string, args: string[], work: string): Promise<Timed> {
  const eventLog = join(work, `${operation}-${p.name}-${Date.now()}.jsonl`);
  const argv = [NFV_CLI, operation, "--stack", p.name, ...args, "--event-log", eventLog, "--cwd", REPO];
  const s = await sampled(() => runProcess(process.execPath, argv, { ...process.env, ...p.env }));
  if (s.result.status !== 0) throw new Error(`nfv ${operation} exited ${s.result.status}: ${s.result.output.slice(-1500)}`);
  return { seconds: (s.end - s.start) / 1000, budget: describeBudget(stepBudget(readStepEvents(eventLog), s.start, s.end)), memory: s.memory };
}
