/** `runOperation`: `--preview` previews and puts the config back; `up` keeps the changes. */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import * as path from "node:path";
import { describe, expect, it } from "vitest";
import { fakeStack } from "../helpers/fake-stack";
import { runOperation } from "../../../cli/run-operation";

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
      expect(asked).toEqual([{ color: "never", diff: true, replace: ["urn:s1"] }]);
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
});
