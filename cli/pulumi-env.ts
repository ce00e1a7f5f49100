/**
 * The environment of every pulumi process `nfv` runs (and the benches' and tests' stacks, so they
 * run as nfv does): a private TMPDIR with ts-node's cache kept outside it (operation-tmp.ts) and
 * the engine's parallelism (engine-parallelism.ts).
 */
import { parallelismEnv } from "./engine-parallelism";
import { pulumiTmpEnv } from "./operation-tmp";

export function pulumiEnv(tmpDir: string): Record<string, string> {
  return { ...pulumiTmpEnv(tmpDir), ...parallelismEnv() };
}
