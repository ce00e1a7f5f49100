/**
 * User errors of the operations commands end as one line and exit 1 (2 for bad usage), never as
 * `internal error`, a stack trace and exit 70: no pulumi on PATH, an unknown stack, `--out` into a
 * missing directory. The Automation API is stubbed where a real pulumi CLI would be needed; what
 * is not proven here: the exact stderr a real CLI prints (its first `error:` line is taken).
 */
import { mkdirSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import * as path from "node:path";
import { LocalWorkspace, type EngineEvent, type Stack } from "@pulumi/pulumi/automation";
import { afterEach, describe, expect, it, vi } from "vitest";
import { main } from "../../../cli/nfv";
import { collectChanges, renderPreviewMarkdown } from "../../../cli/preview/summary";

async function run(...argv: string[]): Promise<{ code: number; out: string; err: string }> {
  let out = "";
  let err = "";
  const code = await main(argv, { out: (s) => void (out += s), err: (s) => void (err += s) });
  return { code, out, err };
}

/** What the Automation API throws for a failed CLI run: a CommandError with the CLI's transcript. */
function commandError(name: string, stderr: string): Error {
  const e = new Error(`code: 255\n stdout: \n stderr: ${stderr}\n err?: \n`);
  e.name = name;
  Object.assign(e, { commandResult: { stdout: "", stderr, code: 255 } });
  return e;
}

afterEach(() => vi.restoreAllMocks());

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
      for (const cmd of [
        ["preview", "--stack", "local"],
        ["heal", "--stack", "local"],
        ["scale", "--stack", "local", "--aspect", "a", "--steps", "1", "--type", "out"],
      ]) {
        const r = await run(...cmd);
        expect([cmd[0], r.code]).toEqual([cmd[0], 1]);
        expect(r.err).toBe(`nfv ${cmd[0]}: cannot open stack 'local': the pulumi CLI is not on PATH (\`. lab/toolchain/env.sh\` puts the lab's on it)\n`);
      }
    } finally {
      process.env.PATH = saved;
    }
  }, 60_000);

  it("an unknown stack: one line, exit 1", async () => {
    vi.spyOn(LocalWorkspace, "selectStack").mockRejectedValue(commandError("StackNotFoundError", "error: no stack named 'nope' found\n"));
    const r = await run("preview", "--stack", "nope");
    expect(r).toEqual({ code: 1, out: "", err: "nfv preview: stack 'nope' does not exist (`pulumi stack ls` lists this project's stacks)\n" });
  });

  it("any other failed pulumi run (a backend that cannot be reached): its `error:` line, exit 1", async () => {
    vi.spyOn(LocalWorkspace, "selectStack").mockRejectedValue(
      commandError("CommandError", "warning: x\nerror: could not reach the backend: connection refused\nmore detail\n"),
    );
    const r = await run("heal", "--stack", "dev");
    expect(r).toEqual({ code: 1, out: "", err: "nfv heal: cannot open stack 'dev': could not reach the backend: connection refused\n" });
  });

  it.each(["heal", "scale"])("an unknown stack for %s: one line, exit 1", async (cmd) => {
    vi.spyOn(LocalWorkspace, "selectStack").mockRejectedValue(commandError("StackNotFoundError", "error: no stack named 'nope' found\n"));
    const r = await run(...COMMAND_ARGS[cmd]("nope"));
    expect(r).toEqual({ code: 1, out: "", err: `nfv ${cmd}: stack 'nope' does not exist (\`pulumi stack ls\` lists this project's stacks)\n` });
  });

  it.each(["preview", "scale"])("a backend that cannot be reached for %s: its `error:` line, exit 1", async (cmd) => {
    vi.spyOn(LocalWorkspace, "selectStack").mockRejectedValue(
      commandError("CommandError", "warning: x\nerror: could not reach the backend: connection refused\nmore detail\n"),
    );
    const r = await run(...COMMAND_ARGS[cmd]("dev"));
    expect(r).toEqual({ code: 1, out: "", err: `nfv ${cmd}: cannot open stack 'dev': could not reach the backend: connection refused\n` });
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
    const stack = {
      async preview(opts: { onEvent: (e: EngineEvent) => void }) {
        opts.onEvent(event);
        if (errno === "ENOENT") rmSync(path.dirname(target), { recursive: true });
        return {};
      },
    };
    vi.spyOn(LocalWorkspace, "selectStack").mockResolvedValue(stack as unknown as Stack);
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
    const select = vi.spyOn(LocalWorkspace, "selectStack");
    const r = await run("preview", "--stack", "local", "--out", "/nonexistent-dir/summary.md");
    expect(r).toEqual({ code: 1, out: "", err: "nfv preview: --out /nonexistent-dir/summary.md: the directory /nonexistent-dir does not exist\n" });
    expect(select).not.toHaveBeenCalled();
  });

  it.each([
    ["is a directory", () => tmpdir(), "is a directory, not a file"],
    ["does not exist", () => "/nonexistent-dir/change.json", "does not exist"],
  ])("change-ext-conn --request that %s: one line naming --request and the file, exit 1, before the stack is opened", async (_, file, reason) => {
    const select = vi.spyOn(LocalWorkspace, "selectStack");
    const r = await run("change-ext-conn", "--stack", "local", "--request", file());
    expect(r).toEqual({ code: 1, out: "", err: `nfv change-ext-conn: --request ${path.resolve(file())} ${reason}\n` });
    expect(select).not.toHaveBeenCalled();
  });

  it("a real bug is still an internal error (thrown to the top, exit 70 there)", async () => {
    vi.spyOn(LocalWorkspace, "selectStack").mockRejectedValue(new TypeError("x is not a function"));
    await expect(run("preview", "--stack", "local")).rejects.toThrow("x is not a function");
  });
});
