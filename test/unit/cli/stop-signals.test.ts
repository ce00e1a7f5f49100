/**
 * StopSignals with the Automation API running a pulumi command (a fake `pulumi` that waits), as in
 * `nfv serve` during an operation: the SIGTERM this process sends itself must reach StopSignals and
 * leave the process (this test's worker) running. With `process.once` listeners, the signal-exit
 * listener that the Automation API's execa loads re-raised the signal and the worker died.
 */
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import * as path from "node:path";
import { LocalWorkspace, PulumiCommand } from "@pulumi/pulumi/automation";
import { afterEach, describe, expect, it } from "vitest";
import { StopSignals } from "../../../cli/stop-signals";

let dir = "";
let signals: StopSignals | undefined;
afterEach(() => {
  signals?.dispose();
  if (existsSync(path.join(dir, "pid"))) {
    try {
      process.kill(Number(readFileSync(path.join(dir, "pid"), "utf8")), "SIGKILL");
    } catch {
      // already gone
    }
  }
  rmSync(dir, { recursive: true, force: true });
});

const until = async (what: string, check: () => boolean) => {
  for (let i = 0; i < 100 && !check(); i++) await new Promise((r) => setTimeout(r, 50));
  if (!check()) throw new Error(`not seen in 5 s: ${what}`);
};

describe("StopSignals", () => {
  it("a SIGTERM while a pulumi command runs: the first resolves, a second is reported, the process lives on", async () => {
    dir = mkdtempSync(path.join(tmpdir(), "nfv-stop-signals-"));
    const fake = path.join(dir, "bin/pulumi");
    writeFileSync(path.join(dir, "Pulumi.yaml"), "name: p\nruntime: nodejs\n");
    mkdirSync(path.dirname(fake));
    writeFileSync(fake, `#!/bin/sh\n[ "$1" = version ] && { echo v3.200.0; exit 0; }\necho $$ > "${dir}/pid"\nexec sleep 30\n`);
    chmodSync(fake, 0o755);
    const pulumiCommand = await PulumiCommand.get({ root: dir, skipVersionCheck: true });
    const ws = await LocalWorkspace.create({ workDir: dir, pulumiCommand });
    const repeats: string[] = [];
    signals = new StopSignals((s) => repeats.push(s));
    const running = ws.whoAmI().catch(() => "ended");
    await until("the fake pulumi running", () => existsSync(path.join(dir, "pid")));

    process.kill(process.pid, "SIGTERM");
    expect(await signals.first).toBe("SIGTERM");
    process.kill(process.pid, "SIGINT");
    await until("the second signal reported", () => repeats.length === 1);
    expect(repeats).toEqual(["SIGINT"]);
    // The pulumi command was left to run: signal-exit did not take the process down with it.
    expect(() => process.kill(Number(readFileSync(path.join(dir, "pid"), "utf8")), 0)).not.toThrow();
    process.kill(Number(readFileSync(path.join(dir, "pid"), "utf8")), "SIGKILL");
    expect(await running).toBe("ended");
  });

  it("dispose removes its listeners", () => {
    dir = mkdtempSync(path.join(tmpdir(), "nfv-stop-signals-"));
    const counts = () => [process.listenerCount("SIGTERM"), process.listenerCount("SIGINT")];
    const before = counts();
    const s = new StopSignals(() => undefined);
    expect(counts()).toEqual(before.map((n) => n + 1));
    s.dispose();
    expect(counts()).toEqual(before);
  });
});
