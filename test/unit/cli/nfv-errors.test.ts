/**
 * User errors of the operations commands end as one line and exit 1 (2 for bad usage), never as
 * `internal error`, a stack trace and exit 70: no pulumi on PATH, an unknown stack, `--out` into a
 * missing directory. A fake `pulumi` (helpers/fake-pulumi.ts) prints what the real CLI prints for
 * each (its first `error:` line is taken); what is not proven here: that the real CLI's stderr
 * stays the same.
 */
import { existsSync, mkdirSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import * as path from "node:path";
import type { EngineEvent } from "@pulumi/pulumi/automation";
import { afterEach, describe, expect, it, vi } from "vitest";
import { main } from "../../../cli/nfv";
import { PulumiStack } from "../../../ops/pulumi-stack";
import { collectChanges, renderPreviewMarkdown } from "../../../cli/preview/summary";
import { fakePulumi, NO_SUCH_STACK } from "../helpers/fake-pulumi";

async function run(...argv: string[]): Promise<{ code: number; out: string; err: string }> {
  let out = "";
  let err = "";
  const code = await main(argv, { out: (s) => void (out += s), err: (s) => void (err += s) });
  return { code, out, err };
}

let fake: ReturnType<typeof fakePulumi> | undefined;
/** `fakePulumi(body)`, which also leaves the file `called` behind when it runs. */
function pulumiDoing(body: string): string {
  fake = fakePulumi(`touch "$FAKE/called"\n${body}`);
  return fake.dir;
}
const UNREACHABLE = `printf 'warning: x\\nerror: could not reach the backend: connection refused\\nmore detail\\n' >&2; exit 255`;

afterEach(() => {
  vi.restoreAllMocks();
  fake?.restore();
  fake = undefined;
});

/** The arguments of each operations command for stack `stack`. */
const COMMAND_ARGS: Record<string, (stack: string) => string[]> = {
  preview: (stack) => ["preview", "--stack", stack],
  heal: (stack) => ["heal", "--stack", stack],
  scale: (stack) => ["scale", "--stack", stack, "--aspect", "a", "--steps", "1", "--type", "out"],
};

describe("nfv preview, heal, scale: user errors", () => {
  it("no pulumi on PATH: one line naming the missing CLI, exit 1, no stack trace", async () => {
    const saved = process.env.PATH;
    process.env.PATH = mkdtempSync(path.join(tmpdir(), "no-pulumi-"));
    try {
      for (const cmd of ["preview", "heal", "scale"]) {
        const r = await run(...COMMAND_ARGS[cmd]("local"));
        expect([cmd, r.code]).toEqual([cmd, 1]);
        expect(r.err).toBe(`nfv ${cmd}: the pulumi CLI is not on PATH (\`. lab/toolchain/env.sh\` puts the lab's on it)\n`);
      }
    } finally {
      process.env.PATH = saved;
    }
  }, 60_000);

  it.each(["preview", "heal", "scale"])("an unknown stack for %s: one line, exit 1", async (cmd) => {
    pulumiDoing(NO_SUCH_STACK);
    const r = await run(...COMMAND_ARGS[cmd]("nope"));
    expect(r).toEqual({ code: 1, out: "", err: `nfv ${cmd}: stack 'nope' does not exist (\`pulumi stack ls\` lists this project's stacks)\n` });
  });

  it.each(["heal", "scale"])("any other failed pulumi run for %s (a backend that cannot be reached): its `error:` line, exit 1", async (cmd) => {
    pulumiDoing(UNREACHABLE);
    const r = await run(...COMMAND_ARGS[cmd]("dev"));
    expect(r).toEqual({ code: 1, out: "", err: `nfv ${cmd}: could not reach the backend: connection refused\n` });
  });

  it("a failed preview: the CLI's transcript under one line naming the stack, exit 1", async () => {
    pulumiDoing(UNREACHABLE);
    const r = await run(...COMMAND_ARGS.preview("dev"));
    expect(r.code).toBe(1);
    expect(r.err).toMatch(/^nfv preview: preview of stack 'dev' failed:\n/);
    expect(r.err).toContain("error: could not reach the backend: connection refused\nmore detail");
  });

  it.each([
    ["its directory is removed while the preview runs", "gone/summary.md", "ENOENT"],
    ["it names a directory", "summary.md", "EISDIR"],
  ])("--out that cannot be written at the end (%s): the summary on standard output, one line, exit 1", async (_, out, errno) => {
    const dir = mkdtempSync(path.join(tmpdir(), "nfv-out-"));
    mkdirSync(path.join(dir, path.dirname(out)), { recursive: true });
    if (errno === "EISDIR") mkdirSync(path.join(dir, out));
    const target = path.join(dir, out);
    const event = {
      sequence: 1,
      timestamp: 0,
      resourcePreEvent: {
        metadata: {
          op: "create",
          urn: "urn:pulumi:local::pulumi-nfv::openstack:compute/instance:Instance::vnf1-vdu1-0",
          type: "openstack:compute/instance:Instance",
          provider: "",
          diffs: ["name"],
          new: { inputs: {} },
        },
      },
    } as unknown as EngineEvent;
    // The engine's event log is the argument after --event-log.
    pulumiDoing(
      `while [ "$1" != --event-log ]; do shift; done\necho '${JSON.stringify(event)}' > "$2"\n` +
        (errno === "ENOENT" ? `rm -r '${path.dirname(target)}'\n` : ""),
    );
    try {
      const r = await run("preview", "--stack", "local", "--out", target);
      const markdown = renderPreviewMarkdown("local", collectChanges([event]));
      expect(markdown).toContain("vnf1-vdu1-0");
      expect(r).toEqual({ code: 1, out: markdown, err: `nfv preview: cannot write --out ${target} (${errno}); the summary is on standard output\n` });
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it("--out into a missing directory: refused before the preview runs, exit 1", async () => {
    const called = path.join(pulumiDoing("exit 0"), "called");
    const r = await run("preview", "--stack", "local", "--out", "/nonexistent-dir/summary.md");
    expect(r).toEqual({ code: 1, out: "", err: "nfv preview: --out /nonexistent-dir/summary.md: the directory /nonexistent-dir does not exist\n" });
    expect(existsSync(called)).toBe(false);
  });

  it.each([
    ["is a directory", () => tmpdir(), "is a directory, not a file"],
    ["does not exist", () => "/nonexistent-dir/change.json", "does not exist"],
  ])("change-ext-conn --request that %s: one line naming --request and the file, exit 1, before pulumi runs", async (_, file, reason) => {
    const called = path.join(pulumiDoing("exit 0"), "called");
    const r = await run("change-ext-conn", "--stack", "local", "--request", file());
    expect(r).toEqual({ code: 1, out: "", err: `nfv change-ext-conn: --request ${path.resolve(file())} ${reason}\n` });
    expect(existsSync(called)).toBe(false);
  });

  it("a real bug is still an internal error (thrown to the top, exit 70 there)", async () => {
    vi.spyOn(PulumiStack.prototype, "preview").mockRejectedValue(new TypeError("x is not a function"));
    await expect(run("preview", "--stack", "local")).rejects.toThrow("x is not a function");
  });
});
