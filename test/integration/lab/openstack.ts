/**
 * The lab OpenStack (lab/openstack) for the integration files that need it. The first file brings
 * it up (idempotent: a running lab is reused) and leaves a marker; `global-setup.ts` brings it down
 * after the whole run only when a test file started it, so the lab is started once per run and a
 * developer's running lab is left alone.
 */
import { execFileSync } from "node:child_process";
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import * as path from "node:path";
import { registerSecret, ROOT, toolchainEnv } from "../harness";

export const LAB = path.join(ROOT, "lab/openstack");
/** Written when a test file started the lab; read by the global teardown. */
export const STARTED_MARKER = path.join(ROOT, ".test-results/openstack-lab-started-by-tests");

/** What `lab/openstack/up` prints: vim_config, clouds_yaml, state_dir, … */
export type LabFacts = Record<string, string>;

/**
 * True when the lab OpenStack may be used: its provider plugin is installed (the tests need it),
 * and NFV_NO_OPENSTACK_LAB is not 1 (set it on a machine whose lab OpenStack is someone else's:
 * the files and parts that need it are then skipped, saying so).
 */
export function openstackLabEnabled(): boolean {
  if (process.env.NFV_NO_OPENSTACK_LAB === "1") return false;
  try {
    return /^openstack\s+resource\s+3\.15\.2/m.test(execFileSync("pulumi", ["plugin", "ls"], { env: toolchainEnv(), encoding: "utf8" }));
  } catch {
    return false;
  }
}

function running(): boolean {
  try {
    execFileSync(path.join(LAB, "status"), { stdio: "ignore" });
    return true;
  } catch {
    return false;
  }
}

/** Brings the lab up (or finds it up) and returns its facts; `magnum` also starts Heat and Magnum. */
export function labUp(opts: { magnum?: boolean } = {}): LabFacts {
  if (!running()) {
    mkdirSync(path.dirname(STARTED_MARKER), { recursive: true });
    writeFileSync(STARTED_MARKER, `${new Date().toISOString()}\n`);
  }
  const up = () =>
    execFileSync(path.join(LAB, "up"), opts.magnum ? ["--with-magnum"] : [], { encoding: "utf8", stdio: ["ignore", "pipe", "inherit"], timeout: 1_500_000 });
  let out: string;
  try {
    out = up();
  } catch (e) {
    // `up` is idempotent: a second one keeps what the first started and waits again. One CI run saw
    // the first up give up on services that were ready minutes later.
    console.error(`lab/openstack/up failed (${(e as Error).message.split("\n")[0]}); trying once more`);
    out = up();
  }
  const facts: LabFacts = Object.fromEntries(
    out
      .trim()
      .split("\n")
      .filter((l) => l.includes("="))
      .map((l) => [l.slice(0, l.indexOf("=")), l.slice(l.indexOf("=") + 1)]),
  );
  // The VIM user's password, looked for by the canary scan of the file (lab/canary-watch.ts).
  const password = facts.vim_config ? /^password: *'?([^'\n]+)'?$/m.exec(readFileSync(facts.vim_config, "utf8"))?.[1] : undefined;
  if (password && password.length >= 12) registerSecret("lab OpenStack VIM password", password);
  return facts;
}

/** Brings the lab down if a test file of this run started it. */
export function labDownIfStartedByTests(): void {
  if (!existsSync(STARTED_MARKER)) return;
  execFileSync(path.join(LAB, "down"), { stdio: "inherit" });
  rmSync(STARTED_MARKER, { force: true });
}

/** Resource ids the lab created (network.lab-net, subnet.lab-subnet, …). */
export function labResources(facts: LabFacts): Record<string, string> {
  return Object.fromEntries(
    readFileSync(path.join(facts.state_dir, "resources.env"), "utf8")
      .trim()
      .split("\n")
      .map((l) => l.split("=") as [string, string]),
  );
}

/** The `openstack` CLI as the VIM's user (or `cloud`), JSON out. */
export function openstackCli<T>(facts: LabFacts, args: string[], cloud = "oslab"): T {
  const out = execFileSync("openstack", [...args, "-f", "json"], {
    env: { ...process.env, OS_CLIENT_CONFIG_FILE: facts.clouds_yaml, OS_CLOUD: cloud },
    encoding: "utf8",
  });
  return JSON.parse(out) as T;
}
