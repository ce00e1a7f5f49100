/** `--event-log`: step names and times of a run, never a property value; a change of package's steps in one file. */
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import * as path from "node:path";
import type { EngineEvent } from "@pulumi/pulumi/automation";
import { afterAll, describe, expect, it } from "vitest";
import { fakeStack } from "../helpers/fake-stack";
import { readStepEvents, stepEvent } from "../../../cli/event-log";
import { runSteps } from "../../../cli/run-operation";

const dir = mkdtempSync(path.join(tmpdir(), "event-log-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const URN = "urn:pulumi:dev::nfv::openstack:compute/instance:Instance::hw-VDU1-0";
/** An engine event of a step whose inputs and outputs hold a secret, as the engine sends them. */
function stepOf(kind: "resourcePreEvent" | "resOutputsEvent" | "resOpFailedEvent", sequence: number): EngineEvent {
  const state = { urn: URN, type: "openstack:compute/instance:Instance", inputs: { adminPass: "canary-s3cret" }, outputs: { adminPass: "canary-s3cret" } };
  const metadata = {
    op: "create-replacement",
    urn: URN,
    type: "openstack:compute/instance:Instance",
    old: state,
    new: state,
    provider: "urn:pulumi:dev::nfv::pulumi:providers:openstack::default::id",
  };
  return { sequence, timestamp: 1, [kind]: kind === "resOpFailedEvent" ? { metadata, status: 1, steps: 1 } : { metadata } } as unknown as EngineEvent;
}

describe("stepEvent", () => {
  it("keeps a step's kind, URN, type, operation, whether a provider performs it, and the time it was got; nothing of its properties", () => {
    expect(stepEvent(stepOf("resourcePreEvent", 1), 1000)).toEqual({
      at: 1000,
      kind: "pre",
      urn: URN,
      type: "openstack:compute/instance:Instance",
      op: "create-replacement",
      custom: true,
    });
    // a component's step: no provider performs it
    const component = { ...stepOf("resourcePreEvent", 4).resourcePreEvent!.metadata, type: "nfv:vnf:VmVnf", provider: "" };
    expect(stepEvent({ sequence: 4, timestamp: 1, resourcePreEvent: { metadata: component } } as EngineEvent, 4)?.custom).toBe(false);
    expect(stepEvent(stepOf("resOutputsEvent", 2), 2000)?.kind).toBe("outputs");
    expect(stepEvent(stepOf("resOpFailedEvent", 3), 3000)?.kind).toBe("failed");
    expect(JSON.stringify([1, 2, 3].map((i) => stepEvent(stepOf("resourcePreEvent", i), i)))).not.toContain("canary");
  });

  it("keeps the prelude and the summary, and drops events that are not about a step (diagnostics, stdout)", () => {
    expect(stepEvent({ sequence: 0, timestamp: 1, preludeEvent: { config: { "pulumi-nfv:password": "canary-s3cret" } } } as unknown as EngineEvent, 4)).toEqual(
      { at: 4, kind: "prelude" },
    );
    expect(stepEvent({ sequence: 9, timestamp: 1, summaryEvent: {} } as unknown as EngineEvent, 5)).toEqual({ at: 5, kind: "summary" });
    expect(
      stepEvent({ sequence: 1, timestamp: 1, diagnosticEvent: { message: "canary-s3cret", color: "never", severity: "info" } } as unknown as EngineEvent, 5),
    ).toBeUndefined();
    expect(stepEvent({ sequence: 1, timestamp: 1, stdoutEvent: { message: "x", color: "never" } } as unknown as EngineEvent, 5)).toBeUndefined();
  });
});

describe("runSteps with an event log", () => {
  it("writes every step's up into one file, emptied first; a preview writes none", async () => {
    const file = path.join(dir, "events.jsonl");
    const { stack } = fakeStack({ "pulumi-nfv:vnfs": { hw: {} } });
    let n = 0;
    (stack as unknown as { up: (o: { onEvent?: (e: EngineEvent) => void }) => Promise<unknown> }).up = async (o) => {
      o.onEvent?.(stepOf("resourcePreEvent", ++n));
      o.onEvent?.(stepOf("resOutputsEvent", ++n));
      return { summary: { result: "succeeded" } };
    };
    const step = { vnf: "hw", configChanges: [], replace: [URN], podDeletions: [], summary: [] };
    const io = { out: () => undefined, err: () => undefined };
    for (let run = 0; run < 2; run++) expect(await runSteps(stack, [step, step], false, "change-vnfpkg", io, file)).toBe(0);
    expect(readStepEvents(file).map((e) => e.kind)).toEqual(["pre", "outputs", "pre", "outputs"]);
    expect(readFileSync(file, "utf8")).not.toContain("canary");
    const previewed = path.join(dir, "preview.jsonl");
    (stack as unknown as { preview: () => Promise<unknown> }).preview = async () => ({ stdout: "" });
    await runSteps(stack, [step], true, "change-vnfpkg", io, previewed);
    expect(() => readFileSync(previewed)).toThrow(/ENOENT/);
  });
});
