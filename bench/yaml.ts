/**
 * `npm run bench:yaml`: the cost of keeping block-yaml (translators/tosca/phase2-load) against
 * js-yaml and the position-keeping parser, on the flavour file of a generated 1,000-VDU package
 * (../shared/bench/gen_vnfd.py, as `bench:translate`). Median of 15 runs after 5 warm-ups.
 */
import { execFileSync } from "node:child_process";
import { mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { CORE_SCHEMA, load } from "js-yaml";
import { parseBlockYaml } from "../translators/tosca/phase2-load/block-yaml";
import { parseYaml } from "../translators/yaml/located-yaml";

const REPO = resolve(__dirname, "../..");
const dir = join(mkdtempSync(join(tmpdir(), "nfv-bench-yaml-")), "n1000");
execFileSync("/usr/bin/python3", [resolve(REPO, "../shared/bench/gen_vnfd.py"), "1000", dir, resolve(REPO, "../shared/vnf-packages/etsi-sol001-2.6.1")], {
  stdio: "ignore",
});
const text = readFileSync(join(dir, "Definitions/bench_df.yaml"), "utf8");

function median(parse: () => unknown, runs = 15): number {
  for (let i = 0; i < 5; i++) parse();
  const ms: number[] = [];
  for (let i = 0; i < runs; i++) {
    const t = process.hrtime.bigint();
    parse();
    ms.push(Number(process.hrtime.bigint() - t) / 1e6);
  }
  return ms.sort((a, b) => a - b)[Math.floor(runs / 2)];
}

const rows: [string, number][] = [
  ["block-yaml", median(() => parseBlockYaml(text, 100))],
  ["js-yaml 4.3.2 (CORE_SCHEMA)", median(() => load(text, { schema: CORE_SCHEMA }))],
  ["located (yaml 2.9.1, positions)", median(() => parseYaml(text, "bench_df.yaml"), 5)],
];
process.stdout.write(`${(text.length / 1024).toFixed(0)} KiB, 1,000 VDUs\n`);
for (const [name, ms] of rows) process.stdout.write(`${name}: ${ms.toFixed(1)} ms\n`);
