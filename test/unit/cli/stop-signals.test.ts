/**
 * StopSignals while a pulumi command runs (a fake `pulumi` that waits, run as nfv runs it), as in
 * `nfv serve` during an operation: the SIGTERMs this process sends itself must reach StopSignals and
 * leave the process (this test's worker) and its pulumi child running.
 */
import { existsSync, readFileSync } from "node:fs";
import * as path from "node:path";
import { afterEach, describe, expect, it, vi } from "vitest";
import { PulumiStack } from "../../../ops/pulumi-stack";
import { StopSignals } from "../../../cli/stop-signals";
import { fakePulumi } from "../helpers/fake-pulumi";

let fake: ReturnType<typeof fakePulumi> | undefined;
let signals: StopSignals | undefined;
/** The fake pulumi's pid, once it runs. */
const fakePid = () => (fake && existsSync(path.join(fake.dir, "pid")) ? Number(readFileSync(path.join(fake.dir, "pid"), "utf8")) : undefined);
afterEach(() => {
  signals?.dispose();
  signals = undefined;
  const pid = fakePid();
  if (pid !== undefined) {
    try {
      process.kill(pid, "SIGKILL");
    } catch {
      // already gone
    }
  }
  fake?.restore();
  fake = undefined;
});

describe("StopSignals", () => {
  it("a SIGTERM while a pulumi command runs: the first resolves, a second is reported, the process lives on", async () => {
    fake = fakePulumi(`echo $$ > "$FAKE/pid"\nexec sleep 30`);
    const stack = new PulumiStack("dev", fake.dir, {}, fake.dir);
    const repeats: string[] = [];
    signals = new StopSignals((s) => repeats.push(s));
    const running = stack.getAllConfig().catch(() => "ended");
    await vi.waitFor(() => expect(fakePid()).toBeDefined(), { timeout: 5_000 });

    process.kill(process.pid, "SIGTERM");
    expect(await signals.first).toBe("SIGTERM");
    process.kill(process.pid, "SIGINT");
    await vi.waitFor(() => expect(repeats).toEqual(["SIGINT"]), { timeout: 5_000 });
    // The pulumi command was left to run: no default signal action took the process down with it.
    expect(() => process.kill(fakePid()!, 0)).not.toThrow();
    process.kill(fakePid()!, "SIGKILL");
    expect(await running).toBe("ended");
  });

  it("dispose removes its listeners", () => {
    const counts = () => [process.listenerCount("SIGTERM"), process.listenerCount("SIGINT")];
    const before = counts();
    const s = new StopSignals(() => undefined);
    expect(counts()).toEqual(before.map((n) => n + 1));
    s.dispose();
    expect(counts()).toEqual(before);
  });
});
