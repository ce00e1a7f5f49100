/**
 * Tacker's Change Current VNF Package (RollingUpdate) of a VM VNF on the lab OpenStack, by `nfv
 * change-vnfpkg`: our scalable VM VNF (test/fixtures/packages/scalable-vm) at two VNFCs moves from
 * the cirros image to a version 2.0 package whose VDU boots `Software of VDU1`, one VNFC per
 * `up`, with the `change_current_package_start`/`_end` hooks around each. A package whose image
 * Glance does not have is refused before anything changes; an `_end` hook that fails stops the
 * change after the first VNFC (the second still on the old image), and `nfv rollback` brings that
 * first one back to the old image. Needs the openstack provider plugin; skipped without it.
 */
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import * as path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ROOT, runNfv } from "./harness";
import { openLabStack, type LabStack } from "./lab/lab-stack";
import { openstackCli, openstackLabEnabled } from "./lab/openstack";
import { scalableVmPackage } from "../fixtures/scalable-vm-package";
import { hookOps as opsOn, scalableVmRequest } from "./lab/scalable-vm";

const STACK = "it-change-vnfpkg";
const VNF = "cv";
const V1_ID = "9a3f6c1e-52b8-4d7a-9e0c-7b1d4f2a8c65";
const V2_ID = "5d0c7e2a-1b3f-4c6d-8e9a-0f1b2c3d4e5f";
const NO_IMAGE_ID = "7e1f3a5c-2d4b-4f6a-8c0e-1a2b3c4d5e6f";
const OLD_IMAGE = "cirros-0.5.2-x86_64-disk";
const NEW_IMAGE = "Software of VDU1";
const enabled = openstackLabEnabled();
const HOOKS = path.join(ROOT, "test/fixtures/vnf/hooks");

let lab!: LabStack;

interface Server {
  ID: string;
  Name: string;
}

const os = <T>(...args: string[]) => openstackCli<T>(lab.facts, args);
const servers = () =>
  os<Server[]>("server", "list")
    .filter((s) => s.Name.startsWith(`${VNF}-`))
    .sort((a, b) => a.Name.localeCompare(b.Name));
interface Booted {
  id: string;
  image: string;
  /** Nova's launched_at: a rebuild sets it anew. */
  launchedAt: string;
}
/** Server name → its id, the name of the image it runs and when it was (re)built. */
function booted(): Record<string, Booted> {
  const names = new Map(os<{ ID: string; Name: string }[]>("image", "list").map((i) => [i.ID, i.Name]));
  return Object.fromEntries(
    servers().map((s) => {
      const shown = os<{ image: string | { id: string }; "OS-SRV-USG:launched_at": string }>("server", "show", s.ID);
      const id = typeof shown.image === "string" ? (/\(([0-9a-f-]{36})\)/.exec(shown.image)?.[1] ?? shown.image) : shown.image.id;
      return [s.Name.slice(VNF.length + 1), { id: s.ID, image: names.get(id) ?? id, launchedAt: shown["OS-SRV-USG:launched_at"] }];
    }),
  );
}
const images = () => Object.fromEntries(Object.entries(booted()).map(([n, b]) => [n, b.image]));
const hookOps = (serverId: string) => opsOn(lab.facts, serverId);
const packageDir = (dir: string, edit?: (vnfd: string) => string) => scalableVmPackage(lab.work, dir, edit);
const nfv = (...args: string[]) => runNfv(lab.local.env, [args[0], "--stack", STACK, ...args.slice(1)]);
const settingsFile = () => path.join(ROOT, "stacks", `Pulumi.${STACK}.yaml`);
const pointFile = () => path.join(ROOT, ".pulumi-nfv", "rollback", `${STACK}.json`);

const version = (id: string, image: string) => (s: string) =>
  s
    .replaceAll(V1_ID, id)
    .replace('software_version: { type: string, default: "1.0" }', 'software_version: { type: string, default: "2.0" }')
    .replace(`name: ${OLD_IMAGE}`, `name: ${image}`);

describe.skipIf(!enabled)(
  "nfv change-vnfpkg of a VM VNF on the lab OpenStack: VNFC by VNFC, refused without its image, rolled back after a failed hook",
  () => {
    let v2 = "";
    let change = "";
    beforeAll(async () => {
      lab = await openLabStack(STACK);
      await lab.set(`vnfs.${VNF}.vim`, "lab");
      await lab.set(`vnfs.${VNF}.package`, packageDir("v1"));
      await lab.set(`vnfs.${VNF}.instantiate_request`, scalableVmRequest(lab.work, lab.facts));
      await lab.set(`vnfs.${VNF}.scale_levels.worker_aspect`, "1");
      await lab.setSsh(VNF, "cirros", "workerCp");
      await lab.set(`vnfs.${VNF}.hooks.instantiate_end`, path.join(HOOKS, "record.sh"));
      await lab.set(`vnfs.${VNF}.hooks.change_current_package_start`, path.join(HOOKS, "record.sh"));
      v2 = packageDir("v2", version(V2_ID, NEW_IMAGE));
      change = path.join(lab.work, "change.json");
      writeFileSync(
        change,
        JSON.stringify({ vnfdId: V2_ID, additionalParams: { upgrade_type: "RollingUpdate", vdu_params: [{ vdu_id: "worker" }], batch_size: 1 } }),
      );
    }, 1_800_000);

    afterAll(async () => {
      await lab?.close();
    }, 900_000);

    let before: Record<string, Booted> = {};
    it("up: two workers on the old image", async () => {
      const up = await lab.stack.up({ color: "never" });
      expect(up.summary.result).toBe("succeeded");
      before = booted();
      expect(images()).toEqual({ "worker-0": OLD_IMAGE, "worker-1": OLD_IMAGE });
    });

    it("a package whose image Glance lacks is refused before anything changes, naming the image and the VDU", async () => {
      const settings = readFileSync(settingsFile(), "utf8");
      const r = await nfv("change-vnfpkg", "--vnf", VNF, "--package", packageDir("no-image", version(NO_IMAGE_ID, "no-such-image")));
      expect(r.code).toBe(1);
      expect(r.out).toContain("CHANGE_VNFPKG_NO_IMAGE");
      expect(r.out).toContain("image 'no-such-image' of VDU worker");
      expect(readFileSync(settingsFile(), "utf8")).toBe(settings);
      expect(existsSync(pointFile())).toBe(false);
      expect(booted()).toEqual(before);
    });

    it("an _end hook that fails stops the change after worker-0 (worker-1 untouched, still on the old image); nfv rollback brings worker-0 back to it", async () => {
      await lab.set(`vnfs.${VNF}.hooks.change_current_package_end`, path.join(HOOKS, "fail.sh"));
      const settings = readFileSync(settingsFile(), "utf8");
      const r = await nfv("change-vnfpkg", "--vnf", VNF, "--package", v2, "--request", change);
      expect(r.code).toBe(1);
      expect(r.out).toContain("step 1 of 2:");
      expect(r.out).toMatch(/cv-worker-0-change_current_package_end/);
      // worker-0 rebuilt in place on the new image (its server id kept, as Heat does for Tacker); worker-1 not touched.
      const mid = booted();
      expect(mid["worker-0"]).toMatchObject({ id: before["worker-0"].id, image: NEW_IMAGE });
      expect(mid["worker-0"].launchedAt).not.toBe(before["worker-0"].launchedAt);
      expect(mid["worker-1"]).toEqual(before["worker-1"]);
      // A rebuild is a fresh root disk: only the _end hook (after it) is in its log; the copies ran again.
      expect(hookOps(mid["worker-0"].id)).toEqual(["change_current_package_end failed"]);
      // worker-1 is the scaled-out VNFC (scale_end, not instantiate_end, would have run on it): no hook.
      expect(hookOps(mid["worker-1"].id)).toEqual([]);
      const config = readFileSync(settingsFile(), "utf8");
      expect(config).toContain("previous_package:");
      expect(config).toMatch(/pending:\s*\n\s*- worker-1/);

      const back = await nfv("rollback");
      expect(back.code, back.out).toBe(0);
      expect(readFileSync(settingsFile(), "utf8")).toBe(settings);
      const after = booted();
      expect(after["worker-0"]).toMatchObject({ id: before["worker-0"].id, image: OLD_IMAGE });
      expect(after["worker-0"].launchedAt).not.toBe(mid["worker-0"].launchedAt);
      expect(after["worker-1"]).toEqual(before["worker-1"]);
      const state = (await lab.stack.exportStack()).deployment.resources as { urn: string }[];
      expect(state.filter((x) => x.urn.includes("change_current_package"))).toEqual([]);
      expect(existsSync(pointFile())).toBe(false);
      before = after;
    });

    it("nfv change-vnfpkg: each worker rebuilt in turn on the new image, its _start hook before and _end after; a second up changes nothing", async () => {
      await lab.set(`vnfs.${VNF}.hooks.change_current_package_end`, path.join(HOOKS, "record.sh"));
      const r = await nfv("change-vnfpkg", "--vnf", VNF, "--package", v2, "--request", change);
      expect(r.code, r.out).toBe(0);
      expect(r.out).toContain("step 1 of 2 up: succeeded");
      expect(r.out).toContain("step 2 of 2 up: succeeded");
      // Both rebuilt on the new image, worker-0 (step 1) before worker-1 (step 2); the same servers.
      const now = booted();
      expect(Object.fromEntries(Object.entries(now).map(([n, b]) => [n, [b.id, b.image]]))).toEqual({
        "worker-0": [before["worker-0"].id, NEW_IMAGE],
        "worker-1": [before["worker-1"].id, NEW_IMAGE],
      });
      expect(Date.parse(now["worker-0"].launchedAt)).toBeGreaterThan(Date.parse(before["worker-1"].launchedAt));
      expect(Date.parse(now["worker-1"].launchedAt)).toBeGreaterThan(Date.parse(now["worker-0"].launchedAt));
      for (const [n, b] of Object.entries(now)) expect(hookOps(b.id), n).toEqual(["change_current_package_end"]);
      // _start ran on each VNFC before its rebuild (its stdout is in state; the rebuild wiped its log line).
      const state = (await lab.stack.exportStack()).deployment.resources as { urn: string; outputs?: { stdout?: string } }[];
      const starts = state.filter((x) => x.urn.endsWith("-change_current_package_start"));
      expect(starts.map((x) => x.urn.split("::").pop())).toEqual([
        `${VNF}-worker-0-change_current_package_start`,
        `${VNF}-worker-1-change_current_package_start`,
      ]);
      for (const s of starts) expect(s.outputs?.stdout).toContain("operation=change_current_package_start");
      const config = readFileSync(settingsFile(), "utf8");
      expect(config).not.toContain("previous_package:");
      expect(config).toContain(v2);
      const again = await lab.stack.up({ color: "never" });
      expect(Object.entries(again.summary.resourceChanges ?? {}).filter(([op, n]) => op !== "same" && (n ?? 0) > 0)).toEqual([]);
    });
  },
);
