/**
 * The package as a user gets it: built and packed (`npm pack`, which runs `prepare`), the tarball
 * unpacked into `node_modules/pulumi-nfv` of a project of its own, whose other dependencies are
 * this repository's node_modules, linked entry by entry (no network, and no npm run in that
 * project: npm would prune what its lockfile does not name, through the links). Used by the
 * package test and by the examples' lab tests.
 */
import { execFile } from "node:child_process";
import { mkdirSync, readdirSync, realpathSync, symlinkSync } from "node:fs";
import * as path from "node:path";
import { promisify } from "node:util";

const run = promisify(execFile);
const ROOT = path.resolve(__dirname, "../..");

/**
 * `npm pack` of this repository into `dest`: the tarball's path. test/run-all packs once for every
 * file that installs the package and names the tarball in NFV_PACKED_TARBALL (each pack is a whole
 * build: a minute of CPU beside the lab tests).
 */
export async function packTarball(dest: string): Promise<string> {
  if (process.env.NFV_PACKED_TARBALL) return process.env.NFV_PACKED_TARBALL;
  const { stdout } = await run(path.join(ROOT, "tools/pack"), [dest], { maxBuffer: 64 * 1024 * 1024 });
  return stdout.trim();
}

/** The tarball unpacked as `app`'s `node_modules/pulumi-nfv`, the other dependencies linked: the installed directory. */
export async function installPacked(tarball: string, app: string): Promise<string> {
  const installed = path.join(app, "node_modules/pulumi-nfv");
  mkdirSync(installed, { recursive: true });
  await run("tar", ["-xzf", tarball, "-C", installed, "--strip-components=1"]);
  const deps = realpathSync(path.join(ROOT, "node_modules"));
  for (const entry of readdirSync(deps)) {
    if (entry === "pulumi-nfv" || entry.startsWith(".")) continue;
    symlinkSync(path.join(deps, entry), path.join(app, "node_modules", entry));
  }
  return installed;
}
