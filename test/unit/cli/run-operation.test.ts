/** `runOperation`: `--preview` previews and puts the config back; `up` keeps the changes; a failed `up` leaves a rollback point for `runRollback`. */
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import * as path from "node:path";
import { describe, expect, it } from "vitest";
import { fakeStack } from "../helpers/fake-stack";
import { describeError, runOperation, runRollback, runSteps } from "../../../cli/run-operation";

describe("runOperation", () => {
  const op = { vnf: "hw", configChanges: [{ key: "pulumi-nfv:vnfs.hw.scale_levels.a", value: "2" }], replace: ["urn:s1"], podDeletions: [], summary: [] };
  const io = () => {
    const out: string[] = [];
    return { out, io: { out: (t: string) => void out.push(t), err: (t: string) => void out.push(t) } };
  };

  it("preview: a diff preview with the replacements, then the config put back; a failed preview puts it back too", async () => {
    for (const fails of [false, true]) {
      const workDir = mkdtempSync(path.join(tmpdir(), "run-operation-"));
      const file = path.join(workDir, "Pulumi.dev.yaml");
      writeFileSync(file, "config:\n  pulumi-nfv:vnfs:\n    hw: {scale_levels: {a: 1}}\n");
      const { stack, calls } = fakeStack({ "pulumi-nfv:vnfs": { hw: { scale_levels: { a: 1 } } } }, { workDir });
      const asked: unknown[] = [];
      (stack as unknown as { preview: (o: unknown) => Promise<unknown> }).preview = async (o) => {
        asked.push(o);
        writeFileSync(file, "config:\n  pulumi-nfv:vnfs:\n    hw: {scale_levels: {a: 2}}\n"); // as `config set` left it
        if (fails) throw new Error("preview failed");
        return { stdout: "~ 1 to replace\n" };
      };
      const out = io();
      expect(await runOperation(stack, op, true, "scale", out.io)).toBe(fails ? 1 : 0);
      expect(asked).toEqual([{ diff: true, replace: ["urn:s1"] }]);
      expect(calls).toEqual(["set pulumi-nfv:vnfs.hw.scale_levels.a=2 path=true"]);
      expect(readFileSync(file, "utf8")).toBe("config:\n  pulumi-nfv:vnfs:\n    hw: {scale_levels: {a: 1}}\n");
      expect(out.out).toEqual([fails ? "nfv scale: preview failed\n" : "~ 1 to replace\n"]);
      rmSync(workDir, { recursive: true });
    }
  });

  it("up: the config changes stay (a failed up converges when run again)", async () => {
    const { stack, calls } = fakeStack({ "pulumi-nfv:vnfs": { hw: { scale_levels: { a: 1 } } } });
    (stack as unknown as { up: () => Promise<unknown> }).up = async () => ({ summary: { result: "succeeded" } });
    const out = io();
    expect(await runOperation(stack, op, false, "heal", out.io)).toBe(0);
    expect(calls).toEqual(["set pulumi-nfv:vnfs.hw.scale_levels.a=2 path=true"]);
    expect(out.out).toEqual(["up: succeeded\n"]);
  });

  describe("a failed up, then nfv rollback", () => {
    const BEFORE = "# dev\nconfig:\n  pulumi-nfv:vnfs:\n    hw: {scale_levels: {a: 1}}\n";
    const AFTER = "config:\n  pulumi-nfv:vnfs:\n    hw:\n      scale_levels:\n        a: 2\n";
    /** A stack whose `config set` rewrites its settings file, as the CLI does, and whose `up` is `up`. */
    function failingScale() {
      const workDir = mkdtempSync(path.join(tmpdir(), "run-operation-"));
      const file = path.join(workDir, "Pulumi.dev.yaml");
      writeFileSync(file, BEFORE);
      const { stack } = fakeStack({ "pulumi-nfv:vnfs": { hw: { scale_levels: { a: 1 } } } }, { workDir });
      const s = stack as unknown as Record<string, unknown>;
      s.setAllConfig = async () => writeFileSync(file, AFTER);
      const seen: string[] = [];
      let upFails = true;
      s.up = async () => {
        seen.push(readFileSync(file, "utf8"));
        if (upFails) throw new Error("hook failed on VDU1-1");
        return { summary: { result: "succeeded" } };
      };
      s.preview = async () => {
        seen.push(readFileSync(file, "utf8"));
        return { stdout: "- 1 to delete\n" };
      };
      const point = path.join(workDir, ".pulumi-nfv/rollback/dev.json");
      return { stack, file, seen, point, succeed: () => (upFails = false) };
    }

    it("the change stays and the settings file before it is the rollback point; rollback --preview shows it and leaves the file; rollback writes it back, runs up, removes the point", async () => {
      const t = failingScale();
      const out = io();
      expect(await runOperation(t.stack, op, false, "scale", out.io)).toBe(1);
      expect(out.out.join("")).toContain("nfv rollback --stack dev");
      expect(readFileSync(t.file, "utf8")).toBe(AFTER);
      expect(existsSync(t.point)).toBe(true);

      const preview = io();
      expect(await runRollback(t.stack, true, preview.io)).toBe(0);
      expect(preview.out[0]).toMatch(/^rollback of the scale that failed at \d{4}-/);
      expect(t.seen.at(-1)).toBe(BEFORE);
      expect(readFileSync(t.file, "utf8")).toBe(AFTER);
      expect(existsSync(t.point)).toBe(true);

      t.succeed();
      expect(await runRollback(t.stack, false, io().io)).toBe(0);
      expect(t.seen.at(-1)).toBe(BEFORE);
      expect(readFileSync(t.file, "utf8")).toBe(BEFORE);
      expect(existsSync(t.point)).toBe(false);
      const again = io();
      expect(await runRollback(t.stack, false, again.io)).toBe(1);
      expect(again.out.join("")).toContain("has no failed operation to roll back");
    });

    it("a later operation that succeeds makes the point stale: it is removed", async () => {
      const t = failingScale();
      expect(await runOperation(t.stack, op, false, "scale", io().io)).toBe(1);
      t.succeed();
      expect(await runOperation(t.stack, op, false, "scale", io().io)).toBe(0);
      expect(existsSync(t.point)).toBe(false);
    });

    it("the point holds the settings file as it was, encrypted secrets as they were, and nothing else", async () => {
      const t = failingScale();
      writeFileSync(t.file, BEFORE + "  pulumi-nfv:token:\n    secure: v1:c2VjcmV0\n");
      await runOperation(t.stack, op, false, "scale", io().io);
      const point = JSON.parse(readFileSync(t.point, "utf8"));
      expect(Object.keys(point).sort()).toEqual(["command", "failedAt", "settingsBase64"]);
      expect(Buffer.from(point.settingsBase64, "base64").toString()).toContain("secure: v1:c2VjcmV0");
    });
  });

  describe("runSteps (a change of package, batch by batch)", () => {
    const step = (n: number) => ({
      vnf: "hw",
      configChanges: [{ key: "pulumi-nfv:vnfs.hw.package_generations.VDU1-" + n, value: "1" }],
      replace: [],
      podDeletions: [],
      summary: [],
    });

    it("one up per step in order; a failed step stops there and its rollback point is the settings file before the first step", async () => {
      const workDir = mkdtempSync(path.join(tmpdir(), "run-steps-"));
      const file = path.join(workDir, "Pulumi.dev.yaml");
      const BEFORE = "config:\n  pulumi-nfv:vnfs:\n    hw: {}\n";
      writeFileSync(file, BEFORE);
      const { stack, calls } = fakeStack({ "pulumi-nfv:vnfs": { hw: {} } }, { workDir });
      const s = stack as unknown as Record<string, unknown>;
      let written = 0;
      s.setAllConfig = async (config: Record<string, unknown>) => {
        calls.push(`set ${Object.keys(config).join(" ")}`);
        writeFileSync(file, `${BEFORE}# step ${++written}\n`);
      };
      let ups = 0;
      s.up = async () => {
        if (++ups === 2) throw new Error("hook failed on VDU1-1");
        return { summary: { result: "succeeded" } };
      };
      const out = io();
      expect(await runSteps(stack, [step(0), step(1), step(2)], false, "change-vnfpkg", out.io)).toBe(1);
      expect(ups).toBe(2);
      expect(calls).toEqual(["set pulumi-nfv:vnfs.hw.package_generations.VDU1-0", "set pulumi-nfv:vnfs.hw.package_generations.VDU1-1"]);
      expect(out.out[0]).toBe("step 1 of 3 up: succeeded\n");
      expect(out.out[1]).toContain("nfv change-vnfpkg: step 2 of 3: hook failed on VDU1-1");
      const point = JSON.parse(readFileSync(path.join(workDir, ".pulumi-nfv/rollback/dev.json"), "utf8"));
      expect(point.command).toBe("change-vnfpkg");
      expect(Buffer.from(point.settingsBase64, "base64").toString()).toBe(BEFORE);
      rmSync(workDir, { recursive: true });
    });
  });
});

describe("describeError", () => {
  it("a failed pulumi CLI call by its error line, not the whole command's output; a refusal by its message", () => {
    const failed = Object.assign(new Error("code: 255\n stdout: \n stderr: Command failed...\nerror: no stack named 'dev' found\n"), {
      commandResult: { stderr: "warning: a\nerror: no stack named 'dev' found\n" },
    });
    expect(describeError(failed)).toBe("no stack named 'dev' found");
    expect(describeError(new Error("VNF 'hw' has no VNFC VDU1-9"))).toBe("VNF 'hw' has no VNFC VDU1-9");
  });
});
