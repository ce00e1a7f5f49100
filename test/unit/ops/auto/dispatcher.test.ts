import { describe, expect, it } from "vitest";
import type { ReceivedAlert } from "../../../../ops/auto/alerts";
import { AutoDispatcher, type AutoOperation, type VnfPolicies } from "../../../../ops/auto/dispatcher";

const POLICIES: VnfPolicies[] = [
  {
    name: "rb",
    vnfInstanceId: "0c5b3f3e-1111-4a4a-9d9d-222233334444",
    autoHeal: { coolDownSeconds: 60 },
    autoScale: { coolDownSeconds: 60, aspects: ["worker_aspect"] },
  },
  { name: "plain", vnfInstanceId: "plain-id" },
];
const heal = (key: string, vnfc: string, vnf = "rb"): ReceivedAlert => ({ key, name: "VnfcDown", action: { kind: "heal", vnf, vnfc } });
const scale = (key: string, aspect = "worker_aspect", vnf = "rb"): ReceivedAlert => ({
  key,
  name: "Load",
  action: { kind: "scale", vnf, aspect, type: "out" },
});

/** A dispatcher whose operations end when the test says, on a clock the test moves. */
function harness() {
  const clock = { now: 0 };
  const started: AutoOperation[] = [];
  const finish: (() => void)[] = [];
  const d = new AutoDispatcher(
    (op) =>
      new Promise((resolve) => {
        started.push({ ...op, vnfcs: [...op.vnfcs] });
        finish.push(() => resolve({ exitCode: 0, output: `did ${op.kind}` }));
      }),
    () => clock.now,
  );
  const tick = () => new Promise((r) => setImmediate(r));
  return { d, clock, started, finish, tick };
}

describe("nfv serve's dispatcher: one operation at a time, each alert once, cool-down", () => {
  it("runs the first alert at once and queues the next; an alert sent again is a duplicate of its operation", async () => {
    const { d, started, finish, tick } = harness();
    expect(d.submit([heal("a@1", "worker-0")], POLICIES).map((o) => [o.outcome, o.operation])).toEqual([["queued", 1]]);
    await tick();
    expect(started.map((o) => [o.id, o.kind, o.vnfcs])).toEqual([[1, "heal", ["worker-0"]]]);
    expect(d.submit([scale("b@1"), heal("a@1", "worker-0")], POLICIES).map((o) => [o.outcome, o.operation])).toEqual([
      ["queued", 2],
      ["duplicate", 1],
    ]);
    await tick();
    expect(started).toHaveLength(1); // the scale waits for the heal
    finish[0]();
    await tick();
    expect(started.map((o) => o.kind)).toEqual(["heal", "scale"]);
    finish[1]();
    await d.idle();
    expect(d.operations().map((o) => [o.id, o.state, o.output])).toEqual([
      [1, "succeeded", "did heal"],
      [2, "succeeded", "did scale"],
    ]);
  });

  it("heal alerts for other VNFCs of a heal still queued join it; a scale alert for the same aspect joins without another step", async () => {
    const { d, started, finish, tick } = harness();
    d.submit([scale("s@1")], POLICIES); // running
    await tick();
    const out = d.submit([heal("h@1", "worker-1"), heal("h@2", "worker-2"), heal("h@3", "worker-1"), scale("s@2"), scale("s@3")], POLICIES);
    expect(out.map((o) => [o.outcome, o.operation])).toEqual([
      ["queued", 2],
      ["joined", 2],
      ["joined", 2],
      ["queued", 3],
      ["joined", 3],
    ]);
    finish[0]();
    await tick();
    expect(started[1].vnfcs).toEqual(["worker-1", "worker-2"]);
    expect(d.operations()[1].alerts).toEqual(["h@1", "h@2", "h@3"]);
  });

  it("after an operation its VNFC (or aspect) cools down: a new alert for it is dropped until the cool-down ends; others run", async () => {
    const { d, clock, started, finish, tick } = harness();
    d.submit([heal("a@1", "worker-0")], POLICIES);
    await tick();
    clock.now = 10_000;
    finish[0]();
    await d.idle();
    clock.now = 69_000;
    expect(d.submit([heal("a@2", "worker-0"), heal("c@1", "worker-1")], POLICIES).map((o) => o.outcome)).toEqual(["cooling-down", "queued"]);
    await tick();
    finish[1]();
    await d.idle();
    clock.now = 70_001;
    expect(d.submit([heal("a@3", "worker-0")], POLICIES).map((o) => o.outcome)).toEqual(["queued"]);
    await tick();
    expect(started.map((o) => o.vnfcs)).toEqual([["worker-0"], ["worker-1"], ["worker-0"]]);
  });

  it("a heal queued while its VNFCs were being healed runs for the others only, or is dropped, saying why", async () => {
    const { d, started, finish, tick } = harness();
    d.submit([heal("a@1", "worker-0")], POLICIES);
    await tick();
    // Another alert for worker-0 (a new start: Alertmanager fired it again) while its heal runs.
    d.submit([heal("a@2", "worker-0"), heal("b@1", "worker-1")], POLICIES);
    finish[0]();
    await tick();
    expect(started.map((o) => o.vnfcs)).toEqual([["worker-0"], ["worker-1"]]);
    d.submit([heal("a@3", "worker-2")], POLICIES); // queued behind worker-1's heal
    d.submit([heal("c@1", "worker-1")], POLICIES); // joins it: worker-1 is healed meanwhile
    finish[1]();
    await tick();
    expect(started.map((o) => o.vnfcs)).toEqual([["worker-0"], ["worker-1"], ["worker-2"]]);
    finish[2]();
    await d.idle();
    d.submit([heal("a@4", "worker-3")], POLICIES);
    await tick();
    d.submit([heal("a@5", "worker-3")], POLICIES);
    finish[3]();
    await d.idle();
    expect(started).toHaveLength(4);
    expect(d.operations().map((o) => [o.state, o.reason])).toEqual([
      ["succeeded", undefined],
      ["succeeded", undefined],
      ["succeeded", undefined],
      ["succeeded", undefined],
      ["dropped", "cooling down: worker-3"],
    ]);
  });

  it("refuses, with a code: an unknown VNF, a VNF without the policy, an aspect the policy does not list; takes a VNF by its instance id", () => {
    const { d } = harness();
    const out = d.submit(
      [
        heal("x@1", "worker-0", "nope"),
        heal("x@2", "worker-0", "plain"),
        scale("x@3", "other_aspect"),
        { key: "x@4", name: "Bad", problem: { code: "SERVE_BAD_ALERT", message: "labels.vnf_instance_id is required" } },
        { key: "x@5", name: "Old", ignored: "status resolved" },
        heal("x@6", "worker-0", "0c5b3f3e-1111-4a4a-9d9d-222233334444"),
      ],
      POLICIES,
    );
    expect(out.map((o) => [o.outcome, o.code ?? o.message])).toEqual([
      ["refused", "SERVE_NO_POLICY"],
      ["refused", "SERVE_NO_POLICY"],
      ["refused", "SERVE_ASPECT_NOT_ALLOWED"],
      ["refused", "SERVE_BAD_ALERT"],
      ["ignored", "status resolved"],
      ["queued", undefined],
    ]);
    expect(out[1].message).toBe("VNF 'plain' has no auto_heal in the stack config: its heal alerts are not acted on");
    expect(d.operations()[0].vnf).toBe("rb");
  });
});
