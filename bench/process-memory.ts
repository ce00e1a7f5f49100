/**
 * Memory of a Pulumi run by role, for the benchmarks: the engine (the `pulumi` CLI), the language
 * host, the program (the node process the language host starts) and each resource provider, found
 * among the descendants of this process (the Automation API's `pulumi up` is its child), sampled
 * from /proc while the run goes. RSS counts pages shared with other processes in each of them;
 * PSS divides those among the sharers, so PSS adds up across processes and RSS does not.
 */
import { readdirSync, readFileSync } from "node:fs";
import { basename } from "node:path";

/** One process as /proc shows it; memory in KiB. */
export interface ProcSample {
  pid: number;
  ppid: number;
  /** argv[0]'s base name (a provider's comm is cut to 15 characters: `pulumi-resource`). */
  exe: string;
  rssKiB: number;
  pssKiB: number;
}

export interface RoleMemory {
  rssMiB: number;
  pssMiB: number;
  procs: number;
}

/**
 * The role of a descendant of the run's root: `engine`, `language host`, `program`, `provider
 * <name>`, or undefined for anything else (a hook's shell, a plugin's helper). The program is a
 * node process started by a language host.
 */
export function roleOf(p: ProcSample, byPid: Map<number, ProcSample>): string | undefined {
  if (p.exe === "pulumi") return "engine";
  if (p.exe.startsWith("pulumi-language-")) return "language host";
  if (p.exe.startsWith("pulumi-resource-")) return `provider ${p.exe.slice("pulumi-resource-".length)}`;
  if (p.exe === "node" && byPid.get(p.ppid)?.exe.startsWith("pulumi-language-")) return "program";
  return undefined;
}

/** The memory of each role among the processes below `root` (not `root` itself). */
export function memoryByRole(procs: ProcSample[], root: number): Map<string, RoleMemory> {
  const byPid = new Map(procs.map((p) => [p.pid, p]));
  const children = new Map<number, ProcSample[]>();
  for (const p of procs) children.set(p.ppid, [...(children.get(p.ppid) ?? []), p]);
  const roles = new Map<string, RoleMemory>();
  const queue = [...(children.get(root) ?? [])];
  for (let p = queue.shift(); p; p = queue.shift()) {
    queue.push(...(children.get(p.pid) ?? []));
    const role = roleOf(p, byPid);
    if (!role) continue;
    const m = roles.get(role) ?? { rssMiB: 0, pssMiB: 0, procs: 0 };
    roles.set(role, { rssMiB: m.rssMiB + p.rssKiB / 1024, pssMiB: m.pssMiB + p.pssKiB / 1024, procs: m.procs + 1 });
  }
  return roles;
}

/** The fields of /proc/<pid>/stat after the command's name: [0] state, [1] ppid, [2] pgrp, [3] session, … */
export function statFields(pid: string): string[] {
  const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
  return stat.slice(stat.lastIndexOf(")") + 2).split(" ");
}

/** A process's resident and proportional set sizes (KiB), from smaps_rollup. */
export function rollup(pid: string): { rssKiB: number; pssKiB: number } {
  const roll = readFileSync(`/proc/${pid}/smaps_rollup`, "utf8");
  return { rssKiB: Number(/^Rss:\s+(\d+)/m.exec(roll)?.[1] ?? 0), pssKiB: Number(/^Pss:\s+(\d+)/m.exec(roll)?.[1] ?? 0) };
}

/** The pids of the machine's processes. */
export const pids = (): string[] => readdirSync("/proc").filter((d) => /^\d+$/.test(d));

/** Every process of the machine, with its memory; one that exits while it is read is left out. */
function readProcs(): ProcSample[] {
  const out: ProcSample[] = [];
  for (const d of pids()) {
    try {
      const ppid = Number(statFields(d)[1]);
      const exe = basename(readFileSync(`/proc/${d}/cmdline`, "utf8").split("\0")[0]);
      // smaps_rollup costs more than stat: read it only for the processes a role can name
      const named = exe === "node" || exe === "pulumi" || exe.startsWith("pulumi-");
      out.push({ pid: Number(d), ppid, exe, ...(named ? rollup(d) : { rssKiB: 0, pssKiB: 0 }) });
    } catch {
      // gone meanwhile
    }
  }
  return out;
}

/** Samples the memory of this process's Pulumi descendants every `everyMs` from `start()` to `stop()`; `peaks()`: each role's largest PSS sample. */
export class PulumiMemorySampler {
  private largest = new Map<string, RoleMemory>();
  private timer?: NodeJS.Timeout;
  constructor(private everyMs = 500) {}
  start(): void {
    this.largest.clear();
    this.timer = setInterval(() => this.sample(), this.everyMs);
  }
  stop(): void {
    clearInterval(this.timer);
  }
  peaks(): Map<string, RoleMemory> {
    return new Map(this.largest);
  }
  private sample(): void {
    for (const [role, m] of memoryByRole(readProcs(), process.pid)) {
      if (m.pssMiB > (this.largest.get(role)?.pssMiB ?? -1)) this.largest.set(role, m);
    }
  }
}

/** `engine RSS 180 / PSS 170 MiB, provider openstack …` in a fixed order: engine, language host, program, providers. */
export function describeMemory(peaks: Map<string, RoleMemory>): string {
  const order = (r: string) => (r === "engine" ? 0 : r === "language host" ? 1 : r === "program" ? 2 : 3);
  const roles = [...peaks.keys()].sort((a, b) => order(a) - order(b) || a.localeCompare(b));
  if (roles.length === 0) return "no Pulumi process sampled";
  return roles
    .map((r) => {
      const m = peaks.get(r)!;
      return `${r}${m.procs > 1 ? ` (${m.procs} processes)` : ""} RSS ${m.rssMiB.toFixed(0)} / PSS ${m.pssMiB.toFixed(0)} MiB`;
    })
    .join(", ");
}
