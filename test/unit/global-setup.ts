/**
 * The unit run's own temporary directory, as TMPDIR of every test worker (forks inherit it): what
 * the tests make there (packages unpacked, hook files, certificates, a stub's kubeconfig) goes with
 * it at the end, a test that failed before its cleanup included. Before, a run left about 27
 * directories in /tmp.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import * as path from "node:path";

export function setup(): () => void {
  const dir = mkdtempSync(path.join(tmpdir(), "nfv-unit-"));
  process.env.TMPDIR = dir;
  return () => rmSync(dir, { recursive: true, force: true });
}
