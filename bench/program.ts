/**
 * `npm run bench:program`: the cost of our program itself, without the engine or any provider:
 * a VM VNF of N VNFCs (N = 100, 1,000, 5,000; BENCH_SIZES) read, validated and planned
 * (`loadVnfPackage`), then its `VmVnf` constructed under Pulumi mocks until every resource is
 * registered and its outputs resolved. The package is bench/fixtures/bench_vnf with its VDU's
 * maximum and instantiation level set to N. Each size runs in a process of its own (its peak RSS
 * is its own); the target of issue 23 is under 5 s at 1,000 VNFCs and linear, which the per-VNFC
 * column shows. Each child loads @pulumi/pulumi's source-map-support first, as Pulumi's runner
 * does (cmd/run/index.js): a stack formatted in the program costs what it costs under `pulumi up`.
 */
import { execFileSync } from "node:child_process";
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { cpus, loadavg, tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import * as openstack from "@pulumi/openstack";
import * as pulumi from "@pulumi/pulumi";
import { loadVnfPackage, VmVnf } from "../index";

const REPO = resolve(__dirname, "../..");
const FIXTURES = join(REPO, "bench/fixtures");
const SIZES = (process.env.BENCH_SIZES ?? "100,1000,5000").split(",").map(Number);

interface Result {
  n: number;
  loadSeconds: number;
  constructSeconds: number;
  resources: number;
  peakRssMiB: number;
}

/** bench_vnf with N instances of VDU1 at the level `instantiation_level_100`, and its request. */
function packageOfSize(dir: string, n: number): { pkg: string; request: string } {
  const pkg = join(dir, "bench_vnf");
  cpSync(join(FIXTURES, "bench_vnf"), pkg, { recursive: true });
  const df = join(pkg, "Definitions/bench_df_simple.yaml");
  writeFileSync(
    df,
    readFileSync(df, "utf8")
      .replace("max_number_of_instances: 100", `max_number_of_instances: ${n}`)
      .replace("max_scale_level: 99", `max_scale_level: ${n - 1}`)
      .replace(/scale_level: 99$/m, `scale_level: ${n - 1}`)
      // Anchored: the level's own line, not "max_number_of_instances".
      .replace(/^(\s+)number_of_instances: 100$/m, `$1number_of_instances: ${n}`),
  );
  const request = join(dir, "request.json");
  writeFileSync(request, readFileSync(join(FIXTURES, "bench_level100.json"), "utf8").replace("LAB_NET_ID", "net-0"));
  return { pkg, request };
}

/** One size, in this process: the JSON result on stdout. */
async function measure(n: number): Promise<void> {
  let resources = 0;
  pulumi.runtime.setMocks(
    {
      newResource(args) {
        resources++;
        const state: Record<string, unknown> = { ...args.inputs };
        if (args.type === "openstack:networking/port:Port") state.allFixedIps = [`10.${(resources >> 16) & 255}.${(resources >> 8) & 255}.${resources & 255}`];
        return { id: `${args.name}-id`, state };
      },
      call(args) {
        return { ...args.inputs, id: `${args.token}-${String(args.inputs.name ?? "")}` };
      },
    },
    "pulumi-nfv",
    "bench",
    false,
  );
  const dir = mkdtempSync(join(tmpdir(), "nfv-bench-program-"));
  try {
    const { pkg, request } = packageOfSize(dir, n);
    let t = performance.now();
    const loaded = await loadVnfPackage(pkg, request);
    const loadSeconds = (performance.now() - t) / 1000;
    const errors = loaded.diagnostics.filter((d) => d.severity === "error");
    if (errors.length > 0 || !loaded.model || !loaded.request) throw new Error(`bench_vnf at ${n}: ${JSON.stringify(errors)}`);
    t = performance.now();
    const provider = new openstack.Provider("lab", {});
    const vnf = new VmVnf("bench", { flavours: loaded.model.flavours, request: loaded.request, provider, packageSource: loaded.pkg.source });
    const vnfcs = await new Promise<Record<string, unknown>>((done) => pulumi.output(vnf.vnfcs).apply((v) => done(v as Record<string, unknown>)));
    const constructSeconds = (performance.now() - t) / 1000;
    if (Object.keys(vnfcs).length !== n) throw new Error(`${Object.keys(vnfcs).length} VNFCs resolved, want ${n}`);
    const peakRssMiB = Number(/^VmHWM:\s+(\d+)/m.exec(readFileSync("/proc/self/status", "utf8"))![1]) / 1024;
    const result: Result = { n, loadSeconds, constructSeconds, resources, peakRssMiB };
    process.stdout.write(`${JSON.stringify(result)}\n`);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** The source-map-support that Pulumi's runner registers: the one @pulumi/pulumi depends on. */
function runnersSourceMapSupport(): string {
  return require.resolve("source-map-support/register", { paths: [dirname(require.resolve("@pulumi/pulumi/package.json"))] });
}

/** One size in a child process; `sdkStacks`: the SDK's promise wrapper as it ships (PULUMI_DEBUG_PROMISE_LEAKS set). */
function child(n: number, sdkStacks: boolean): Result {
  const env = { ...process.env };
  if (sdkStacks) env.PULUMI_DEBUG_PROMISE_LEAKS = "1";
  else delete env.PULUMI_DEBUG_PROMISE_LEAKS;
  const out = execFileSync(process.execPath, ["--require", runnersSourceMapSupport(), __filename, String(n)], {
    encoding: "utf8",
    env,
    stdio: ["ignore", "pipe", "inherit"],
    maxBuffer: 64 << 20,
  });
  return JSON.parse(out.trim().split("\n").pop()!) as Result;
}

function main(): void {
  const load0 = loadavg();
  const rows = SIZES.map((n) => {
    const r = child(n, false);
    // The peer: the same program with the SDK formatting a stack for each promise (sdk-promise-stacks.ts).
    const peer = child(n, true);
    return [
      String(r.n),
      r.loadSeconds.toFixed(2),
      r.constructSeconds.toFixed(2),
      peer.constructSeconds.toFixed(2),
      (r.constructSeconds / peer.constructSeconds).toFixed(2),
      String(r.resources),
      ((1000 * (r.loadSeconds + r.constructSeconds)) / r.n).toFixed(2),
      r.peakRssMiB.toFixed(0),
      peer.peakRssMiB.toFixed(0),
    ];
  });
  const header = [
    "VNFCs",
    "loadVnfPackage s",
    "VmVnf under mocks s",
    "… with the SDK's promise stacks s",
    "ratio",
    "resources",
    "ms per VNFC",
    "peak RSS MiB",
    "… with the SDK's stacks",
  ];
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((c) => c[i].length)));
  const line = (c: string[]) => "| " + c.map((x, i) => x.padStart(widths[i])).join(" | ") + " |";
  process.stdout.write(
    [
      line(header),
      "|" + widths.map((w) => "-".repeat(w + 1) + ":").join("|") + "|",
      ...rows.map(line),
      "",
      "loadVnfPackage: read, validate, plan (the component graph); VmVnf: construction until every resource is registered and `vnfcs` resolved, under Pulumi mocks (no engine, no provider)",
      `load average ${load0.map((l) => l.toFixed(1)).join(" ")} at the start, ${loadavg()
        .map((l) => l.toFixed(1))
        .join(" ")} at the end, on ${cpus().length} cores`,
    ].join("\n") + "\n",
  );
}

if (process.argv[2] === undefined) main();
else
  measure(Number(process.argv[2])).catch((e: unknown) => {
    process.stderr.write(`${e instanceof Error ? (e.stack ?? e.message) : String(e)}\n`);
    process.exitCode = 1;
  });
