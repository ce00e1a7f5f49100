/**
 * State in PostgreSQL (the CLI's postgres:// backend): the local-render stack deployed and destroyed
 * with its state in a lab PostgreSQL that this test starts and removes.
 */
import { execFileSync } from "node:child_process";
import { chmodSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import * as path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openLocalStack, registerSecret, ROOT, scanLogsNow, watchLogDir, type LocalStack } from "./harness";

const labState = mkdtempSync(path.join(tmpdir(), "nfv-it-pg-"));
// The server runs as the postgres user, which must be able to reach its data directory.
chmodSync(labState, 0o755);
const labEnv = { ...process.env, NFV_LAB_STATE: labState };
let backendUrl: string;
let local: LocalStack;

/** psql with the password in its environment, never on its command line. */
/** The stack's checkpoint as the backend stores it: a row whose JSON wraps the base64 of the file. */
function checkpoint(): string {
  const row = psql("SELECT data FROM pulumi_state WHERE key LIKE '%stacks/pulumi-nfv/local-render.json'");
  return Buffer.from((JSON.parse(row) as { data: string }).data, "base64").toString("utf8");
}

function psql(sql: string): string {
  const url = new URL(backendUrl);
  const password = decodeURIComponent(url.password);
  url.password = "";
  return execFileSync("psql", [url.toString(), "-qAt", "-c", sql], { encoding: "utf8", env: { ...process.env, PGPASSWORD: password } }).trim();
}

beforeAll(async () => {
  const facts = execFileSync(path.join(ROOT, "lab/postgres/up"), { env: labEnv, encoding: "utf8" });
  const urlFile = /^backend_url_file=(.*)$/m.exec(facts)![1];
  backendUrl = readFileSync(urlFile, "utf8").trim();
  // The role's password (in the backend URL, which reaches pulumi in its environment only) and the
  // server's log: looked for and looked at by this file's canary scan.
  registerSecret("PostgreSQL backend password", decodeURIComponent(new URL(backendUrl).password));
  watchLogDir(labState);
  local = await openLocalStack({ backendUrl });
}, 300_000);

afterAll(async () => {
  await local?.stack.destroy({ color: "never" }).catch(() => undefined);
  local?.dispose();
  execFileSync(path.join(ROOT, "lab/postgres/down"), { env: labEnv });
  // Its directory (and the server's log in it) goes next: the canary scan reads the log first.
  scanLogsNow();
  rmSync(labState, { recursive: true, force: true });
}, 600_000);

describe("postgres:// state backend", () => {
  it("keeps the stack's checkpoint in the pulumi_state table after up", async () => {
    const up = await local.stack.up({ color: "never" });
    expect(up.summary.result).toBe("succeeded");
    const keys = psql("SELECT key FROM pulumi_state ORDER BY key").split("\n");
    expect(keys).toEqual(expect.arrayContaining([expect.stringMatching(/stacks\/pulumi-nfv\/local-render\.json$/)]));
    expect(checkpoint()).toContain("nfv:vim:KubernetesVim");
  });

  it("destroys with the same backend, leaving an empty checkpoint", async () => {
    const destroy = await local.stack.destroy({ color: "never" });
    expect(destroy.summary.result).toBe("succeeded");
    expect(checkpoint()).not.toContain("nfv:vim:KubernetesVim");
  });
});
