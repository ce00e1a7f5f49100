/**
 * stdoutOnSuccess, run by a real POSIX shell (dash or bash as `sh`), as the remote shell runs a
 * Command's create line: a credential step that prints its token and then fails leaves nothing on
 * stdout (what pulumi-command 1.2.1 would put into its error); one that succeeds prints its stdout
 * unchanged; stderr and the exit status pass either way. Not proven: the provider itself.
 */
import { spawnSync } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import * as path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { stdoutOnSuccess } from "../../../components/k8s-cluster/stdin";

const TOKEN = "token=abcdef.0123456789abcdef";
const dirs: string[] = [];
const scratch = () => {
  const d = mkdtempSync(path.join(tmpdir(), "creds-"));
  dirs.push(d);
  return d;
};
afterAll(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

function step(body: string) {
  const file = path.join(scratch(), "step.sh");
  writeFileSync(file, body);
  return spawnSync("sh", ["-c", stdoutOnSuccess(`/bin/bash ${file}`)], { encoding: "utf8", input: "ROLE=worker\n" });
}

describe("stdoutOnSuccess", () => {
  it("a step that printed its credentials and then failed: no stdout, its stderr and exit status kept", () => {
    const r = step(`echo "${TOKEN}"; echo "ca_cert_hash=sha256:00ff"; echo "upload-certs failed" >&2; exit 3\n`);
    expect(r.status).toBe(3);
    expect(r.stdout).toBe("");
    expect(r.stderr).toBe("upload-certs failed\n");
  });

  it("a step that succeeds: its stdout as printed (one final newline), stdin reaching the script", () => {
    const r = step(`read -r role; echo "role=\${role#ROLE=}"; echo "${TOKEN}"\n`);
    expect(r.status).toBe(0);
    expect(r.stdout).toBe(`role=worker\n${TOKEN}\n`);
  });

  it("the unwrapped line, for contrast, does leak the token on failure (what the provider then shows)", () => {
    const file = path.join(scratch(), "step.sh");
    writeFileSync(file, `echo "${TOKEN}"; exit 1\n`);
    expect(spawnSync("sh", ["-c", `/bin/bash ${file}`], { encoding: "utf8" }).stdout).toContain(TOKEN);
  });
});
