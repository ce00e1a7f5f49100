/**
 * What integration tests share: the offline toolchain's environment, a private file backend, and
 * the `local` stack opened through the Automation API with the real CLI.
 */
import { execFile, execFileSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import * as path from "node:path";
import { LocalWorkspace, PulumiCommand, type PulumiFn, type Stack } from "@pulumi/pulumi/automation";
import { main } from "../../cli/nfv";
import { pulumiEnv } from "../../cli/pulumi-env";
import { toolchainEnv as loadToolchainEnv } from "../../lab/toolchain/env";
import { configSecrets as stackConfigSecrets, scanBeforeRemoving } from "./lab/canary-watch";

export const ROOT = path.join(__dirname, "../..");

/** The environment lab/toolchain/env.sh sets up, for this repository. */
export function toolchainEnv(): Record<string, string> {
  return loadToolchainEnv(ROOT);
}

export interface LocalStack {
  stack: Stack;
  env: Record<string, string>;
  backendDir: string;
  /** Removes the private backend (after the test destroyed the stack) and the operations' TMPDIR. */
  dispose(): void;
}

/**
 * Opens a lab stack (`local-render` unless `stackName` says otherwise) on a backend of its own (a
 * fresh directory, or `backendUrl`), so that tests never touch a developer's state. The stack's
 * passphrase is the lab's (see stacks/Pulumi.local.yaml). The project is this repository's unless
 * `workDir` names another (an example's), or `program` is an inline program (its project named
 * after the stack), run in the test's own process.
 */
export async function openLocalStack(opts: { backendUrl?: string; stackName?: string; workDir?: string; program?: PulumiFn } = {}): Promise<LocalStack> {
  const backendDir = mkdtempSync(path.join(tmpdir(), "nfv-it-state-"));
  // The engine's and plugins' environment as `nfv` gives it (cli/pulumi-env.ts: its parallelism, a
  // private TMPDIR): the kubernetes provider leaves a copy of each kubeconfig it is given there,
  // removed with the stack.
  const operationTmp = mkdtempSync(path.join(tmpdir(), "nfv-it-tmp-"));
  const env: Record<string, string> = {
    ...toolchainEnv(),
    PULUMI_BACKEND_URL: opts.backendUrl ?? `file://${backendDir}`,
    PULUMI_CONFIG_PASSPHRASE: "pulumi-nfv-local-lab",
    ...pulumiEnv(operationTmp),
  };
  // The 4.25 provider refuses an ambient kubeconfig in render mode.
  delete env.KUBECONFIG;
  delete env.PULUMI_CONFIG_PASSPHRASE_FILE;
  const pulumiCommand = await PulumiCommand.get({
    root: path.dirname(path.dirname(execFileSync("bash", ["-c", "command -v pulumi"], { env, encoding: "utf8" }).trim())),
  });
  const stackName = opts.stackName ?? "local-render";
  forgetLeftoverStackFile(stackName);
  const stack = opts.program
    ? // An inline program's project files in the stack's own directory, not an `automation-*` one the SDK leaves in /tmp.
      await LocalWorkspace.createOrSelectStack(
        { stackName, projectName: stackName, program: opts.program },
        { envVars: env, pulumiCommand, workDir: operationTmp },
      )
    : await LocalWorkspace.createOrSelectStack({ stackName, workDir: opts.workDir ?? ROOT }, { envVars: env, pulumiCommand });
  return {
    stack,
    env,
    backendDir,
    dispose: () => {
      // The backend's files (state, backups, history) are looked at for secrets before they go.
      scanBeforeRemoving(backendDir, `file backend of ${stackName}`);
      rmSync(backendDir, { recursive: true, force: true });
      rmSync(operationTmp, { recursive: true, force: true });
    },
  };
}

/** Another stack of a test, in the same backend as `local`. */
export function openTestStack(local: LocalStack, stackName: string): Promise<Stack> {
  forgetLeftoverStackFile(stackName);
  return LocalWorkspace.createOrSelectStack({ stackName, workDir: ROOT }, { envVars: local.env, pulumiCommand: local.stack.workspace.pulumiCommand });
}

/** The end of a test stack: destroyed, removed from the backend, its config file gone (best effort: teardown). */
export async function removeTestStack(stack: Stack | undefined): Promise<void> {
  if (!stack) return;
  await stack.destroy({ color: "never" }).catch(() => undefined);
  await stack.workspace.removeStack(stack.name).catch(() => undefined);
  rmSync(path.join(ROOT, `stacks/Pulumi.${stack.name}.yaml`), { force: true });
  rmSync(rollbackPointFile(stack.name), { force: true });
}

/** The rollback point `nfv` keeps for a stack of this project (ops/rollback.ts). */
function rollbackPointFile(stackName: string): string {
  return path.join(ROOT, ".pulumi-nfv", "rollback", `${stackName}.json`);
}

/**
 * A test's `stacks/Pulumi.it-*.yaml` left by a run that was killed before its cleanup would merge
 * that run's config into this one (a second cluster, a stale path): a test stack starts without
 * one, and without that run's rollback point.
 */
function forgetLeftoverStackFile(stackName: string): void {
  if (!stackName.startsWith("it-")) return;
  rmSync(path.join(ROOT, `stacks/Pulumi.${stackName}.yaml`), { force: true });
  rmSync(rollbackPointFile(stackName), { force: true });
}

/**
 * Every secret of a stack's config file: the YAML paths of its `secure:` leaves, and the values
 * the CLI decrypts for them. Used to prove that no secret reaches the state in plain text.
 */
export const configSecrets = stackConfigSecrets;

/**
 * `pulumi config set --secret` with the value on stdin. The Automation API's setConfig puts the
 * value on pulumi's command line, which every user of the machine can read in the process list;
 * the canary scan refuses it for secrets (lab/canary-watch.ts).
 */
export function setSecretConfig(stack: Stack, key: string, value: string, usePath = true): Promise<void> {
  const ws = stack.workspace as LocalWorkspace;
  const args = ["config", "set", ...(usePath ? ["--path"] : []), "--secret", key, "--stack", stack.name, "--non-interactive"];
  return new Promise((resolve, reject) => {
    const child = execFile(ws.pulumiCommand.command, args, { cwd: ws.workDir, env: { ...process.env, ...ws.envVars } }, (err, _out, stderr) =>
      err ? reject(new Error(`pulumi config set --secret ${key}: ${stderr}`)) : resolve(),
    );
    child.stdin!.end(value);
  });
}

/** Canaries and the lab's secrets, for the tests: see lab/canary.ts and lab/canary-watch.ts. */
export { newCanary as canary, registerPrivateKeyFile, registerSecret, scanLogsNow, watchLogDir } from "./lab/canary-watch";

/** Runs `nfv` in-process with the stack's environment (the Automation API reads process.env). */
export async function runNfv(env: Record<string, string>, args: string[]): Promise<{ code: number; out: string }> {
  const saved = { ...process.env };
  Object.assign(process.env, env);
  const out: string[] = [];
  try {
    const code = await main([...args, "--cwd", ROOT], { out: (t) => out.push(t), err: (t) => out.push(t) });
    return { code, out: out.join("") };
  } finally {
    process.env = saved;
  }
}

/** The file backend's own copy of a stack's state: secrets as stored (an export shows them decrypted). */
export function storedState(local: LocalStack, stackName: string): string {
  const files = execFileSync("find", [local.backendDir, "-name", `${stackName}.json`, "-path", "*/stacks/*"], { encoding: "utf8" })
    .trim()
    .split("\n");
  if (files.length !== 1 || files[0] === "") throw new Error(`expected one state file of ${stackName} under ${local.backendDir}, found ${files.length}`);
  return readFileSync(files[0], "utf8");
}

/** Whether the state holds the stack output at `outputPath` as a secret (ciphertext under Pulumi's secret signature). */
export async function outputIsSecretInState(stack: Stack, ...outputPath: string[]): Promise<boolean> {
  const state = (await stack.exportStack()).deployment;
  let value = state.resources.find((r: { type: string }) => r.type === "pulumi:pulumi:Stack").outputs;
  for (const key of outputPath) value = value?.[key];
  return value?.["4dabf18193072939515e22adb298388d"] === "1b47061264138c4ac30d75fd1eb44270";
}

/** Polls `f` (sync or async) every 2 s until it returns a truthy value (returned), for at most `seconds`; its exceptions count as not yet, the last one is reported. */
export async function until<T>(what: string, seconds: number, f: () => T | undefined | false | Promise<T | undefined | false>): Promise<T> {
  let last: unknown;
  for (const end = Date.now() + seconds * 1000; Date.now() < end;) {
    try {
      const v = await f();
      if (v) return v;
    } catch (e) {
      last = e;
    }
    await new Promise((r) => setTimeout(r, 2000));
  }
  throw new Error(`${what}: not within ${seconds} s${last ? ` (last error: ${String((last as Error).message).slice(0, 500)})` : ""}`);
}
