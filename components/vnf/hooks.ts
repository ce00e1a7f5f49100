/**
 * Mgmt Driver hooks as `@pulumi/command` resources.
 *
 * Tacker runs a Python driver at each `Vnflcm` operation. We run a shell script on each VNFC over
 * SSH instead, as `remote.Command`s whose order Pulumi's dependency graph enforces:
 *
 *   server (+ volume attachments) → ssh-ready → copy scripts/files
 *     → instantiate_start (every VNFC) → instantiate_end (every VNFC)      [VNFCs of instantiation]
 *     → scale_end                                                           [VNFCs added by scale-out]
 *     → heal_end                                                            [VNFCs with heal generation > 0]
 *   heal_start: created before the server is replaced (the server depends on it) — see `heal.ts`
 *   change_current_package_start / _end: the same around a VNFC's change of package (its server
 *     rebuilt on the new image or resized in place), each with the VNFC's package generation as
 *     trigger; the SSH wait and the copies run again after it (`bootTriggers`)
 *   change_external_connectivity_start: before the VNFC's ports change (they depend on it), on
 *     the address the VNFC had before; _end: after the change, on the new address
 *   terminate_start, then terminate_end: `delete` commands, run before the server is deleted
 *   scale_start: `delete` command of VNFCs added by scale-out, run when scale-in removes them
 *
 * Secrets reach scripts only through `stdin` (a Pulumi secret); command strings hold nothing but
 * the script path and non-secret arguments, because they are stored in state in plain text.
 */
import { createHash } from "node:crypto";
import { readFileSync } from "node:fs";
import * as path from "node:path";
import * as command from "@pulumi/command";
import * as pulumi from "@pulumi/pulumi";
import type { LcmOperation } from "./plan";

/** Where scripts and files land on the VM. */
export const REMOTE_DIR = "/var/tmp/nfv";

/** SSH access to every VNFC; the host is the first fixed IP of the port of `cpId`. */
export interface SshArgs {
  /**
   * CP whose port address is dialled (Tacker `ssh_cp_name`); a list when VDUs differ (e.g. master
   * and worker CPs): each VNFC uses the first listed CP it has.
   */
  cpId: string | string[];
  /** Login user (Tacker `ssh_username`). */
  user: pulumi.Input<string>;
  /** Private key (preferred); kept secret. */
  privateKey?: pulumi.Input<string>;
  /** Password (Tacker parity); kept secret. */
  password?: pulumi.Input<string>;
  /** Pinned host key, authorized_keys format; without it the host key is not checked. */
  hostKey?: pulumi.Input<string>;
  /** SSH port; default 22. */
  port?: pulumi.Input<number>;
  /** Failed dials before giving up while the VM boots; default 60. */
  dialErrorLimit?: pulumi.Input<number>;
  /** Seconds per dial; default 15. */
  perDialTimeout?: pulumi.Input<number>;
}

/** One script bound to one LCM operation. */
export interface HookScript {
  operation: LcmOperation;
  /** Local path of the script; copied to `${REMOTE_DIR}/<basename>` with `CopyToRemote`. */
  script: string;
  /** Non-secret arguments for the command line (never a secret: command strings are stored in plain text). */
  args?: string[];
  /** Parameters on stdin (`key=value` lines); always stored as a secret. */
  stdin?: pulumi.Input<string>;
  /** Run on VNFCs of these VDUs only; default every VDU. */
  vdus?: string[];
  /** Run through `sudo -n`; default true. */
  sudo?: boolean;
}

/** A file copied to each targeted VNFC before its hooks run (e.g. a `docker save` tarball). */
export interface HookFile {
  /** Local path. */
  source: string;
  /** Absolute path on the VM. */
  remotePath: string;
  vdus?: string[];
}

/** What the hook wiring needs to know about one VNFC. */
export interface VnfcTarget {
  id: string;
  vduId: string;
  /** Created by scale-out (gets `scale_end`/`scale_start` instead of instantiate hooks). */
  scaledOut: boolean;
  host: pulumi.Input<string>;
  serverId: pulumi.Input<string>;
  /** Server and volume attachments: hooks wait for them. */
  dependsOn: pulumi.Resource[];
  /** Heal generation; > 0 registers heal hooks with this value as trigger. */
  healGeneration: number;
  /** Changes of package the VNFC went through; > 0 registers `change_current_package_end` with it as trigger. */
  packageGeneration?: number;
  /** External connectivity change generation; > 0 registers `change_external_connectivity_end` with it as trigger. */
  extConnGeneration?: number;
  /** Volume ids by storage id, substituted for `${volume:<storageId>}` in a hook's stdin. */
  volumeIds?: Record<string, pulumi.Input<string>>;
}

/** The hook's stdin for one VNFC, as a secret, with `${volume:<id>}` placeholders filled in. */
export function stdinFor(h: HookScript, v: Pick<VnfcTarget, "volumeIds">): pulumi.Output<string> | undefined {
  if (h.stdin === undefined) return undefined;
  return pulumi.secret(
    pulumi
      .all([h.stdin, pulumi.all(v.volumeIds ?? {})])
      .apply(([text, vols]) => text.replace(/\$\{volume:([^}]+)\}/g, (_m, id: string) => (vols as Record<string, string>)[id] ?? "")),
  );
}

export type HookCommand = command.remote.Command | command.remote.CopyToRemote;

/**
 * Every remote Command of ours. Upstream's provider sends the previous run's stdout and stderr to
 * the host as SSH environment variables before an update or delete: sshd refuses them without
 * `AcceptEnv` (a warning on every delete), and a credential step's stdout must not travel again.
 * No script of ours reads them.
 */
export function remoteCommand(name: string, args: command.remote.CommandArgs, opts: pulumi.CustomResourceOptions): command.remote.Command {
  return new command.remote.Command(name, { ...args, addPreviousOutputInEnv: false }, opts);
}

/** Resource names are `${name}-${vnfcId}-<step>`; the order in which they were declared. */
export interface WiredHooks {
  /** Every command, keyed by resource name, in declaration order. */
  commands: Map<string, HookCommand>;
  /** Hook steps as `vnfcId:operation`, in the order they run (deletes: in the order they run at delete). */
  order: string[];
}

export function connectionFor(ssh: SshArgs, host: pulumi.Input<string>): command.types.input.remote.ConnectionArgs {
  const c: command.types.input.remote.ConnectionArgs = {
    host,
    user: ssh.user,
    port: ssh.port ?? 22,
    dialErrorLimit: ssh.dialErrorLimit ?? 60,
    perDialTimeout: ssh.perDialTimeout ?? 15,
  };
  if (ssh.privateKey !== undefined) c.privateKey = pulumi.secret(ssh.privateKey);
  if (ssh.password !== undefined) c.password = pulumi.secret(ssh.password);
  if (ssh.hostKey !== undefined) c.hostKey = ssh.hostKey;
  return c;
}

/** POSIX single-quote quoting for a command-line word. */
export function shq(word: string): string {
  return /^[A-Za-z0-9_./:=@%+-]+$/.test(word) ? word : `'${word.replace(/'/g, `'\\''`)}'`;
}

export function hookCommandLine(h: HookScript): string {
  const words = [`${REMOTE_DIR}/${path.basename(h.script)}`, ...(h.args ?? [])].map(shq);
  return `${h.sudo === false ? "" : "sudo -n "}/bin/bash ${words.join(" ")}`;
}

const targets = (h: { vdus?: string[] }, v: { vduId: string }) => !h.vdus || h.vdus.includes(v.vduId);
const sha256 = (data: string | Buffer) => createHash("sha256").update(data).digest("hex");
const fileHash = (p: string) => sha256(readFileSync(p));

/**
 * The `update` of every hook that runs at create: a changed connection (the VNFC's address moved,
 * `change-ext-conn`) updates the command in state without running the hook again, as the
 * command provider runs `create` on update when no `update` is given. Hooks that must run
 * again are replaced instead, through their triggers.
 */
const UPDATE_WITHOUT_RERUN = "true";

/** Triggers of a create hook: the script's hash and, as a secret, the hash of its stdin, so that a change of either runs it again. */
function createTriggers(h: HookScript, stdin: pulumi.Output<string> | undefined): pulumi.Input<unknown>[] {
  return [fileHash(h.script), ...(stdin ? [pulumi.secret(stdin.apply((text) => sha256(text)))] : [])];
}

/**
 * `heal_start` (or `change_current_package_start`) commands for VNFCs whose heal (package)
 * generation is > 0. Call before creating the servers and pass the result in the server's
 * `dependsOn`: Pulumi then runs the script on the old server, reached through the kept port,
 * before it replaces the server.
 */
export function serverStartCommands(
  parent: pulumi.Resource,
  name: string,
  vnfcs: VnfcTarget[],
  hooks: HookScript[],
  ssh: SshArgs | undefined,
  operation: "heal_start" | "change_current_package_start",
): Map<string, command.remote.Command> {
  const out = new Map<string, command.remote.Command>();
  if (!ssh) return out;
  for (const v of vnfcs) {
    const generation = (operation === "heal_start" ? v.healGeneration : v.packageGeneration) ?? 0;
    if (generation <= 0) continue;
    for (const h of hooks.filter((x) => x.operation === operation && targets(x, v))) {
      const n = `${name}-${v.id}-${operation}`;
      out.set(
        v.id,
        remoteCommand(
          n,
          {
            connection: connectionFor(ssh, v.host),
            create: hookCommandLine(h),
            update: UPDATE_WITHOUT_RERUN,
            ...(h.stdin !== undefined ? { stdin: stdinFor(h, v) } : {}),
            triggers: [generation],
          },
          { parent },
        ),
      );
    }
  }
  return out;
}

/**
 * `change_external_connectivity_start` commands, once a change was made (`generation` ≥ 1), for
 * the VNFCs with a known previous address. Call before creating the ports and pass the result in
 * their `dependsOn`: the script runs while the old connectivity is in place, dialling the address
 * the VNFC had (a changed port may get a new one, which is not known before it changes).
 */
export function extConnStartCommands(
  parent: pulumi.Resource,
  name: string,
  vnfcs: { id: string; vduId: string }[],
  hooks: HookScript[],
  ssh: SshArgs | undefined,
  change: { generation: number; previousAddresses: Record<string, string> } | undefined,
): Map<string, command.remote.Command> {
  const out = new Map<string, command.remote.Command>();
  if (!ssh || !change || change.generation <= 0) return out;
  for (const v of vnfcs) {
    const host = change.previousAddresses[v.id];
    if (host === undefined) continue; // added since the last change: it had no previous connectivity
    for (const h of hooks.filter((x) => x.operation === "change_external_connectivity_start" && targets(x, v))) {
      const n = `${name}-${v.id}-change_external_connectivity_start`;
      out.set(
        v.id,
        remoteCommand(
          n,
          {
            connection: connectionFor(ssh, host),
            create: hookCommandLine(h),
            update: UPDATE_WITHOUT_RERUN,
            ...(h.stdin !== undefined ? { stdin: stdinFor(h, {}) } : {}),
            triggers: [change.generation],
          },
          { parent },
        ),
      );
    }
  }
  return out;
}

/**
 * What makes a VNFC's root disk new, so that the SSH wait and the copies run again: a new server,
 * or a change of package, which rebuilds the server in place on its new image (Nova's rebuild, as
 * Heat does it for Tacker: same server id, a fresh root disk).
 */
function bootTriggers(v: VnfcTarget): pulumi.Input<unknown>[] {
  return [v.serverId, ...((v.packageGeneration ?? 0) > 0 ? [`package-${v.packageGeneration}`] : [])];
}

/** Every other hook step, after the servers exist. */
export function wireHooks(
  parent: pulumi.Resource,
  name: string,
  vnfcs: VnfcTarget[],
  hooks: HookScript[],
  files: HookFile[],
  ssh: SshArgs | undefined,
): WiredHooks {
  const commands = new Map<string, HookCommand>();
  const order: string[] = [];
  if (!ssh || (hooks.length === 0 && files.length === 0)) return { commands, order };
  const opts = (dependsOn: pulumi.Input<pulumi.Resource>[]): pulumi.CustomResourceOptions => ({ parent, dependsOn });
  const run = (v: VnfcTarget, op: LcmOperation, deps: pulumi.Resource[], extra: Partial<command.remote.CommandArgs> = {}, record = true) => {
    const hs = hooks.filter((h) => h.operation === op && targets(h, v));
    const made: command.remote.Command[] = [];
    hs.forEach((h, i) => {
      const n = `${name}-${v.id}-${op}${hs.length > 1 ? `-${i}` : ""}`;
      const isDelete = op === "terminate_start" || op === "terminate_end" || op === "scale_start";
      const stdin = stdinFor(h, v);
      const args: command.remote.CommandArgs = {
        connection: connectionFor(ssh, v.host),
        ...(isDelete ? { delete: hookCommandLine(h) } : { create: hookCommandLine(h), update: UPDATE_WITHOUT_RERUN }),
        ...(stdin !== undefined ? { stdin } : {}),
        // A changed script or stdin runs again; but a delete-only command must never be replaced,
        // as replacing it runs its delete (a terminate hook on a VNFC that lives on). Its
        // connection is still updated in place, so the delete dials the current address.
        ...(isDelete ? {} : { triggers: createTriggers(h, stdin) }),
        ...extra,
      };
      const c = remoteCommand(n, args, opts([...deps, ...made]));
      commands.set(n, c);
      made.push(c);
      if (record) order.push(`${v.id}:${op}`);
    });
    return made;
  };

  const ready = new Map<string, pulumi.Resource[]>();
  for (const v of vnfcs) {
    const needed = hooks.some((h) => targets(h, v)) || files.some((f) => targets(f, v));
    if (!needed) continue;
    const conn = connectionFor(ssh, v.host);
    const wait = remoteCommand(
      `${name}-${v.id}-ssh-ready`,
      {
        connection: conn,
        create: "cloud-init status --wait >/dev/null 2>&1 || true",
        triggers: bootTriggers(v),
      },
      opts(v.dependsOn),
    );
    commands.set(`${name}-${v.id}-ssh-ready`, wait);
    const copies: pulumi.Resource[] = [];
    const scripts = [...new Set(hooks.filter((h) => targets(h, v)).map((h) => h.script))];
    for (const s of scripts) {
      const n = `${name}-${v.id}-copy-${path.basename(s)}`;
      const c = new command.remote.CopyToRemote(
        n,
        { connection: conn, source: new pulumi.asset.FileAsset(s), remotePath: `${REMOTE_DIR}/${path.basename(s)}`, triggers: bootTriggers(v) },
        opts([wait]),
      );
      commands.set(n, c);
      copies.push(c);
    }
    for (const f of files.filter((x) => targets(x, v))) {
      const n = `${name}-${v.id}-copy-${path.basename(f.source)}`;
      const c = new command.remote.CopyToRemote(
        n,
        { connection: conn, source: new pulumi.asset.FileAsset(f.source), remotePath: f.remotePath, triggers: bootTriggers(v) },
        opts([wait]),
      );
      commands.set(n, c);
      copies.push(c);
    }
    ready.set(v.id, copies.length > 0 ? copies : [wait]);
  }
  const live = vnfcs.filter((v) => ready.has(v.id));
  const initial = live.filter((v) => !v.scaledOut);
  const starts = initial.flatMap((v) => run(v, "instantiate_start", ready.get(v.id)!));
  for (const v of initial) run(v, "instantiate_end", [...ready.get(v.id)!, ...starts]);
  for (const v of live.filter((x) => x.scaledOut)) {
    run(v, "scale_end", ready.get(v.id)!);
    run(v, "scale_start", ready.get(v.id)!);
  }
  for (const v of live.filter((x) => x.healGeneration > 0)) {
    run(v, "heal_end", ready.get(v.id)!, { triggers: [v.healGeneration] });
  }
  for (const v of live.filter((x) => (x.packageGeneration ?? 0) > 0)) {
    run(v, "change_current_package_end", ready.get(v.id)!, { triggers: [v.packageGeneration] });
  }
  for (const v of live.filter((x) => (x.extConnGeneration ?? 0) > 0)) {
    run(v, "change_external_connectivity_end", ready.get(v.id)!, { triggers: [v.extConnGeneration] });
  }
  // Deletes run dependents first: terminate_start depends on terminate_end, so it runs before it.
  for (const v of live) {
    const ends = run(v, "terminate_end", ready.get(v.id)!, {}, false);
    const starts2 = run(v, "terminate_start", [...ready.get(v.id)!, ...ends], {}, false);
    order.push(...starts2.map(() => `${v.id}:terminate_start`), ...ends.map(() => `${v.id}:terminate_end`));
  }
  return { commands, order };
}
