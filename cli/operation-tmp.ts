/**
 * A private temporary directory for the pulumi processes an `nfv` command runs. The kubernetes
 * provider writes the kubeconfig it is given (a bearer token or a client key) to a file in $TMPDIR
 * for Helm and never removes it (pulumi-kubernetes 4.x, provider/pkg/provider/util.go,
 * writeKubeconfigToFile): in /tmp every operation on a cluster left a readable copy of its
 * credentials behind. The engine and its plugins get this directory as TMPDIR instead: made 0700
 * by mkdtemp, removed when the last command using it ends (commands may run side by side in one
 * process: the tests run `nfv` in-process).
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
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
