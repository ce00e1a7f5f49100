/**
 * A stack of this project as `nfv`'s operations drive it: each call one pulumi CLI process, with
 * `--stack` given, and nothing else run around it.
 *
 * Why not the Automation API's `Stack`, which runs the same CLI: loading it costs a second (it
 * requires the SDK's runtime and, through the closure serializer, the TypeScript compiler), and it
 * runs CLI calls nfv does not need, each 0.25-0.55 s here (the passphrase secrets manager derives
 * its key in every process that reads a secret): `pulumi version` and `stack select` to open a
 * stack, `stack output` twice (masked, then with secrets) for the outputs, and after every `up`
 * `stack output` twice more and `stack history`. A heal paid about 3 s of them (issue 23).
 */
import { spawn } from "node:child_process";
import { closeSync, openSync, readFileSync, readSync, rmSync } from "node:fs";
import * as path from "node:path";
import { StringDecoder } from "node:string_decoder";
import type { EngineEvent } from "@pulumi/pulumi/automation";
import { parse } from "yaml";

/** A config value as `pulumi config --json --show-secrets` gives it. */
export interface ConfigValue {
  value: string;
  secret?: boolean;
}

/** The stack's outputs by name, with secrets shown (`stack output --json --show-secrets`). */
export type StackOutputs = Record<string, { value: any }>; // eslint-disable-line @typescript-eslint/no-explicit-any -- JSON of any shape, as the Automation API's OutputMap

const PULUMI_NOT_ON_PATH = "the pulumi CLI is not on PATH (`. lab/toolchain/env.sh` puts the lab's on it)";

/** What the user acts on before any pulumi run can work: no pulumi CLI on PATH, no such stack. */
export class StackUnavailable extends Error {}

/** A pulumi CLI run that exited non-zero: its transcript in `commandResult`, the message as the Automation API's CommandError gives it. */
export class PulumiCommandError extends Error {
  constructor(readonly commandResult: { stdout: string; stderr: string; code: number | null }) {
    super(`code: ${commandResult.code}\n stdout: ${commandResult.stdout}\n stderr: ${commandResult.stderr}\n`);
    this.name = "CommandError";
  }
}

/** What a pulumi run that succeeded wrote. */
export interface CommandOutput {
  stdout: string;
  stderr: string;
}

export interface UpdateOptions {
  /** URNs to replace (`--replace`). */
  replace?: string[];
  /** Each engine event, as the engine writes it to its event log, while the command runs. */
  onEvent?: (e: EngineEvent) => void;
}

export class PulumiStack {
  /**
   * @param name the stack, as `--stack` takes it
   * @param workDir the project directory (its Pulumi.yaml)
   * @param env added to this process's environment for every pulumi process
   * @param tmpDir where the event logs go (private to this process: cli/operation-tmp.ts)
   */
  constructor(
    readonly name: string,
    readonly workDir: string,
    readonly env: Record<string, string>,
    private readonly tmpDir: string,
  ) {}

  /** The stack's config, secrets decrypted. */
  async getAllConfig(): Promise<Record<string, ConfigValue>> {
    return JSON.parse((await this.run(["config", "--show-secrets", "--json"])).stdout) as Record<string, ConfigValue>;
  }

  /**
   * `config set-all` of plain values; `path`: keys are property paths (`--path`). No secret: the
   * values are on the command line, seen in the process list (the operations write none).
   */
  async setAllConfig(config: Record<string, string>, path: boolean): Promise<void> {
    await this.run(["config", "set-all", ...(path ? ["--path"] : []), ...Object.entries(config).flatMap(([key, value]) => ["--plaintext", `${key}=${value}`])]);
  }

  /** `config rm-all`; `path`: keys are property paths (`--path`). */
  async removeAllConfig(keys: string[], path: boolean): Promise<void> {
    await this.run(["config", "rm-all", ...(path ? ["--path"] : []), ...keys]);
  }

  /** The outputs of the last update, secrets shown: one CLI call. */
  async outputs(): Promise<StackOutputs> {
    const values = JSON.parse((await this.run(["stack", "output", "--json", "--show-secrets"])).stdout) as Record<string, unknown>;
    return Object.fromEntries(Object.entries(values).map(([k, value]) => [k, { value }]));
  }

  /** `up` without a preview; its output when it succeeded, else throws its PulumiCommandError. */
  up(opts: UpdateOptions = {}): Promise<CommandOutput> {
    return this.update(["up", "--yes", "--skip-preview"], opts);
  }

  /** `preview` (`diff`: with `--diff`); its text output. */
  preview(opts: UpdateOptions & { diff?: boolean } = {}): Promise<CommandOutput> {
    return this.update(["preview", ...(opts.diff ? ["--diff"] : [])], opts);
  }

  /** Pulumi.yaml's `stackConfigDir` (where the stack's settings file is), relative to `workDir`; "" when it sets none. */
  stackConfigDir(): string {
    const settings = (parse(readFileSync(path.join(this.workDir, "Pulumi.yaml"), "utf8")) ?? {}) as { stackConfigDir?: unknown };
    return typeof settings.stackConfigDir === "string" ? settings.stackConfigDir : "";
  }

  /**
   * `command` (up or preview) with the options, its events followed through the engine's event
   * log. Its stdout and stderr go to files (what pulumi prints of an update masks secrets), not to
   * pipes: if nfv ends mid-update, pulumi does not die of a broken pipe at its next line of output
   * with steps in flight; it finishes, or cancels on the terminal's Ctrl-C, which reaches it too.
   */
  private async update(command: string[], opts: UpdateOptions): Promise<CommandOutput> {
    const args = [...command, "--color", "never", "--non-interactive", ...(opts.replace ?? []).flatMap((urn) => ["--replace", urn])];
    const base = path.join(this.tmpDir, `${command[0]}-${process.pid}-${Date.now()}-${Math.random().toString(36).slice(2)}`);
    const tail = opts.onEvent ? tailEngineEvents(`${base}.events.jsonl`, opts.onEvent) : undefined;
    try {
      return await this.run(tail ? [...args, "--event-log", `${base}.events.jsonl`] : args, base);
    } finally {
      tail?.stop();
      for (const ext of ["events.jsonl", "out", "err"]) rmSync(`${base}.${ext}`, { force: true });
    }
  }

  /** One pulumi process; its stdout and stderr through pipes, or through the files `<outputTo>.out` and `.err`. */
  private run(args: string[], outputTo?: string): Promise<CommandOutput> {
    return new Promise((resolve, reject) => {
      const files = outputTo === undefined ? undefined : [openSync(`${outputTo}.out`, "w+", 0o600), openSync(`${outputTo}.err`, "w+", 0o600)];
      const child = spawn("pulumi", [...args, "--stack", this.name], {
        cwd: this.workDir,
        // PULUMI_DEBUG_COMMANDS: without it the CLI has no `--event-log` (as the Automation API sets it).
        env: { ...process.env, ...this.env, PULUMI_DEBUG_COMMANDS: "true" },
        stdio: ["ignore", files?.[0] ?? "pipe", files?.[1] ?? "pipe"],
      });
      for (const fd of files ?? []) closeSync(fd); // the child has its own
      let stdout = "";
      let stderr = "";
      child.stdout?.setEncoding("utf8").on("data", (t: string) => (stdout += t));
      child.stderr?.setEncoding("utf8").on("data", (t: string) => (stderr += t));
      child.on("error", (e: NodeJS.ErrnoException) => reject(e.code === "ENOENT" ? new StackUnavailable(PULUMI_NOT_ON_PATH) : e));
      child.on("close", (code) => {
        if (outputTo !== undefined) [stdout, stderr] = [readFileSync(`${outputTo}.out`, "utf8"), readFileSync(`${outputTo}.err`, "utf8")];
        if (code === 0) resolve({ stdout, stderr });
        else if (/no stack named .* found/.test(stderr))
          reject(new StackUnavailable(`stack '${this.name}' does not exist (\`pulumi stack ls\` lists this project's stacks)`));
        else reject(new PulumiCommandError({ stdout, stderr, code }));
      });
    });
  }
}

/**
 * Follows the engine's event log (`--event-log`: one JSON engine event a line) while pulumi writes
 * it, calling `onEvent` for each complete line; `stop` reads what is left. Polled every 50 ms, so
 * an event's time as the caller sees it is within about that of the engine's.
 */
function tailEngineEvents(file: string, onEvent: (e: EngineEvent) => void): { stop(): void } {
  let fd: number | undefined;
  let pending = "";
  const buffer = Buffer.alloc(64 * 1024);
  const utf8 = new StringDecoder("utf8"); // a read may end inside a character
  const drain = () => {
    if (fd === undefined) {
      try {
        fd = openSync(file, "r");
      } catch {
        return; // pulumi has not made it yet
      }
    }
    for (let n = readSync(fd, buffer); n > 0; n = readSync(fd, buffer)) pending += utf8.write(buffer.subarray(0, n));
    const lines = pending.split("\n");
    pending = lines.pop() ?? "";
    for (const line of lines) if (line.trim() !== "") onEvent(JSON.parse(line) as EngineEvent);
  };
  const timer = setInterval(drain, 50);
  return {
    stop() {
      clearInterval(timer);
      drain();
      if (fd !== undefined) closeSync(fd);
    },
  };
}
