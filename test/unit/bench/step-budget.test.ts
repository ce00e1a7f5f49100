/** bench/step-budget: where a run's seconds go, from its step events. */
import { describe, expect, it } from "vitest";
import type { StepEvent } from "../../../cli/event-log";
import { describeBudget, floorOf, stepBudget } from "../../../bench/step-budget";

const SERVER = "openstack:compute/instance:Instance";
const PORT = "openstack:networking/port:Port";
const urn = (type: string, name: string) => `urn:pulumi:s::p::${type}::${name}`;
/** pre and outputs of one step, at seconds `from` and `to` after t0 = 1,000,000 ms. */
function step(type: string, name: string, op: string, from: number, to: number, kind: "outputs" | "failed" = "outputs"): StepEvent[] {
  const base = { urn: urn(type, name), type, op, custom: !type.startsWith("nfv:") && type !== "pulumi:pulumi:Stack" };
  return [
    { at: 1e6 + from * 1000, kind: "pre", ...base },
    { at: 1e6 + to * 1000, kind, ...base },
  ];
}

describe("stepBudget", () => {
  // a heal: the stack unchanged, the server deleted (2 s to 14 s) then created (15 s to 27 s); run ends at 30 s
  const heal = [
    { at: 1e6 + 800, kind: "prelude" as const },
    ...step("pulumi:pulumi:Stack", "s", "same", 1, 1.5),
    ...step(SERVER, "vm-0", "replace", 2, 2),
    ...step(SERVER, "vm-0", "delete-replaced", 2, 14),
    ...step(SERVER, "vm-0", "create-replacement", 15, 27),
    { at: 1e6 + 29_000, kind: "summary" as const },
  ].sort((a, b) => a.at - b.at);

  it("splits a run into before the engine, before the first step, the steps with their idle time, and after the last", () => {
    const b = stepBudget(heal, 1e6, 1e6 + 30_000);
    expect(b).toMatchObject({ total: 30, beforeEngine: 0.8, before: 2, after: 3, idle: 1, unchanged: 1, program: { stack: 0.2, lastStep: 14 } });
    expect(b.steps.map((s) => [s.op, (s.end - s.start) / 1000])).toEqual([
      ["delete-replaced", 12],
      ["create-replacement", 12],
    ]);
  });

  it("counts steps running side by side once: five ports then five servers; the stack's and components' steps are left out", () => {
    const components = [...step("pulumi:pulumi:Stack", "s", "create", 0.9, 22), ...step("nfv:vnf:VmVnf", "v", "create", 1, 22)];
    const events = [
      ...components,
      ...[0, 1, 2, 3, 4].flatMap((i) => [...step(PORT, `p${i}`, "create", 1 + i * 0.1, 6 + i * 0.1), ...step(SERVER, `vm${i}`, "create", 7, 18 + i)]),
    ];
    const b = stepBudget(events, 1e6, 1e6 + 23_000);
    expect(b.before).toBe(1);
    expect(b.after).toBe(1);
    expect(b.idle).toBeCloseTo(0.6, 5); // 6.4 s to 7 s: the servers wait for their ports
    expect(describeBudget(b)).toEqual([
      "23.0 s: 1.0 s before the engine began (node, nfv's reads and config writes, CLI), 0.0 s from there to the first step (plugins, program, diff), 21.0 s of steps (0.6 s of it with none running), 1.0 s after the last (snapshot, exit); 0 resources unchanged",
      "  the stack's step began 0.9 s after the engine did (plugins, the language host, node and the Pulumi SDK), the last step 6.1 s after that (the program's registrations, and the changes that step waited for)",
      `  5x ${PORT} create: 5.0-5.0 s each, of which the provider's fixed wait 5 s`,
      `  5x ${SERVER} create: 11.0-15.0 s each, of which the provider's fixed wait 10 s`,
    ]);
  });

  it("names failed steps, and a run without steps is all before", () => {
    const b = stepBudget(step(SERVER, "vm-0", "create", 3, 9, "failed"), 1e6, 1e6 + 10_000);
    expect(describeBudget(b)[1]).toBe(`  1x ${SERVER} create: 6.0-6.0 s each, of which the provider's fixed wait 10 s, 1 failed`);
    const unchanged = stepBudget(step("pulumi:pulumi:Stack", "s", "same", 1, 2), 1e6, 1e6 + 5_000);
    expect(unchanged).toMatchObject({ total: 5, beforeEngine: 5, before: 5, after: 0, unchanged: 1, program: { stack: 1, lastStep: 0 } });
    expect(describeBudget(unchanged)[1]).toMatch(/\(nothing changed: the program's imports and registrations, each diffed\)$/);
    expect(stepBudget(step(SERVER, "vm-0", "create", 3, 9), 1e6, 1e6 + 10_000).program).toBeUndefined();
    const destroy = [...step(SERVER, "vm-0", "delete", 1, 9), ...step("pulumi:pulumi:Stack", "s", "delete", 9.5, 9.6)];
    expect(stepBudget(destroy, 1e6, 1e6 + 10_000).program).toBeUndefined();
  });
});

describe("floorOf", () => {
  it("is the provider's Delay: 10 s a server, 5 s a port, none for others", () => {
    expect(floorOf(SERVER, "create-replacement")).toBe(10);
    expect(floorOf(SERVER, "delete-replaced")).toBe(10);
    expect(floorOf(PORT, "delete")).toBe(5);
    expect(floorOf("command:remote:Command", "create")).toBeUndefined();
  });
});
