/**
 * The environment `lab/toolchain/env.sh` sets up (PATH to the built Pulumi CLI, its plugins, the
 * offline flags), for the Node programs that drive that CLI: the integration tests and the
 * benchmarks.
 */
import { execFileSync } from "node:child_process";

/** `repo`: the repository root (callers compiled into dist/ cannot find it from here). */
export function toolchainEnv(repo: string): Record<string, string> {
  const out = execFileSync("bash", ["-c", `. "${repo}/lab/toolchain/env.sh" && env -0`], { encoding: "utf8" });
  const env: Record<string, string> = {};
  for (const entry of out.split("\0")) {
    const i = entry.indexOf("=");
    if (i > 0) env[entry.slice(0, i)] = entry.slice(i + 1);
  }
  return env;
}
