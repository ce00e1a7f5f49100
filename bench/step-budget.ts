/**
 * Where the seconds of a Pulumi run go, from its step events (cli/event-log): before the engine
 * began (node, `nfv`'s own reads and config writes, the CLI), from there to the first step
 * (plugins, the program, the diff up to the first change), the steps grouped by resource type and
 * operation with the provider's fixed waits beside them, the time inside the run when no step was
 * running, and after the last step (snapshot, exit).
 */
import type { StepEvent } from "../cli/event-log";

/**
 * The openstack provider's fixed waits (seconds) before it first polls a step's result: the
 * `Delay` of terraform-provider-openstack v1.54.1's StateChangeConf, which pulumi-openstack v3.15.2
 * bridges: a server create or delete 10 s, a port create or delete 5 s; polls follow every 3 s at
 * least. (A server delete with `detachPortsBeforeDestroy` would first wait 5 s per port; VmVnf
 * does not set it.)
 */
const FLOORS: Record<string, number> = {
  "openstack:compute/instance:Instance create": 10,
  "openstack:compute/instance:Instance delete": 10,
  "openstack:networking/port:Port create": 5,
  "openstack:networking/port:Port delete": 5,
};

/** Steps that change nothing, or are only the engine's bookkeeping of a replacement. */
const BOOKKEEPING = new Set(["same", "read", "refresh", "replace", "discard", "discard-replaced"]);

export interface StepSpan {
  type: string;
  op: string;
  urn: string;
  start: number;
  end: number;
  failed: boolean;
}

export interface Budget {
  /** Seconds: the whole run, as the bench timed it. */
  total: number;
  /** Seconds before the engine's first prelude (the whole `before` when there is none). */
  beforeEngine: number;
  /** Seconds before the first step (beforeEngine included). */
  before: number;
  after: number;
  /** Seconds inside the run, between its first step's start and last step's end, when no changing step ran. */
  idle: number;
  steps: StepSpan[];
  unchanged: number;
  /**
   * Seconds from the engine's start (its prelude) to the stack resource's step, which the SDK
   * registers before it loads the program; and from there to the last step to begin, which in a
   * run that changes nothing is the program's imports and registrations, each diffed.
   */
  program?: { stack: number; lastStep: number };
}

/** The budget of a run timed from `start` to `end` (ms since the epoch) with these step events. */
export function stepBudget(events: StepEvent[], start: number, end: number): Budget {
  const open = new Map<string, StepEvent>();
  const steps: StepSpan[] = [];
  let unchanged = 0;
  const prelude = events.find((e) => e.kind === "prelude");
  const seconds = (ms: number) => Math.max(0, ms) / 1000;
  const beforeEngine = (until: number) => seconds(Math.min(prelude?.at ?? until, until) - start);
  // a destroy runs no program: its stack's step is a delete, the last of the run
  const stackPre = events.find((e) => e.kind === "pre" && e.type === "pulumi:pulumi:Stack" && e.op !== "delete");
  const lastPre = Math.max(...events.filter((e) => e.kind === "pre").map((e) => e.at));
  const program = stackPre ? { program: { stack: seconds(stackPre.at - (prelude?.at ?? start)), lastStep: seconds(lastPre - stackPre.at) } } : {};
  for (const e of events) {
    if (!e.urn || !e.op) continue; // the prelude and the summary
    const key = `${e.op} ${e.urn}`;
    if (e.kind === "pre") {
      open.set(key, e);
      continue;
    }
    const pre = open.get(key);
    open.delete(key);
    if (!pre) continue;
    if (e.op === "same") unchanged++;
    // left out too: steps no provider performs (the stack, components) and those of provider resources
    if (BOOKKEEPING.has(e.op) || !e.custom || e.type?.startsWith("pulumi:")) continue;
    steps.push({ type: e.type ?? "", op: e.op, urn: e.urn, start: pre.at, end: e.at, failed: e.kind === "failed" });
  }
  if (steps.length === 0)
    return { total: seconds(end - start), beforeEngine: beforeEngine(end), before: seconds(end - start), after: 0, idle: 0, steps, unchanged, ...program };
  const first = Math.min(...steps.map((s) => s.start));
  const last = Math.max(...steps.map((s) => s.end));
  // the union of the step intervals: what is not in it, between first and last, is idle
  let busy = 0;
  let reach = first;
  for (const s of [...steps].sort((a, b) => a.start - b.start)) {
    if (s.end <= reach) continue;
    busy += s.end - Math.max(s.start, reach);
    reach = s.end;
  }
  return {
    total: seconds(end - start),
    beforeEngine: beforeEngine(first),
    before: seconds(first - start),
    after: seconds(end - last),
    idle: seconds(last - first - busy),
    steps,
    unchanged,
    ...program,
  };
}

/** The operation without the replacement's qualifier: a delete-replaced is a delete. */
const baseOp = (op: string) => op.replace(/^delete-replaced$/, "delete").replace(/^create-replacement$/, "create");

/** The provider's fixed wait of one step. */
export function floorOf(type: string, op: string): number | undefined {
  return FLOORS[`${type} ${baseOp(op)}`];
}

/** The budget as lines: one for the run, one per kind of step (count, durations, the provider's floor). */
export function describeBudget(b: Budget): string[] {
  const f = (s: number) => s.toFixed(1);
  const stepped = b.total - b.before - b.after;
  const lines = [
    `${f(b.total)} s: ${f(b.beforeEngine)} s before the engine began (node, nfv's reads and config writes, CLI), ${f(b.before - b.beforeEngine)} s from there to the first step (plugins, program, diff), ${f(stepped)} s of steps (${f(b.idle)} s of it with none running), ${f(b.after)} s after the last (snapshot, exit); ${b.unchanged} resources unchanged`,
  ];
  if (b.program)
    lines.push(
      `  the stack's step began ${f(b.program.stack)} s after the engine did (plugins, the language host, node and the Pulumi SDK), the last step ${f(b.program.lastStep)} s after that (${b.steps.length === 0 ? "nothing changed: the program's imports and registrations, each diffed" : "the program's registrations, and the changes that step waited for"})`,
    );
  const groups = new Map<string, StepSpan[]>();
  for (const s of b.steps) {
    const key = `${s.type} ${s.op}`;
    if (!groups.has(key)) groups.set(key, []);
    groups.get(key)!.push(s);
  }
  for (const [key, spans] of [...groups].sort((x, y) => Math.min(...x[1].map((s) => s.start)) - Math.min(...y[1].map((s) => s.start)))) {
    const d = spans.map((s) => (s.end - s.start) / 1000);
    const floor = floorOf(spans[0].type, spans[0].op);
    const failed = spans.filter((s) => s.failed).length;
    lines.push(
      `  ${spans.length}x ${key}: ${f(Math.min(...d))}-${f(Math.max(...d))} s each` +
        (floor === undefined ? "" : `, of which the provider's fixed wait ${floor} s`) +
        (failed > 0 ? `, ${failed} failed` : ""),
    );
  }
  return lines;
}
