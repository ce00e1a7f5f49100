/**
 * `--event-log FILE` of the operations (`nfv heal`, `scale`, …): when each resource step of the
 * run began and ended, as JSON lines, to see where a run's seconds go (bench:openstack reads it).
 * Only names and times: an engine event also carries a resource's inputs and outputs, and those
 * may hold secrets, so no property value is written.
 */
import { appendFileSync, readFileSync, writeFileSync } from "node:fs";
import type { EngineEvent } from "@pulumi/pulumi/automation";

/**
 * One line of the file. `at`: milliseconds since the epoch when this process got the event;
 * `prelude`: the engine began the update (each `up` of the run has one), `summary`: it ended.
 */
export interface StepEvent {
  at: number;
  kind: "prelude" | "pre" | "outputs" | "failed" | "summary";
  urn?: string;
  type?: string;
  op?: string;
  /** Whether a provider performs the step (a component's step is only the engine's bookkeeping). */
  custom?: boolean;
}

/** The step fields of an engine event, or undefined for events that are not about a step. */
export function stepEvent(e: EngineEvent, at: number): StepEvent | undefined {
  const step = e.resourcePreEvent ?? e.resOutputsEvent ?? e.resOpFailedEvent;
  if (step) {
    const kind = e.resourcePreEvent ? "pre" : e.resOutputsEvent ? "outputs" : "failed";
    return { at, kind, urn: step.metadata.urn, type: step.metadata.type, op: step.metadata.op, custom: step.metadata.provider !== "" };
  }
  if (e.preludeEvent) return { at, kind: "prelude" };
  return e.summaryEvent ? { at, kind: "summary" } : undefined;
}

/** An `onEvent` of an update (ops/pulumi-stack.ts) writing the step events to `file` (emptied first); undefined without a file. */
export function stepEventLogger(file: string | undefined): ((e: EngineEvent) => void) | undefined {
  if (file === undefined) return undefined;
  writeFileSync(file, "");
  return (e) => {
    const step = stepEvent(e, Date.now());
    if (step) appendFileSync(file, JSON.stringify(step) + "\n");
  };
}

/** The lines of a file that `stepEventLogger` wrote. */
export function readStepEvents(file: string): StepEvent[] {
  return readFileSync(file, "utf8")
    .split("\n")
    .filter(Boolean)
    .map((l) => JSON.parse(l) as StepEvent);
}

/** The usage line of the option, shared by the operations' help. */
export const EVENT_LOG_USAGE = "  --event-log FILE  when each resource step began and ended, as JSON lines (names and times only)";
