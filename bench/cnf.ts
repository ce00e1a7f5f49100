/**
 * `npm run bench:cnf`: Pulumi against kubectl, which is what Tacker's Kubernetes driver does (apply
 * the package's manifests, patch a Deployment's replicas, delete them), on the lab Kubernetes API
 * (lab/k8s: kube-apiserver, etcd, controller-manager, scheduler, kwok nodes), in one run.
 *
 * For N Deployments (N = 10 and 50; BENCH_SIZES), a CNF package is generated: N container VDUs
 * `d0`…`dN-1` realised by one manifest file of N Deployments, and the aspect `d0_aspect` that scales
 * `d0`. Each row times both sides on the same manifests:
 * - deploy: `pulumi up` of a stack whose VNF is the package (the project's stack program) against
 *   `kubectl apply -f` and `kubectl wait --for=condition=Available` on every Deployment;
 * - scale: `nfv scale --aspect d0_aspect --steps 1 --type out` (its own process: the config change
 *   and an up) against `kubectl scale deployment d0 --replicas=2` and `kubectl rollout status`;
 * - destroy: `pulumi destroy` against `kubectl delete -f --wait`.
 * Both sides end at the same point: every Deployment Available (Pulumi's await logic waits for it),
 * the new replica Available, every Deployment gone. Between measurements the bench waits until no
 * pod of the previous side is left, so one side's leftovers do not load the other's measurement;
 * the order alternates (Pulumi first at the first size, kubectl first at the next). Each Pulumi
 * run says where its seconds went and its processes' peak memory (bench/timed-run), below the table.
 */
import { execFileSync } from "node:child_process";
import { createHash } from "node:crypto";
import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { cpus, homedir, loadavg, tmpdir } from "node:os";
import { join } from "node:path";
import { openBenchStack, parallelismLine, ratioTable, REPO } from "./bench-stack";
import { budgeted, nfvRun, type Timed } from "./timed-run";

const LAB = join(REPO, "lab/k8s");
const SIZES = (process.env.BENCH_SIZES ?? "10,50").split(",").map(Number);
const HOLDER = "bench-cnf";
const K8S_VERSION = /^K8S_VERSION=(\S+)/m.exec(readFileSync(join(LAB, "build.sh"), "utf8"))![1];
const KUBECTL = join(process.env.NFV_CACHE ?? join(homedir(), ".cache/pulumi-nfv"), `k8s/kubectl-${K8S_VERSION}/bin/kubectl`);
const KUBECONFIG = join(process.env.NFV_LAB_STATE ?? "/var/lib/pulumi-nfv-lab", "k8s/kubeconfig");

const log = (s: string) => process.stderr.write(`${new Date().toISOString().slice(11, 19)} [bench] ${s}\n`);
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** kubectl as the lab's admin, in namespace `default` (the lab VIM's project_name). */
function kubectl(...args: string[]): string {
  return execFileSync(KUBECTL, ["--kubeconfig", KUBECONFIG, "-n", "default", ...args], { encoding: "utf8", maxBuffer: 64 << 20 });
}

/** Seconds `f` took (kubectl's side: no step events, no Pulumi processes). */
async function timed(f: () => unknown): Promise<Timed> {
  const t = performance.now();
  await f();
  return { seconds: (performance.now() - t) / 1000, budget: [] };
}

// ---------------------------------------------------------------------------------------------
// The package: N container VDUs, one manifest of N Deployments, d0 scalable.

function generatePackage(dir: string, n: number): { pkg: string; manifest: string; request: string } {
  const pkg = join(dir, `bench_cnf_${n}`);
  mkdirSync(join(pkg, "Definitions"), { recursive: true });
  mkdirSync(join(pkg, "Files/kubernetes"), { recursive: true });
  mkdirSync(join(pkg, "TOSCA-Metadata"));
  const types = join(REPO, "examples/cnf-kubernetes/package/Definitions");
  for (const f of ["etsi_nfv_sol001_common_types.yaml", "etsi_nfv_sol001_vnfd_types.yaml"]) copyFileSync(join(types, f), join(pkg, "Definitions", f));
  const vdus = Array.from({ length: n }, (_, i) => `d${i}`);
  const nodes = vdus
    .map(
      (v) =>
        `    ${v}:\n      type: tosca.nodes.nfv.Vdu.Compute\n      properties:\n        name: ${v}\n        description: Deployment ${v}\n        vdu_profile:\n          min_number_of_instances: 1\n          max_number_of_instances: 3\n`,
    )
    .join("\n");
  writeFileSync(
    join(pkg, "Definitions/bench_cnf.yaml"),
    `tosca_definitions_version: tosca_simple_yaml_1_2
description: bench:cnf, ${n} Deployments
imports:
  - ./etsi_nfv_sol001_common_types.yaml
  - ./etsi_nfv_sol001_vnfd_types.yaml
node_types:
  pulumi_nfv.bench.Cnf:
    derived_from: tosca.nodes.nfv.VNF
    properties:
      descriptor_id: { type: string, default: 5b0c7d2e-8f41-4a6b-9e3d-${String(n).padStart(12, "0")} }
      descriptor_version: { type: string, default: "1.0" }
      provider: { type: string, default: pulumi-nfv }
      product_name: { type: string, default: bench-cnf }
      software_version: { type: string, default: "1.0" }
      vnfm_info: { type: list, entry_schema: { type: string }, default: ["etsivnfm:v2.6.1"] }
      flavour_id: { type: string, default: simple }
      flavour_description: { type: string, default: bench }
topology_template:
  substitution_mappings:
    node_type: pulumi_nfv.bench.Cnf
    properties:
      flavour_id: simple
  node_templates:
    VNF:
      type: pulumi_nfv.bench.Cnf
      properties:
        flavour_description: bench
${nodes}
  policies:
    - scaling_aspects:
        type: tosca.policies.nfv.ScalingAspects
        properties:
          aspects:
            d0_aspect:
              name: d0_aspect
              description: d0 one more replica a step
              max_scale_level: 2
              step_deltas: [delta_1]
    - initial_delta:
        type: tosca.policies.nfv.VduInitialDelta
        properties:
          initial_delta:
            number_of_instances: 1
        targets: [${vdus.join(", ")}]
    - d0_scaling_aspect_deltas:
        type: tosca.policies.nfv.VduScalingAspectDeltas
        properties:
          aspect: d0_aspect
          deltas:
            delta_1:
              number_of_instances: 1
        targets: [d0]
    - instantiation_levels:
        type: tosca.policies.nfv.InstantiationLevels
        properties:
          levels:
            one:
              description: one replica each
              scale_info:
                d0_aspect:
                  scale_level: 0
          default_level: one
`,
  );
  const manifest = join(pkg, "Files/kubernetes/deployments.yaml");
  writeFileSync(
    manifest,
    vdus
      .map(
        (v) =>
          `apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: ${v}\nspec:\n  replicas: 1\n  selector:\n    matchLabels:\n      app: ${v}\n  template:\n    metadata:\n      labels:\n        app: ${v}\n    spec:\n      containers:\n        - name: ${v}\n          image: registry.example/bench:1\n`,
      )
      .join("---\n"),
  );
  const hash = createHash("sha256").update(readFileSync(manifest)).digest("hex");
  writeFileSync(
    join(pkg, "TOSCA-Metadata/TOSCA.meta"),
    `TOSCA-Meta-File-Version: 1.0\nCSAR-Version: 1.1\nCreated-by: pulumi-nfv bench\nEntry-Definitions: Definitions/bench_cnf.yaml\n\nName: Files/kubernetes/deployments.yaml\nContent-Type: application/x-yaml\nAlgorithm: SHA-256\nHash: ${hash}\n`,
  );
  const request = join(dir, `bench_cnf_${n}.json`);
  writeFileSync(request, JSON.stringify({ flavourId: "simple", additionalParams: { "lcm-kubernetes-def-files": ["Files/kubernetes/deployments.yaml"] } }));
  return { pkg, manifest, request };
}

// ---------------------------------------------------------------------------------------------
// What is on the API.

/** Deployment name → available replicas, of the bench's Deployments (d<i>). */
function deployments(): Map<string, number> {
  const items = (JSON.parse(kubectl("get", "deployments", "-o", "json")) as { items: { metadata: { name: string }; status: { availableReplicas?: number } }[] })
    .items;
  return new Map(items.filter((d) => /^d\d+$/.test(d.metadata.name)).map((d) => [d.metadata.name, d.status.availableReplicas ?? 0]));
}

function check(what: string, ok: boolean): void {
  if (!ok) throw new Error(`${what}: not so on the API`);
}

/** Until no pod of the bench's Deployments is left (the GC deletes them after their Deployment). */
async function quiesce(): Promise<void> {
  for (let i = 0; i < 300; i++) {
    const pods = kubectl("get", "pods", "-o", "jsonpath={.items[*].metadata.labels.app}")
      .split(" ")
      .filter((a) => /^d\d+$/.test(a));
    if (pods.length === 0 && deployments().size === 0) return;
    await sleep(1000);
  }
  throw new Error("pods of a previous measurement still there after 300 s");
}

// ---------------------------------------------------------------------------------------------
// The two sides.

interface Side {
  name: "pulumi" | "kubectl";
  deploy(): Promise<Timed>;
  scale(): Promise<Timed>;
  destroy(): Promise<Timed>;
  dispose(): Promise<void>;
}

async function pulumiSide(n: number, vimConfig: string, pkg: string, request: string, work: string): Promise<Side> {
  const p = await openBenchStack(`bench-cnf-${n}`, {
    "pulumi-nfv:vims.lab.file": vimConfig,
    "pulumi-nfv:vnfs.bench.vim": "lab",
    "pulumi-nfv:vnfs.bench.package": pkg,
    "pulumi-nfv:vnfs.bench.instantiate_request": request,
  });
  return {
    name: "pulumi",
    deploy: () =>
      budgeted(async (onEvent) => {
        const r = await p.stack.up({ color: "never", onEvent });
        if (r.summary.result !== "succeeded") throw new Error(`pulumi up: ${r.summary.result}`);
      }),
    // the CLI as an operator runs it, in its own process (its build of this bench)
    scale: () => nfvRun(p, "scale", ["--vnf", "bench", "--aspect", "d0_aspect", "--steps", "1", "--type", "out"], work),
    destroy: () => budgeted((onEvent) => p.stack.destroy({ color: "never", onEvent })),
    dispose: p.dispose,
  };
}

function kubectlSide(n: number, manifest: string): Side {
  return {
    name: "kubectl",
    deploy: () =>
      timed(() => {
        kubectl("apply", "-f", manifest);
        kubectl("wait", "--for=condition=Available", "--timeout=600s", ...Array.from({ length: n }, (_, i) => `deployment/d${i}`));
      }),
    scale: () =>
      timed(() => {
        kubectl("scale", "deployment", "d0", "--replicas=2");
        kubectl("rollout", "status", "deployment", "d0", "--timeout=600s");
      }),
    destroy: () => timed(() => kubectl("delete", "-f", manifest, "--wait=true")),
    dispose: async () => undefined,
  };
}

// ---------------------------------------------------------------------------------------------

interface Row {
  op: string;
  pulumi?: number;
  kubectl?: number;
  /** Where the Pulumi run's seconds went, and its processes' peak memory. */
  budget?: string[];
  memory?: string;
}

async function runSize(n: number, first: "pulumi" | "kubectl", vimConfig: string, work: string, rows: Row[]): Promise<void> {
  const { pkg, manifest, request } = generatePackage(work, n);
  const sides = [await pulumiSide(n, vimConfig, pkg, request, work), kubectlSide(n, manifest)];
  if (first === "kubectl") sides.reverse();
  const record = (op: string, side: Side["name"], t: Timed) => {
    const row = rows.find((r) => r.op === op) ?? rows[rows.push({ op }) - 1];
    row[side] = t.seconds;
    if (side === "pulumi") Object.assign(row, { budget: t.budget, memory: t.memory });
  };
  try {
    for (const side of sides) {
      await quiesce();
      log(`${side.name}: deploy ${n} Deployments`);
      record(`deploy ${n} Deployments`, side.name, await side.deploy());
      const after = deployments();
      check(`${n} Deployments Available`, after.size === n && [...after.values()].every((a) => a === 1));
      log(`${side.name}: scale out d0`);
      record(`scale d0 out (${n} Deployments)`, side.name, await side.scale());
      check("d0 with 2 replicas Available", deployments().get("d0") === 2);
      log(`${side.name}: destroy`);
      record(`destroy ${n} Deployments`, side.name, await side.destroy());
      check("no Deployment left", deployments().size === 0);
    }
  } finally {
    for (const side of sides) await side.dispose();
  }
}

async function main(): Promise<void> {
  const vimConfig = execFileSync(join(LAB, "up"), ["--holder", HOLDER], { encoding: "utf8", stdio: ["ignore", "pipe", "inherit"] })
    .trim()
    .split("\n")
    .pop()!;
  const work = mkdtempSync(join(tmpdir(), "nfv-bench-cnf-"));
  const rows: Row[] = [];
  const load0 = loadavg();
  const t0 = performance.now();
  try {
    for (const [i, n] of SIZES.entries()) await runSize(n, i % 2 === 0 ? "pulumi" : "kubectl", vimConfig, work, rows);
  } finally {
    rmSync(work, { recursive: true, force: true });
    execFileSync(join(LAB, "down"), ["--holder", HOLDER], { stdio: "inherit" });
    const out = [
      ratioTable(
        "kubectl",
        rows.map((r) => ({ op: r.op, ours: r.pulumi, peer: r.kubectl })),
      ),
      "",
      "pulumi: `pulumi up` of the stack program (Automation API) / `nfv scale` (own process: the scale level in stack config, then an up) / `pulumi destroy`",
      parallelismLine(),
      "kubectl: `kubectl apply -f` + `kubectl wait --for=condition=Available` / `kubectl scale --replicas=2` + `kubectl rollout status` / `kubectl delete -f --wait`",
      "both end when every Deployment is Available (kwok nodes: pods Running at once), the new replica is Available, every Deployment is gone",
      `load average ${load0.map((l) => l.toFixed(1)).join(" ")} at the start, ${loadavg()
        .map((l) => l.toFixed(1))
        .join(" ")} at the end, on ${cpus().length} cores; bench took ${((performance.now() - t0) / 1000).toFixed(1)} s`,
      "",
      "where each Pulumi run's seconds went (its step events):",
      ...rows.filter((r) => r.budget?.length).flatMap((r) => [`${r.op}, ${r.budget![0]}`, ...r.budget!.slice(1)]),
      "",
      "peak memory of each Pulumi run's processes (sampled every 0.5 s):",
      ...rows.filter((r) => r.memory).map((r) => `${r.op}: ${r.memory}`),
    ];
    process.stdout.write(out.join("\n") + "\n");
  }
}

main().catch((e: unknown) => {
  process.stderr.write(`${e instanceof Error ? (e.stack ?? e.message) : String(e)}\n`);
  process.exitCode = 1;
});
