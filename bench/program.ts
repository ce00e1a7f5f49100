/**
 * `npm run bench:program`: the cost of our program itself, without the engine or any provider:
 * a VM VNF of N VNFCs (N = 100, 1,000, 5,000; BENCH_SIZES) read, validated and planned
 * (`loadVnfPackage`), then its `VmVnf` constructed under Pulumi mocks until every resource is
 * registered and its outputs resolved. The package is bench/fixtures/bench_vnf with its VDU's
 * maximum and instantiation level set to N. Each size runs in a process of its own (its peak RSS
 * is its own); the target of issue 23 is under 5 s at 1,000 VNFCs and linear, which the per-VNFC
 * column shows. Each child loads @pulumi/pulumi's source-map-support first, as Pulumi's runner
 * does (cmd/run/index.js): a stack formatted in the program costs what it costs under `pulumi up`.
 *
 * Two peers per size, each in its own process: the same program with the SDK's promise stacks as
 * it ships (what components/sdk-promise-stacks.ts saves), and the floor: the very resources VmVnf
 * registered (their types, names and inputs as the mocks saw them, recorded by the first child)
 * registered again straight through the SDK's classes, with no component, plan or Output between
 * them. What the floor costs, no component can save: it is the SDK's own registration.
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

/** A resource as the mocks saw it registered: what the floor registers again. */
interface Registered {
  type: string;
  name: string;
  inputs: Record<string, unknown>;
}

/** The SDK's classes of the types VmVnf registers in this bench (the floor refuses any other). */
const CLASSES: Record<string, new (name: string, args: never, opts: pulumi.CustomResourceOptions) => pulumi.CustomResource> = {
  "openstack:networking/port:Port": openstack.networking.Port,
  "openstack:compute/instance:Instance": openstack.compute.Instance,
};

const peakRssMiB = () => Number(/^VmHWM:\s+(\d+)/m.exec(readFileSync("/proc/self/status", "utf8"))![1]) / 1024;

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

/**
 * One size, in this process: the JSON result on stdout. With `record`, the resources VmVnf
 * registered (not itself, not the provider) are written there as JSON, for the floor.
 */
async function measure(n: number, record?: string): Promise<void> {
  let resources = 0;
  const registered: Registered[] = [];
  pulumi.runtime.setMocks(
    {
      newResource(args) {
        resources++;
        // The component itself and the provider are the floor's own to make, not to replay.
        if (record && !args.type.startsWith("pulumi:providers:") && args.type !== "nfv:vnf:VmVnf")
          registered.push({ type: args.type, name: args.name, inputs: args.inputs as Record<string, unknown> });
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
    const result: Result = { n, loadSeconds, constructSeconds, resources, peakRssMiB: peakRssMiB() };
    if (record) writeFileSync(record, JSON.stringify(registered));
    process.stdout.write(`${JSON.stringify(result)}\n`);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** The floor, in this process: the recorded resources registered through the SDK's classes alone. */
async function measureFloor(n: number, record: string): Promise<void> {
  let resources = 0;
  pulumi.runtime.setMocks(
    { newResource: (args) => (resources++, { id: `${args.name}-id`, state: { ...args.inputs } }), call: (args) => args.inputs },
    "pulumi-nfv",
    "bench",
    false,
  );
  const recorded = JSON.parse(readFileSync(record, "utf8")) as Registered[];
  const t = performance.now();
  const provider = new openstack.Provider("lab", {});
  const urns = recorded.map((r) => {
    const Class = CLASSES[r.type];
    if (!Class) throw new Error(`the floor has no class for ${r.type}: add it to CLASSES`);
    return new Class(r.name, r.inputs as never, { provider }).urn;
  });
  await new Promise((done) => pulumi.all(urns).apply(done));
  const result: Result = { n, loadSeconds: 0, constructSeconds: (performance.now() - t) / 1000, resources, peakRssMiB: peakRssMiB() };
  process.stdout.write(`${JSON.stringify(result)}\n`);
}

/** The source-map-support that Pulumi's runner registers: the one @pulumi/pulumi depends on. */
function runnersSourceMapSupport(): string {
  return require.resolve("source-map-support/register", { paths: [dirname(require.resolve("@pulumi/pulumi/package.json"))] });
}

/**
 * One size in a child process: the component (`record`: the file it writes its resources to), the
 * component with the SDK's promise wrapper as it ships (PULUMI_DEBUG_PROMISE_LEAKS set), or the floor
 * (the resources recorded in `record`).
 */
function child(n: number, mode: "component" | "sdk-stacks" | "floor", record: string): Result {
  const env = { ...process.env };
  if (mode === "sdk-stacks") env.PULUMI_DEBUG_PROMISE_LEAKS = "1";
  else delete env.PULUMI_DEBUG_PROMISE_LEAKS;
  const out = execFileSync(process.execPath, ["--require", runnersSourceMapSupport(), __filename, String(n), mode, record], {
    encoding: "utf8",
    env,
    stdio: ["ignore", "pipe", "inherit"],
    maxBuffer: 64 << 20,
  });
  return JSON.parse(out.trim().split("\n").pop()!) as Result;
}

function main(): void {
  const load0 = loadavg();
  const work = mkdtempSync(join(tmpdir(), "nfv-bench-program-record-"));
  let rows: string[][];
  try {
    rows = SIZES.map((n) => {
      const record = join(work, `${n}.json`);
      const r = child(n, "component", record);
      // The peers: the same program with the SDK formatting a stack for each promise (sdk-promise-stacks.ts),
      // and the same resources through the SDK alone.
      const stacks = child(n, "sdk-stacks", record);
      const floor = child(n, "floor", record);
      return [
        String(r.n),
        r.loadSeconds.toFixed(2),
        r.constructSeconds.toFixed(2),
        stacks.constructSeconds.toFixed(2),
        (r.constructSeconds / stacks.constructSeconds).toFixed(2),
        floor.constructSeconds.toFixed(2),
        (r.constructSeconds / floor.constructSeconds).toFixed(2),
        String(r.resources),
        ((1000 * (r.loadSeconds + r.constructSeconds)) / r.n).toFixed(2),
        r.peakRssMiB.toFixed(0),
        stacks.peakRssMiB.toFixed(0),
        floor.peakRssMiB.toFixed(0),
      ];
    });
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
  const header = [
    "VNFCs",
    "loadVnfPackage s",
    "VmVnf under mocks s",
    "… with the SDK's promise stacks s",
    "ratio",
    "its resources through the SDK alone s",
    "ratio",
    "resources",
    "ms per VNFC",
    "peak RSS MiB",
    "… with the SDK's stacks",
    "… the SDK alone",
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
      "the SDK alone: the resources VmVnf registered (types, names, inputs as the mocks saw them), registered again through @pulumi/openstack's classes with no component, until every URN resolved",
      `load average ${load0.map((l) => l.toFixed(1)).join(" ")} at the start, ${loadavg()
        .map((l) => l.toFixed(1))
        .join(" ")} at the end, on ${cpus().length} cores`,
    ].join("\n") + "\n",
  );
}

const [size, mode, record] = process.argv.slice(2);
if (size === undefined) main();
else
  (mode === "floor" ? measureFloor(Number(size), record) : measure(Number(size), mode === "component" ? record : undefined)).catch((e: unknown) => {
    process.stderr.write(`${e instanceof Error ? (e.stack ?? e.message) : String(e)}\n`);
    process.exitCode = 1;
  });
