/**
 * Tacker's rollback of a failed LCM operation on the lab OpenStack, by `nfv rollback`: a scalable
 * VM VNF of our own (test/fixtures/packages/scalable-vm: one VDU, each VNFC on the lab network,
 * reachable over SSH) whose `scale_end` and `heal_end` hooks fail (the injected failure,
 * test/fixtures/vnf/hooks/fail.sh). A scale-out fails on the new VNFC, which stays half-made;
 * the rollback's preview shows its deletion and leaves the stack as it is; the rollback puts the
 * config back and its `up` deletes the new VNFC's server, port and VM host, leaving the VNF as it
 * was. A heal whose `heal_end` fails is rolled back the same way (the new server stays: a heal
 * cannot give the old one back, as in Tacker). Needs the openstack provider plugin; skipped without it.
 */
import { existsSync, readFileSync, readdirSync } from "node:fs";
import * as path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ROOT, runNfv, until } from "./harness";
import { openLabStack, type LabStack } from "./lab/lab-stack";
import { openstackCli, openstackLabEnabled } from "./lab/openstack";
import { scalableVmPackage } from "../fixtures/scalable-vm-package";
import { hookOps as opsOn, scalableVmRequest } from "./lab/scalable-vm";

const STACK = "it-rollback";
const VNF = "rb";
const enabled = openstackLabEnabled();

let lab!: LabStack;

interface Server {
  ID: string;
  Name: string;
  Status: string;
}

const os = <T>(...args: string[]) => openstackCli<T>(lab.facts, args);
const ours = <T extends { Name: string }>(xs: T[]) => xs.filter((x) => x.Name.startsWith(`${VNF}-`)).sort((a, b) => a.Name.localeCompare(b.Name));
const servers = () => ours(os<Server[]>("server", "list"));
const portNames = () => ours(os<{ Name: string }[]>("port", "list")).map((p) => p.Name);
const nfv = (...args: string[]) => runNfv(lab.local.env, [args[0], "--stack", STACK, ...args.slice(1)]);
const pointFile = () => path.join(ROOT, ".pulumi-nfv", "rollback", `${STACK}.json`);
const settingsFile = () => path.join(ROOT, "stacks", `Pulumi.${STACK}.yaml`);
const hookOps = (serverId: string) => opsOn(lab.facts, serverId);
const vmHostLeft = (id: string) => readdirSync(path.join(lab.facts.state_dir, "hosts")).includes(id);

describe.skipIf(!enabled)("nfv rollback of a failed scale-out and heal on the lab OpenStack (a hook that fails on one VNFC)", () => {
  beforeAll(async () => {
    lab = await openLabStack(STACK);
    await lab.set(`vnfs.${VNF}.vim`, "lab");
    await lab.set(`vnfs.${VNF}.package`, scalableVmPackage(lab.work));
    await lab.set(`vnfs.${VNF}.instantiate_request`, scalableVmRequest(lab.work, lab.facts));
    await lab.setSsh(VNF, "cirros", "workerCp");
    await lab.set(`vnfs.${VNF}.hooks.instantiate_end`, path.join(ROOT, "test/fixtures/vnf/hooks/record.sh"));
    await lab.set(`vnfs.${VNF}.hooks.scale_end`, path.join(ROOT, "test/fixtures/vnf/hooks/fail.sh"));
  }, 1_800_000);

  afterAll(async () => {
    await lab?.close();
  }, 900_000);

  let worker0 = "";
  it("up: one worker, its instantiate_end hook ran", async () => {
    const up = await lab.stack.up({ color: "never" });
    expect(up.summary.result).toBe("succeeded");
    expect(servers().map((s) => [s.Name, s.Status])).toEqual([[`${VNF}-worker-0`, "ACTIVE"]]);
    worker0 = servers()[0].ID;
    expect(hookOps(worker0)).toEqual(["instantiate_end"]);
  });

  let settingsBefore = "";
  let worker1 = "";
  it("nfv scale out: scale_end fails on the new VNFC, which is left half-made; the rollback point holds the settings file as it was", async () => {
    settingsBefore = readFileSync(settingsFile(), "utf8");
    const r = await nfv("scale", "--vnf", VNF, "--aspect", "worker_aspect", "--steps", "1", "--type", "out");
    expect(r.code).toBe(1);
    expect(r.out).toMatch(/rb-worker-1-scale_end/);
    expect(r.out).toContain(`nfv rollback --stack ${STACK}`);
    expect(servers().map((s) => s.Name)).toEqual([`${VNF}-worker-0`, `${VNF}-worker-1`]);
    worker1 = servers()[1].ID;
    expect(hookOps(worker1)).toEqual(["scale_end failed"]);
    expect(readFileSync(settingsFile(), "utf8")).not.toBe(settingsBefore);
    const point = JSON.parse(readFileSync(pointFile(), "utf8")) as { command: string; settingsBase64: string };
    expect(point.command).toBe("scale");
    expect(Buffer.from(point.settingsBase64, "base64").toString("utf8")).toBe(settingsBefore);
  });

  it("nfv rollback --preview: the new VNFC's deletion shown; the stack file, the point and the servers as they were", async () => {
    const failed = readFileSync(settingsFile(), "utf8");
    const r = await nfv("rollback", "--preview");
    expect(r.code, r.out).toBe(0);
    expect(r.out).toContain("rollback of the scale that failed at");
    expect(r.out).toMatch(/- \d+ to delete/);
    expect(r.out).toMatch(/::rb-worker-1\]/);
    expect(readFileSync(settingsFile(), "utf8")).toBe(failed);
    expect(existsSync(pointFile())).toBe(true);
    expect(servers().map((s) => s.ID)).toEqual([worker0, worker1]);
  });

  it("nfv rollback: the config as before the scale; the new VNFC's server, port and VM host gone, worker-0 untouched; the point gone", async () => {
    const r = await nfv("rollback");
    expect(r.code, r.out).toBe(0);
    expect(readFileSync(settingsFile(), "utf8")).toBe(settingsBefore);
    expect(servers().map((s) => s.ID)).toEqual([worker0]);
    expect(portNames()).toEqual([`${VNF}-worker-0-workerCp`]);
    await until("the new VNFC's VM host gone", 120, () => !vmHostLeft(worker1));
    expect(hookOps(worker0)).toEqual(["instantiate_end"]);
    expect(existsSync(pointFile())).toBe(false);
    const again = await lab.stack.up({ color: "never" });
    expect(Object.entries(again.summary.resourceChanges ?? {}).filter(([op, n]) => op !== "same" && (n ?? 0) > 0)).toEqual([]);
    const none = await nfv("rollback");
    expect(none.code).toBe(1);
    expect(none.out).toContain(`stack '${STACK}' has no failed operation to roll back`);
  });

  it("nfv heal --vnfc worker-0 whose heal_end fails, then nfv rollback: the heal generation as before, the new server kept, no heal_end left", async () => {
    await lab.set(`vnfs.${VNF}.hooks.heal_end`, path.join(ROOT, "test/fixtures/vnf/hooks/fail.sh"));
    settingsBefore = readFileSync(settingsFile(), "utf8");
    const r = await nfv("heal", "--vnf", VNF, "--vnfc", "worker-0");
    expect(r.code).toBe(1);
    expect(r.out).toMatch(/rb-worker-0-heal_end/);
    const [healed] = servers();
    expect(healed.ID).not.toBe(worker0);
    expect(hookOps(healed.ID)).toEqual(["heal_end failed"]);
    const back = await nfv("rollback");
    expect(back.code, back.out).toBe(0);
    expect(readFileSync(settingsFile(), "utf8")).toBe(settingsBefore);
    expect(servers().map((s) => [s.ID, s.Status])).toEqual([[healed.ID, "ACTIVE"]]);
    const state = (await lab.stack.exportStack()).deployment.resources as { urn: string }[];
    expect(state.filter((x) => x.urn.includes("heal_end"))).toEqual([]);
    expect(existsSync(pointFile())).toBe(false);
  });
});
