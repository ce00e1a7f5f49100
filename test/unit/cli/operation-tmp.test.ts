/**
 * The pulumi processes of an `nfv` command get a private TMPDIR (cli/operation-tmp.ts), where the
 * kubernetes provider's copy of a kubeconfig lands, removed when the command ends. The Automation
 * API is stubbed: what the stub sees is what the engine and its plugins would get.
 */
import { existsSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import * as path from "node:path";
import { LocalWorkspace, type LocalWorkspaceOptions } from "@pulumi/pulumi/automation";
import { afterEach, describe, expect, it, vi } from "vitest";
import { main } from "../../../cli/nfv";

afterEach(() => vi.restoreAllMocks());

const quiet = { out: () => undefined, err: () => undefined };

/** Runs `nfv preview --stack s` with selectStack stubbed; `during` sees the TMPDIR it was given. */
async function previewSeeing(during: (tmp: string) => void): Promise<string> {
  let given = "";
  vi.spyOn(LocalWorkspace, "selectStack").mockImplementation((_args, opts?: LocalWorkspaceOptions) => {
    given = opts?.envVars?.TMPDIR ?? "";
    during(given);
    const e = new Error("no stack");
    e.name = "StackNotFoundError";
    return Promise.reject(e);
  });
  expect(await main(["preview", "--stack", "s"], quiet)).toBe(1);
  return given;
}

describe("nfv: a private TMPDIR for the pulumi processes of a command", () => {
  it("is a directory of the user's alone under the system's temporary directory, while the command runs", async () => {
    let mode = 0;
    const tmp = await previewSeeing((t) => (mode = statSync(t).mode & 0o777));
    expect(path.dirname(tmp)).toBe(tmpdir());
    expect(path.basename(tmp)).toMatch(/^nfv-op-/);
    expect(mode).toBe(0o700);
  });

  it("is removed with what the plugins wrote in it when the command ends, even when it failed", async () => {
    const tmp = await previewSeeing((t) => writeFileSync(path.join(t, "kubeconfig123"), "token: canary\n"));
    expect(existsSync(tmp)).toBe(false);
  });

  it("is one per command: the next command gets a new one", async () => {
    const first = await previewSeeing(() => undefined);
    const second = await previewSeeing(() => undefined);
    expect(second).not.toBe(first);
    expect(existsSync(second)).toBe(false);
  });
});
