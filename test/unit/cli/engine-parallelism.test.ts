/**
 * The engine runs NFV_PARALLEL steps at once for nfv's pulumi processes (cli/engine-parallelism.ts),
 * unless the user set PULUMI_PARALLEL; the main job's `pulumi up` (lab/local/up) runs as many. The
 * Automation API is stubbed: what the stub sees is what the engine would get.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it, vi } from "vitest";
import { NFV_PARALLEL } from "../../../cli/engine-parallelism";
import { previewEnv } from "../helpers/nfv-pulumi-env";

const REPO = join(__dirname, "../../..");
const saved = process.env.PULUMI_PARALLEL;

afterEach(() => {
  vi.restoreAllMocks();
  if (saved === undefined) delete process.env.PULUMI_PARALLEL;
  else process.env.PULUMI_PARALLEL = saved;
});

/** The PULUMI_PARALLEL the pulumi processes of `nfv preview --stack s` run with. */
async function parallelSeen(): Promise<string | undefined> {
  return (await previewEnv()).PULUMI_PARALLEL;
}

describe("nfv: the engine's parallelism", () => {
  it("is NFV_PARALLEL, above Pulumi's 4 per core on the lab's two cores, when the user set none", async () => {
    delete process.env.PULUMI_PARALLEL;
    expect(NFV_PARALLEL).toBeGreaterThan(8);
    expect(await parallelSeen()).toBe(String(NFV_PARALLEL));
  });

  it("is the user's PULUMI_PARALLEL when set", async () => {
    process.env.PULUMI_PARALLEL = "3";
    expect(await parallelSeen()).toBe("3");
  });

  it("is the same in the main job's pulumi up", () => {
    const up = readFileSync(join(REPO, "lab/local/up"), "utf8");
    expect(up).toMatch(new RegExp(`pulumi up [^\\n]*--parallel "\\$\\{PULUMI_PARALLEL:-${NFV_PARALLEL}\\}"`));
  });
});
