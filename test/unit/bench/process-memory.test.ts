/** The memory of a Pulumi run by role, from a process table: what is below the root and nothing else, summed per role. */
import { describe, expect, it } from "vitest";
import { describeMemory, memoryByRole, type ProcSample } from "../../../bench/process-memory";

const proc = (pid: number, ppid: number, exe: string, rssKiB = 0, pssKiB = 0): ProcSample => ({ pid, ppid, exe, rssKiB, pssKiB });

describe("memoryByRole", () => {
  // bench (10) → pulumi (11) → language host (12) → program (13); providers below the engine; a
  // second node elsewhere on the machine and a provider of another run are not counted.
  const table = [
    proc(1, 0, "systemd"),
    proc(10, 1, "node", 500 * 1024, 400 * 1024),
    proc(11, 10, "pulumi", 200 * 1024, 150 * 1024),
    proc(12, 11, "pulumi-language-nodejs", 40 * 1024, 30 * 1024),
    proc(13, 12, "node", 300 * 1024, 250 * 1024),
    proc(14, 11, "pulumi-resource-openstack", 120 * 1024, 100 * 1024),
    proc(15, 11, "pulumi-resource-openstack", 80 * 1024, 60 * 1024),
    proc(16, 11, "pulumi-resource-command", 30 * 1024, 20 * 1024),
    proc(17, 16, "bash", 4 * 1024, 4 * 1024),
    proc(20, 1, "node", 900 * 1024, 900 * 1024),
    proc(21, 1, "pulumi-resource-openstack", 999 * 1024, 999 * 1024),
  ];

  it("the engine, the language host, the program (node below a language host) and each provider, summed over its processes", () => {
    const roles = memoryByRole(table, 10);
    expect(Object.fromEntries(roles)).toEqual({
      engine: { rssMiB: 200, pssMiB: 150, procs: 1 },
      "language host": { rssMiB: 40, pssMiB: 30, procs: 1 },
      program: { rssMiB: 300, pssMiB: 250, procs: 1 },
      "provider openstack": { rssMiB: 200, pssMiB: 160, procs: 2 },
      "provider command": { rssMiB: 30, pssMiB: 20, procs: 1 },
    });
  });

  it("nothing below the root: no role", () => {
    expect(memoryByRole(table, 20).size).toBe(0);
  });

  it("describes the engine first, then the language host, the program and the providers by name", () => {
    expect(describeMemory(memoryByRole(table, 10))).toBe(
      "engine RSS 200 / PSS 150 MiB, language host RSS 40 / PSS 30 MiB, program RSS 300 / PSS 250 MiB, " +
        "provider command RSS 30 / PSS 20 MiB, provider openstack (2 processes) RSS 200 / PSS 160 MiB",
    );
  });
});
