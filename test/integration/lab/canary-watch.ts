/**
 * Where the canary scan of one integration file looks (installed for every file by
 * canary-setup.ts, the vitest setup file of the integration config):
 *
 * - every `pulumi up`, `preview`, `refresh` and `destroy` run through the Automation API (the
 *   tests' own stacks) or through `nfv`'s own stack client (ops/pulumi-stack.ts: `nfv` run
 *   in-process) gets an event listener: the engine's event log, each event as JSON, is kept, and so
 *   are the command's stdout and stderr, or its error;
 * - after each `up`, `refresh` and `destroy`: `pulumi stack export` and `pulumi stack output --json`
 *   of that stack, as an operator runs them (never `--show-secrets`);
 * - before each: the stack config's `secure:` values, registered as secrets to look for beside the
 *   canaries the test made (lab/canary.ts);
 * - a file backend's directory before the harness removes it (state, backups, history);
 * - every log file written during the run: the Pulumi CLI's ($PULUMI_HOME/logs, ~/.pulumi/logs),
 *   the labs' under $NFV_LAB_STATE, what this scan keeps under .test-results/canary/<file>/; only
 *   the bytes written since the file started;
 * - the process list: every command line seen during the run (/proc, every 200 ms, by
 *   process-sampler.mjs, a separate process so that a test blocked in execFileSync is still seen).
 *
 * At the end every place is searched for every secret in every form (plain, base64 at three
 * alignments, base64url, URL-encoded, JSON-escaped): any hit fails the file, naming the place, the
 * secret's purpose and the form, never the value. Everything scanned stays in
 * .test-results/canary/<file>/ with report.json.
 */
import { execFile } from "node:child_process";
import { closeSync, existsSync, mkdirSync, openSync, readdirSync, readFileSync, readSync, rmSync, statSync, writeFileSync } from "node:fs";
import { homedir } from "node:os";
import * as path from "node:path";
import { promisify } from "node:util";
import { gunzipSync } from "node:zlib";
import { LocalWorkspace, Stack, type ConfigMap, type ConfigValue, type EngineEvent } from "@pulumi/pulumi/automation";
import { PulumiStack } from "../../../ops/pulumi-stack";
import { parseYaml } from "../../../translators/yaml/located-yaml";
import { describeHits, MIN_NEEDLE, scanText, secrets, type Hit } from "./canary";
import { ProcessSampler, type ProcessListResult } from "./process-list";

const ROOT = path.join(__dirname, "../../..");
const run = promisify(execFile);
/** Bytes read of one log file at most (its last ones). */
const MAX_LOG_BYTES = 64 * 1024 * 1024;

type Op = "up" | "preview" | "refresh" | "destroy";
const OPS: Op[] = ["up", "preview", "refresh", "destroy"];

interface Place {
  place: string;
  file: string;
}

class Watch {
  readonly dir: string;
  private readonly places: Place[] = [];
  private readonly notes: string[] = [];
  private readonly hitsFound: Hit[] = [];
  private readonly logSizes = new Map<string, number>();
  private readonly logRoots: string[];
  private readonly sampler = new ProcessSampler();
  private seq = 0;

  constructor(readonly testFile: string) {
    const name = path
      .relative(path.join(ROOT, "test/integration"), testFile)
      .replace(/\.test\.ts$/, "")
      .replace(/[/\\]/g, "__");
    this.dir = path.join(ROOT, ".test-results/canary", name);
    rmSync(this.dir, { recursive: true, force: true });
    mkdirSync(this.dir, { recursive: true });
    const pulumiHome = process.env.PULUMI_HOME ?? path.join(homedir(), ".cache/pulumi-nfv/pulumi-home");
    this.logRoots = [path.join(pulumiHome, "logs"), path.join(homedir(), ".pulumi/logs"), process.env.NFV_LAB_STATE ?? "/var/lib/pulumi-nfv-lab"];
    for (const f of this.logFiles()) this.logSizes.set(f, sizeOf(f));
  }

  /** A text written for the scan (events, engine output, exports): kept, and scanned at the end. */
  keep(place: string, name: string, text: string): void {
    const file = path.join(this.dir, `${String(++this.seq).padStart(3, "0")}-${name}`);
    writeFileSync(file, text);
    this.places.push({ place, file });
  }

  note(text: string): void {
    this.notes.push(text);
  }

  /** Scans a directory now (it is about to be removed): a file backend's state, backups and history. */
  scanDirectoryNow(dir: string, label: string): void {
    for (const f of walk(dir)) {
      const text = readText(f, 0);
      this.hitsFound.push(...scanText(text, `${label}: ${path.relative(dir, f)}`));
      this.places.push({ place: `${label}: ${path.relative(dir, f)}`, file: "" });
    }
  }

  /** Tells the process sampler what to look for (every registered secret, every form). */
  sendNeedles(): void {
    this.sampler.lookFor(secrets.all());
  }

  /** A lab's directory whose log files count too (a lab a test starts in a directory of its own). */
  addLogRoot(dir: string): void {
    if (!this.logRoots.includes(dir)) this.logRoots.push(dir);
  }

  private logFiles(): string[] {
    return [...new Set(this.logRoots.flatMap((r) => logFilesUnder(r, 0)))];
  }

  private logsScanned = 0;
  private logBytes = 0;

  /** Scans what the log files got since the last look (or the file's start), now: before a lab removes its own. */
  scanLogsNow(): void {
    const all = secrets.all();
    for (const f of this.logFiles()) {
      const before = this.logSizes.get(f) ?? 0;
      const size = sizeOf(f);
      if (size === before && this.logSizes.has(f)) continue;
      const text = readText(f, size < before ? 0 : before);
      this.logSizes.set(f, size);
      this.logsScanned++;
      this.logBytes += text.length;
      this.hitsFound.push(...scanText(text, `log file ${f}`, all));
    }
  }

  /** Scans every place; throws when a secret is found anywhere. */
  async finish(): Promise<void> {
    this.sendNeedles();
    const all = secrets.all();
    for (const p of this.places.filter((x) => x.file)) this.hitsFound.push(...scanText(readFileSync(p.file, "utf8"), p.place, all));
    this.scanLogsNow();
    const logs = this.logsScanned;
    const logBytes = this.logBytes;
    const processes: ProcessListResult = await this.sampler.finish();
    if (processes.commandLines < 0) this.note("the process sampler gave no answer: the process list was not scanned");
    for (const h of processes.hits) this.hitsFound.push({ place: `process list (pid ${h.pid}, ${h.argv0})`, purpose: h.purpose, form: h.form, offset: 0 });
    const report = {
      file: path.relative(ROOT, this.testFile),
      secrets: all.map((s) => ({ purpose: s.purpose, canary: s.canary })),
      places: this.places.map((p) => p.place),
      logFiles: logs,
      logBytes,
      commandLines: processes.commandLines,
      notes: this.notes,
      hits: this.hitsFound,
    };
    writeFileSync(path.join(this.dir, "report.json"), `${JSON.stringify(report, null, 2)}\n`);
    const summary = `canary scan of ${report.file}: ${all.length} secrets (${all.filter((s) => s.canary).length} canaries), ${this.places.length} engine/state places, ${logs} log files (${logBytes} bytes), ${processes.commandLines} command lines: ${this.hitsFound.length} hits`;
    console.log(summary + (this.notes.length ? `\n  ${this.notes.join("\n  ")}` : ""));
    if (this.hitsFound.length > 0) throw new Error(`${summary}\n${describeHits(this.hitsFound)}\n(the scanned texts are in ${path.relative(ROOT, this.dir)})`);
  }
}

let current: Watch | undefined;

/** Starts the scan of `testFile` (canary-setup.ts); the Automation API is watched from now on. */
export function startWatch(testFile: string): Watch {
  // Secrets registered already (a canary made when the test file was loaded) are kept: vitest gives
  // each file its own module instances, so none is another file's.
  current = new Watch(testFile);
  current.sendNeedles();
  installStackHooks();
  return current;
}

/** `secrets.register`, and the process sampler told at once. */
export function registerSecret(purpose: string, value: string): void {
  secrets.register(purpose, value);
  current?.sendNeedles();
}

/** A new canary (lab/canary.ts), the process sampler told at once. */
export function newCanary(purpose: string): string {
  const v = secrets.canary(purpose);
  current?.sendNeedles();
  return v;
}

/** A private key file's secret parts: the whole text and its longest line. */
export function registerPrivateKeyFile(purpose: string, file: string): void {
  const text = readFileSync(file, "utf8");
  registerSecret(purpose, text.trim());
  const longest = text
    .split("\n")
    .filter((l) => !l.startsWith("-----"))
    .reduce((a, b) => (b.length > a.length ? b : a), "");
  if (longest.length >= MIN_NEEDLE) registerSecret(`${purpose} (a line of it)`, longest);
}

/** Log files under `dir` are scanned too (those written since the file started, or since now for a new directory). */
export function watchLogDir(dir: string): void {
  current?.addLogRoot(dir);
}

/**
 * The log files' new bytes scanned now, for a test about to remove a lab whose logs count (a lab
 * host's sshd.log goes with its directory). A secret registered later is not looked for in them.
 */
export function scanLogsNow(): void {
  current?.scanLogsNow();
}

/** For the harness: a backend directory about to be removed is scanned first. */
export function scanBeforeRemoving(dir: string, label: string): void {
  if (current && existsSync(dir)) current.scanDirectoryNow(dir, label);
}

/** What the scan needs of a stack, whichever client runs it: the Automation API's or nfv's (`watched`). */
interface WatchedStack {
  name: string;
  workDir: string;
  /** Added to this process's environment for its pulumi processes. */
  env: Record<string, string>;
  /** The pulumi CLI it runs. */
  cli: string;
  getAllConfig(): Promise<Record<string, { value: string }>>;
}

function watched(stack: Stack | PulumiStack): WatchedStack {
  if (stack instanceof PulumiStack)
    return { name: stack.name, workDir: stack.workDir, env: stack.env, cli: "pulumi", getAllConfig: () => stack.getAllConfig() };
  const ws = stack.workspace as { workDir: string; envVars?: Record<string, string>; pulumiCommand?: { command: string } };
  return { name: stack.name, workDir: ws.workDir, env: ws.envVars ?? {}, cli: ws.pulumiCommand?.command ?? "pulumi", getAllConfig: () => stack.getAllConfig() };
}

/**
 * Every secret of a stack's config file: the YAML paths of its `secure:` leaves, and the values
 * the CLI decrypts for them.
 */
export async function configSecrets(stack: Pick<WatchedStack, "getAllConfig">, stackFile: string): Promise<{ path: string; value: string }[]> {
  const doc = parseYaml(readFileSync(stackFile, "utf8"), stackFile).documents[0];
  const config = (doc.value as { config?: Record<string, unknown> }).config ?? {};
  const decrypted = await stack.getAllConfig();
  const out: { path: string; value: string }[] = [];
  const walkConfig = (node: unknown, plain: unknown, at: string[]) => {
    if (typeof node !== "object" || node === null) return;
    if ("secure" in node) {
      out.push({ path: at.join("."), value: typeof plain === "string" ? plain : JSON.stringify(plain) });
      return;
    }
    for (const [k, v] of Object.entries(node)) walkConfig(v, (plain as Record<string, unknown> | undefined)?.[k], [...at, k]);
  };
  for (const [key, node] of Object.entries(config)) {
    const raw = decrypted[key]?.value;
    walkConfig(node, raw === undefined ? undefined : tryJson(raw), [key]);
  }
  return out;
}

/** The stack's `secure:` config values become secrets to scan for (public certificates and short values excepted, said in the report). */
async function registerConfigSecrets(stack: WatchedStack): Promise<void> {
  const file = path.join(stack.workDir, "stacks", `Pulumi.${stack.name.split("/").pop()}.yaml`);
  if (!existsSync(file) || !readFileSync(file, "utf8").includes("secure:")) return;
  for (const s of await configSecrets(stack, file)) {
    if (/^-----BEGIN CERTIFICATE-----/.test(s.value.trim())) continue;
    if (s.value.length < MIN_NEEDLE) {
      current?.note(`config ${s.path} of ${stack.name}: ${s.value.length} characters, too short to scan for`);
      continue;
    }
    registerSecret(`config ${s.path}`, s.value);
  }
}

let hooked = false;

function installStackHooks(): void {
  if (hooked) return;
  hooked = true;
  // The Automation API sets config with the value on pulumi's command line: for a secret, refused.
  const ws = LocalWorkspace.prototype as unknown as {
    setConfig: (this: LocalWorkspace, stack: string, key: string, value: ConfigValue, path?: boolean) => Promise<void>;
    setAllConfig: (this: LocalWorkspace, stack: string, config: ConfigMap, path?: boolean) => Promise<void>;
  };
  const setConfig = ws.setConfig;
  ws.setConfig = function (stack, key, value, usePath) {
    if (value.secret)
      return Promise.reject(
        new Error(
          `setConfig(${key}, secret): the Automation API would put the secret on pulumi's command line, seen in the process list; use setSecretConfig (test/integration/harness.ts)`,
        ),
      );
    return setConfig.call(this, stack, key, value, usePath);
  };
  const setAllConfig = ws.setAllConfig;
  ws.setAllConfig = function (stack, config, usePath) {
    const secret = Object.entries(config).find(([, v]) => v.secret);
    if (secret)
      return Promise.reject(
        new Error(
          `setAllConfig(${secret[0]}, secret): the Automation API would put the secret on pulumi's command line; use setSecretConfig (test/integration/harness.ts)`,
        ),
      );
    return setAllConfig.call(this, stack, config, usePath);
  };
  const automation = Stack.prototype as unknown as Record<Op, StackOp<Stack>>;
  for (const op of OPS) automation[op] = watchedOp(op, automation[op]);
  // nfv's operations (up, preview) run the CLI through their own client.
  const nfv = PulumiStack.prototype as unknown as Record<"up" | "preview", StackOp<PulumiStack>>;
  for (const op of ["up", "preview"] as const) nfv[op] = watchedOp(op, nfv[op]);
}

type StackOp<S> = (this: S, opts?: { onEvent?: (e: EngineEvent) => void }) => Promise<{ stdout: string; stderr: string }>;

/** `original` with its events, output or error kept for the scan, and after an `up`, `refresh` or `destroy` the stack's export and outputs. */
function watchedOp<S extends Stack | PulumiStack>(op: Op, original: StackOp<S>): StackOp<S> {
  return async function (this: S, opts) {
    const w = current;
    if (!w) return original.call(this, opts);
    const stack = watched(this);
    await registerConfigSecrets(stack).catch((e: Error) => w.note(`config of ${stack.name} not read: ${e.message.split("\n")[0]}`));
    const events: string[] = [];
    const theirs = opts?.onEvent;
    const onEvent = (e: EngineEvent) => {
      events.push(JSON.stringify(e));
      theirs?.(e);
    };
    const label = `${op} of ${stack.name}`;
    try {
      const result = await original.call(this, { ...(opts ?? {}), onEvent });
      w.keep(`engine output of ${label}`, `${op}-${safe(stack.name)}-output.txt`, `${result.stdout}\n--- stderr ---\n${result.stderr}`);
      return result;
    } catch (e) {
      w.keep(`engine error of ${label}`, `${op}-${safe(stack.name)}-error.txt`, e instanceof Error ? `${e.message}\n${e.stack ?? ""}` : String(e));
      throw e;
    } finally {
      w.keep(`engine event log of ${label}`, `${op}-${safe(stack.name)}-events.jsonl`, events.join("\n"));
      if (op !== "preview") await snapshot(w, stack, label);
    }
  };
}

/** `pulumi stack export` and `pulumi stack output --json` of the stack, as an operator runs them (no --show-secrets). */
async function snapshot(w: Watch, stack: WatchedStack, after: string): Promise<void> {
  const env = { ...process.env, ...stack.env };
  for (const [what, args] of [
    ["stack export", ["stack", "export", "--stack", stack.name]],
    ["stack output --json", ["stack", "output", "--json", "--stack", stack.name]],
  ] as const) {
    try {
      const { stdout } = await run(stack.cli, [...args, "--non-interactive"], { cwd: stack.workDir, env, maxBuffer: 256 * 1024 * 1024 });
      w.keep(`${what} of ${stack.name} after ${after}`, `${what.split(" ")[1]}-${safe(stack.name)}.json`, stdout);
    } catch (e) {
      w.note(`${what} of ${stack.name} after ${after} failed: ${(e as Error).message.split("\n")[0]}`);
    }
  }
}

const safe = (s: string) => s.replace(/[^A-Za-z0-9._-]+/g, "_");

function tryJson(s: string): unknown {
  try {
    return JSON.parse(s);
  } catch {
    return s;
  }
}

function sizeOf(f: string): number {
  try {
    return statSync(f).size;
  } catch {
    return 0;
  }
}

/** Directories of the labs that hold no logs but many files (databases, root filesystems, images). */
const NOT_LOGS = new Set(["data", "root", "rootfs", "image", "images", "blobs", "pki", "keys", "etc", "node_modules", "plugins"]);

/** `*.log` files, and every file of a `log` or `logs` directory, four levels down at most. */
function logFilesUnder(dir: string, depth: number): string[] {
  let entries;
  try {
    entries = readdirSync(dir, { withFileTypes: true });
  } catch {
    return [];
  }
  const inLogDir = /^logs?$/.test(path.basename(dir));
  const out: string[] = [];
  for (const e of entries) {
    const full = path.join(dir, e.name);
    if (e.isDirectory()) {
      if (depth < 4 && !NOT_LOGS.has(e.name)) out.push(...logFilesUnder(full, depth + 1));
    } else if (e.isFile() && (inLogDir || /\.log(\.\d+)?$/.test(e.name))) out.push(full);
  }
  return out;
}

function walk(dir: string): string[] {
  const out: string[] = [];
  let entries;
  try {
    entries = readdirSync(dir, { withFileTypes: true });
  } catch {
    return out;
  }
  for (const e of entries) {
    const full = path.join(dir, e.name);
    if (e.isDirectory()) out.push(...walk(full));
    else if (e.isFile()) out.push(full);
  }
  return out;
}

/** A file's text from byte `from` (at most its last MAX_LOG_BYTES); a gzip file whole, decompressed. */
function readText(f: string, from: number): string {
  const size = sizeOf(f);
  const start = Math.max(from, size - MAX_LOG_BYTES);
  const buf = Buffer.alloc(Math.max(size - start, 0));
  let fd: number;
  try {
    fd = openSync(f, "r");
  } catch (e) {
    // Removed since it was listed: another file's lab (phases run side by side) took its logs away.
    if ((e as NodeJS.ErrnoException).code === "ENOENT") return "";
    throw e;
  }
  try {
    readSync(fd, buf, 0, buf.length, start);
  } finally {
    closeSync(fd);
  }
  if (start === 0 && buf[0] === 0x1f && buf[1] === 0x8b) {
    try {
      return gunzipSync(buf).toString("utf8");
    } catch {
      // not gzip after all
    }
  }
  return buf.toString("utf8");
}
