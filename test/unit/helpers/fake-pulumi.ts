/**
 * A fake `pulumi` first on PATH for the unit tests of `nfv`'s commands: a shell script given its
 * body (`$FAKE` is its directory, for files it leaves). `restore` puts PATH back and removes it.
 */
import { chmodSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import * as path from "node:path";

export function fakePulumi(body: string): { dir: string; restore(): void } {
  const dir = mkdtempSync(path.join(tmpdir(), "nfv-fake-pulumi-"));
  mkdirSync(path.join(dir, "bin"));
  writeFileSync(path.join(dir, "bin/pulumi"), `#!/bin/sh\nFAKE='${dir}'\n${body}\n`);
  chmodSync(path.join(dir, "bin/pulumi"), 0o755);
  const saved = process.env.PATH;
  process.env.PATH = `${path.join(dir, "bin")}:${saved ?? ""}`;
  return {
    dir,
    restore() {
      process.env.PATH = saved;
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** A body that fails as the CLI does for a stack that does not exist. */
export const NO_SUCH_STACK = `echo "error: no stack named '$(echo "$@" | sed 's/.*--stack \\([^ ]*\\).*/\\1/')' found" >&2; exit 255`;
