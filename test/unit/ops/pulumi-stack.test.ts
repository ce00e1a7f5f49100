/**
 * `PulumiStack`, nfv's own client of the pulumi CLI, against a fake `pulumi` on PATH that records
 * its arguments: what each call runs, the engine events followed while an update runs, an
 * update's output in files rather than a pipe, and a failed run's transcript.
 */
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import * as path from "node:path";
import type { EngineEvent } from "@pulumi/pulumi/automation";
import { afterEach, describe, expect, it } from "vitest";
import { PulumiCommandError, PulumiStack } from "../../../ops/pulumi-stack";
import { fakePulumi } from "../helpers/fake-pulumi";

let fake: ReturnType<typeof fakePulumi> | undefined;
afterEach(() => {
  fake?.restore();
  fake = undefined;
});

/** A stack whose pulumi is a fake with `body`, which first appends its arguments, one call a line, to `$FAKE/calls`. */
function stackWith(body: string): { stack: PulumiStack; calls: () => string[]; dir: string } {
  fake = fakePulumi(`echo "$*" >> "$FAKE/calls"\n${body}`);
  const dir = fake.dir;
  return {
    stack: new PulumiStack("dev", dir, { NFV_MARK: "given" }, dir),
    calls: () => (existsSync(path.join(dir, "calls")) ? readFileSync(path.join(dir, "calls"), "utf8").trim().split("\n") : []),
    dir,
  };
}

describe("PulumiStack", () => {
  it("runs one CLI call each, with --stack: config read, set-all of plain values, rm-all, outputs", async () => {
    const { stack, calls } = stackWith(`case "$1 $2" in
  "config --show-secrets") echo '{"p:k":{"value":"v","secret":true}}' ;;
  "stack output") echo '{"vnfs":{"a":1},"n":2}' ;;
esac`);
    expect(await stack.getAllConfig()).toEqual({ "p:k": { value: "v", secret: true } });
    await stack.setAllConfig({ "p:vnfs.hw.scale_levels.a": "2" }, true);
    await stack.removeAllConfig(["p:vnfs.hw.pending"], true);
    expect(await stack.outputs()).toEqual({ vnfs: { value: { a: 1 } }, n: { value: 2 } });
    expect(calls()).toEqual([
      "config --show-secrets --json --stack dev",
      "config set-all --path --plaintext p:vnfs.hw.scale_levels.a=2 --stack dev",
      "config rm-all --path p:vnfs.hw.pending --stack dev",
      "stack output --json --show-secrets --stack dev",
    ]);
  });

  it("up: without a preview, the replacements given; its events reach onEvent while it runs, in order", async () => {
    // Writes one event, waits until the test has seen it (the file `seen`), then the rest.
    const { stack, calls, dir } = stackWith(`while [ "$1" != --event-log ]; do shift; done
echo '{"sequence":1,"preludeEvent":{}}' >> "$2"
until [ -e "$FAKE/seen" ]; do sleep 0.02; done
printf '{"sequence":2,"resourcePreEvent":{}}\\n{"sequence":3,"summaryEvent":{}}\\n' >> "$2"
echo done`);
    const seen: number[] = [];
    const result = await stack.up({
      replace: ["urn:a", "urn:b"],
      onEvent: (e: EngineEvent) => {
        seen.push(e.sequence);
        if (e.sequence === 1) writeFileSync(path.join(dir, "seen"), "");
      },
    });
    expect(seen).toEqual([1, 2, 3]);
    expect(result.stdout).toBe("done\n");
    expect(calls()[0]).toMatch(/^up --yes --skip-preview --color never --non-interactive --replace urn:a --replace urn:b --event-log \S+ --stack dev$/);
  });

  it("an update's output goes to files, not a pipe: nfv ending mid-update cannot break pulumi's next write", async () => {
    const { stack } = stackWith(`for fd in 1 2; do [ -f /proc/self/fd/$fd ] && echo "fd $fd is a file" >&$fd; done; exit 0`);
    expect(await stack.preview({ diff: true })).toEqual({ stdout: "fd 1 is a file\n", stderr: "fd 2 is a file\n" });
  });

  it("a failed run: a PulumiCommandError with its transcript; the environment given reaches pulumi", async () => {
    const { stack } = stackWith(`echo "mark $NFV_MARK"; echo "error: the update failed" >&2; exit 255`);
    const e = await stack.up().catch((x: unknown) => x);
    expect(e).toBeInstanceOf(PulumiCommandError);
    expect((e as PulumiCommandError).commandResult).toEqual({ stdout: "mark given\n", stderr: "error: the update failed\n", code: 255 });
  });
});
