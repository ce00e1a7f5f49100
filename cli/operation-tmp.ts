/**
 * A private temporary directory for the pulumi processes an `nfv` command runs. The kubernetes
 * provider writes the kubeconfig it is given (a bearer token or a client key) to a file in $TMPDIR
 * for Helm and never removes it (pulumi-kubernetes 4.x, provider/pkg/provider/util.go,
 * writeKubeconfigToFile): in /tmp every operation on a cluster left a readable copy of its
 * credentials behind. The engine and its plugins get this directory as TMPDIR instead: made 0700
 * by mkdtemp, removed when the last command using it ends (commands may run side by side in one
 * process: the tests run `nfv` in-process).
 */
import { createHash } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import { homedir, tmpdir } from "node:os";
import * as path from "node:path";

let dir: string | undefined;
let users = 0;

/** Marks a command as running; `releaseOperationTmp` ends it. */
export function holdOperationTmp(): void {
  users++;
}

/** The directory for this process's pulumi operations, made on first use. */
export function operationTmpDir(): string {
  dir ??= mkdtempSync(path.join(tmpdir(), "nfv-op-"));
  return dir;
}

/** Ends a command; the last one out removes the directory and what the plugins left in it. */
export function releaseOperationTmp(): void {
  users = Math.max(0, users - 1);
  if (users > 0 || dir === undefined) return;
  rmSync(dir, { recursive: true, force: true });
  dir = undefined;
}

/**
 * The environment of pulumi processes given `dir` as TMPDIR. Pulumi's runner transpiles the
 * TypeScript program with its vendored ts-node 7, which caches what it transpiled in
 * `$TMPDIR/ts-node-<sha256 of the home directory>`: in a fresh private TMPDIR every run transpiled
 * the whole program again (requiring the library's entry: 4.2 s cold, 0.8 s from the cache, here).
 * The cache stays where it is without a private TMPDIR, shared with a plain `pulumi up`; it holds
 * the program's transpiled source, no credential. TS_NODE_CACHE_DIRECTORY, when set, is kept.
 */
export function pulumiTmpEnv(dir: string): Record<string, string> {
  const tsNodeCache = process.env.TS_NODE_CACHE_DIRECTORY ?? path.join(tmpdir(), `ts-node-${createHash("sha256").update(homedir(), "utf8").digest("hex")}`);
  return { TMPDIR: dir, TS_NODE_CACHE_DIRECTORY: tsNodeCache };
}
