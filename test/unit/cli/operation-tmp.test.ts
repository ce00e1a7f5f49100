/**
 * The pulumi processes of an `nfv` command get a private TMPDIR (cli/operation-tmp.ts), where the
 * kubernetes provider's copy of a kubeconfig lands, removed when the command ends; ts-node's cache
 * stays outside it. The Automation
 * API is stubbed: what the stub sees is what the engine and its plugins would get.
 */
import { createHash } from "node:crypto";
import { existsSync, statSync, writeFileSync } from "node:fs";
import { homedir, tmpdir } from "node:os";
import * as path from "node:path";
import { afterEach, describe, expect, it, vi } from "vitest";
import { previewEnv } from "../helpers/nfv-pulumi-env";

afterEach(() => vi.restoreAllMocks());

/** `previewEnv` with the TMPDIR given: `during` sees it (and the whole environment) while the command runs. */
async function previewSeeing(during: (tmp: string, env: Record<string, string>) => void): Promise<string> {
  return (await previewEnv((env) => during(env.TMPDIR ?? "", env))).TMPDIR ?? "";
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

  it("leaves ts-node's cache where it is without it: the runner's transpiled program is reused, not made again in each new TMPDIR", async () => {
    const saved = process.env.TS_NODE_CACHE_DIRECTORY;
    delete process.env.TS_NODE_CACHE_DIRECTORY;
    try {
      let cache = "";
      const tmp = await previewSeeing((_t, env) => (cache = env.TS_NODE_CACHE_DIRECTORY ?? ""));
      // ts-node 7's own default (vendor/ts-node@7.0.1: getTmpDir) for the system's temporary directory.
      expect(cache).toBe(path.join(tmpdir(), `ts-node-${createHash("sha256").update(homedir(), "utf8").digest("hex")}`));
      expect(cache.startsWith(tmp)).toBe(false);
    } finally {
      if (saved !== undefined) process.env.TS_NODE_CACHE_DIRECTORY = saved;
    }
  });

  it("is one per command: the next command gets a new one", async () => {
    const first = await previewSeeing(() => undefined);
    const second = await previewSeeing(() => undefined);
    expect(second).not.toBe(first);
    expect(existsSync(second)).toBe(false);
  });
});
