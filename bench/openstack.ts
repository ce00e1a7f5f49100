/**
 * `npm run bench:openstack`: Pulumi against Heat (the engine Tacker drives) on the lab OpenStack
 * (lab/openstack, Debian bookworm's Zed, nova with the fake driver), in one run:
 *
 * - deploy the same VM-based VNF with 5, 20 and 100 servers: `pulumi up` (Automation API, the stack
 *   config of bench/fixtures/bench_vnf at instantiation level 5, 20 or 100) against a Heat stack made
 *   the way Tacker makes it (bench/fixtures/heat: a BaseHOT-style top template with an
 *   OS::Heat::AutoScalingGroup of a nested VDU1.yaml holding OS::Neutron::Port + OS::Nova::Server
 *   on that port, the `nfv` json parameter, scale-out/in policies), created through Heat's REST
 *   API like Tacker's heatclient does, polled every POLL_MS until CREATE_COMPLETE;
 * - heal one VNFC: `nfv heal --vnfc VDU1-0` (a targeted `up --replace` of the server; its port is
 *   kept) against what Tacker does: mark the member's server unhealthy and update the stack with
 *   its existing template (through the API; and once more with the `openstack` CLI, the literal
 *   `openstack stack resource mark unhealthy` + `openstack stack update --existing --wait`);
 * - scale in by one step of the aspect, then out again to the instantiation level: `nfv scale`
 *   (the scale level in stack config, then `up`) against what Tacker's v2 openstack driver does: a
 *   stack update with the new desired capacity (see heatScale). In, then out, so that 100 servers
 *   (the aspect's maximum) scale too;
 * - destroy/delete, for completeness.
 *
 * Every Pulumi run also says where its seconds went (bench/step-budget, from the run's step events;
 * the heal's through `nfv heal --event-log`): before the first step, each kind of step beside the
 * openstack provider's fixed wait, idle time between steps, and after the last step; and the peak
 * memory of its processes by role (bench/process-memory: engine, language host, program, providers).
 *
 * Both sides end at the same point: every server ACTIVE in Nova (Pulumi's openstack provider and
 * Heat's OS::Nova::Server both wait for it). Between measurements the bench waits until the lab's
 * VM-host agent has caught up (it makes a network namespace and root filesystem for every ACTIVE
 * server, ~10 s each), so that one side's leftovers do not load the other's measurement; the order
 * alternates (Pulumi first at 5 and 100, Heat first at 20).
 *
 * Heat runs only when asked (`lab/openstack/up --with-heat`): the bench brings the lab up with
 * Heat if needed and leaves it as it found it (lab down if it started the lab, Heat stopped if it
 * started Heat). Memory of Heat's processes (heat-api + heat-engine and its workers): RSS and PSS
 * when idle and the peak while Heat works. Resources are named `bench…`; Pulumi stacks
 * `bench-pulumi-N` on a private file backend.
 */
import { execFileSync, spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { cpus, loadavg, tmpdir } from "node:os";
import { join } from "node:path";
import { keystoneSession } from "../clients/openstack";
import { pids, rollup, statFields } from "./process-memory";
import { openBenchStack, parallelismLine, ratioTable, REPO, type BenchStack } from "./bench-stack";
import { budgeted, nfvRun, type Timed } from "./timed-run";
import { readVimConfigFile } from "../translators/tacker/vim-config";

const LAB = join(REPO, "lab/openstack");
const FIXTURES = join(REPO, "bench/fixtures");
const PACKAGE = join(FIXTURES, "bench_vnf");
const SIZES = (process.env.BENCH_SIZES ?? "5,20,100").split(",").map(Number);
/** For debugging one side: BENCH_SIDES=heat or pulumi (default both); BENCH_SIZES=5 (default 5,20,100). */
const SIDES = (process.env.BENCH_SIDES ?? "pulumi,heat").split(",");
const POLL_MS = 1000;
const HEAL_VNFC = "VDU1-0";

const log = (s: string) => process.stderr.write(`${new Date().toISOString().slice(11, 19)} [bench] ${s}\n`);
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const secs = (ms: number) => (ms / 1000).toFixed(1);

// ---------------------------------------------------------------------------------------------
// The lab: up (with Heat) if needed, facts, and back to how it was found.

type Facts = Record<string, string>;

function labStatusOk(): boolean {
  return spawnSync(join(LAB, "status"), { stdio: "ignore" }).status === 0;
}

function pidAlive(name: string, state: string): boolean {
  const f = join(state, "run/pids", `${name}.pid`);
  if (!existsSync(f)) return false;
  try {
    process.kill(Number(readFileSync(f, "utf8").trim()), 0);
    return true;
  } catch {
    return false;
  }
}

function parseFacts(out: string): Facts {
  return Object.fromEntries(
    out
      .trim()
      .split("\n")
      .filter((l) => l.includes("="))
      .map((l) => [l.slice(0, l.indexOf("=")), l.slice(l.indexOf("=") + 1)]),
  );
}

interface LabSession {
  facts: Facts;
  startedLab: boolean;
  startedHeat: boolean;
  /** Seconds `up --with-heat` took, when this bench ran it. */
  upSeconds?: number;
  heatStartSeconds?: number;
}

function labUp(): LabSession {
  const state = join(process.env.NFV_LAB_STATE ?? "/var/lib/pulumi-nfv-lab", "openstack");
  const startedLab = !labStatusOk();
  const startedHeat = startedLab || !pidAlive("heat-api", state) || !pidAlive("heat-engine", state);
  log(
    startedLab
      ? "lab not running: lab/openstack/up --with-heat"
      : startedHeat
        ? "lab running without Heat: lab/openstack/up --with-heat"
        : "lab and Heat running: reusing them",
  );
  const t = performance.now();
  const out = execFileSync(join(LAB, "up"), ["--with-heat"], { encoding: "utf8", stdio: ["ignore", "pipe", "inherit"], timeout: 1_800_000 });
  const facts = parseFacts(out);
  const session: LabSession = { facts, startedLab, startedHeat };
  if (startedLab || startedHeat) session.upSeconds = (performance.now() - t) / 1000;
  if (startedHeat && facts.heat_start_seconds) session.heatStartSeconds = Number(facts.heat_start_seconds);
  return session;
}

function labRestore(s: LabSession): void {
  if (s.startedLab) {
    log("this bench started the lab: lab/openstack/down");
    execFileSync(join(LAB, "down"), { stdio: "inherit" });
  } else if (s.startedHeat) {
    log("this bench started Heat on a running lab: lab/openstack/down --heat-only");
    execFileSync(join(LAB, "down"), ["--heat-only"], { stdio: "inherit" });
  }
}

// ---------------------------------------------------------------------------------------------
// Memory of Heat's processes: every member of the sessions whose leaders' pids `start` recorded.

interface Mem {
  rss: number;
  pss: number;
  procs: number;
}

function heatMemory(state: string): Mem {
  const leaders = new Set<number>();
  for (const n of ["heat-api", "heat-engine"]) {
    const f = join(state, "run/pids", `${n}.pid`);
    if (existsSync(f)) leaders.add(Number(readFileSync(f, "utf8").trim()));
  }
  const m: Mem = { rss: 0, pss: 0, procs: 0 };
  for (const d of pids()) {
    try {
      if (!leaders.has(Number(statFields(d)[3]))) continue;
      const { rssKiB, pssKiB } = rollup(d);
      m.rss += rssKiB;
      m.pss += pssKiB;
      m.procs++;
    } catch {
      // gone meanwhile
    }
  }
  return { rss: m.rss / 1024, pss: m.pss / 1024, procs: m.procs };
}

class MemSampler {
  peak: Mem = { rss: 0, pss: 0, procs: 0 };
  private timer?: NodeJS.Timeout;
  constructor(private state: string) {}
  start(): void {
    this.timer = setInterval(() => {
      const m = heatMemory(this.state);
      if (m.pss > this.peak.pss) this.peak = m;
    }, 2000);
  }
  stop(): void {
    if (this.timer) clearInterval(this.timer);
  }
}

// ---------------------------------------------------------------------------------------------
// OpenStack REST: a token of the VIM's user, Heat and Nova endpoints from its catalog.

interface Api {
  token: string;
  projectId: string;
  heat: string;
  nova: string;
  neutron: string;
  expires: number;
}
let api: Api | undefined;
let vimFile = "";

/** The VIM user's token and endpoints (clients/openstack.ts, as the components authenticate), renewed 10 minutes before expiry. */
async function auth(): Promise<Api> {
  if (api && api.expires - Date.now() > 600_000) return api;
  const { spec, bag } = readVimConfigFile(vimFile);
  bag.throwIfErrors(`bench: ${vimFile}`);
  if (spec.type !== "openstack") throw new Error(`bench: ${vimFile} is not an OpenStack VIM`);
  const session = await keystoneSession(spec);
  const endpoint = (type: string) =>
    session.endpoint(type) ??
    fail(`no ${type} endpoint in the catalog${type === "orchestration" ? ": is Heat registered (lab/openstack/up --with-heat)?" : ""}`);
  api = {
    token: session.token,
    projectId: session.projectId,
    heat: endpoint("orchestration"),
    nova: endpoint("compute"),
    neutron: endpoint("network"),
    expires: session.expiresAt,
  };
  return api;
}

function fail(message: string): never {
  throw new Error(`bench: ${message}`);
}

async function call<T>(method: string, url: string, body?: unknown, ok = [200, 201, 202, 204]): Promise<{ status: number; json: T }> {
  const a = await auth();
  const r = await fetch(url, {
    method,
    headers: { "x-auth-token": a.token, "content-type": "application/json", accept: "application/json", "x-openstack-nova-api-version": "2.47" },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  const text = await r.text();
  if (!ok.includes(r.status)) throw new Error(`${method} ${url.replace(/\/v1\/[0-9a-f]+/, "/v1/<project>")}: ${r.status} ${text.slice(0, 400)}`);
  return { status: r.status, json: (text ? JSON.parse(text) : {}) as T };
}

interface Server {
  id: string;
  name: string;
  status: string;
}

async function benchServers(prefix: string): Promise<Server[]> {
  const a = await auth();
  const { json } = await call<{ servers: Server[] }>("GET", `${a.nova}/servers/detail?name=${encodeURIComponent(`^${prefix}`)}`);
  return json.servers;
}

/** Waits until the VM-host agent has a host for exactly these servers and none for other `prefix` servers. */
async function quiesce(state: string, prefix: string, timeoutS = 600): Promise<void> {
  const t = performance.now();
  for (;;) {
    const want = new Set((await benchServers(prefix)).filter((s) => s.status === "ACTIVE").map((s) => s.id));
    let idx: Record<string, { name: string }> = {};
    try {
      idx = JSON.parse(readFileSync(join(state, "hosts/index.json"), "utf8")) as Record<string, { name: string }>;
    } catch {
      // being rewritten
    }
    const have = new Set(
      Object.entries(idx)
        .filter(([, h]) => h.name.startsWith(prefix))
        .map(([id]) => id),
    );
    if (want.size === have.size && [...want].every((id) => have.has(id))) {
      log(`vm-host agent caught up (${have.size} ${prefix}* hosts) after ${secs(performance.now() - t)} s`);
      return;
    }
    if (performance.now() - t > timeoutS * 1000) {
      log(`vm-host agent not caught up after ${timeoutS} s (${have.size}/${want.size}); going on`);
      return;
    }
    await sleep(2000);
  }
}

// ---------------------------------------------------------------------------------------------
// Heat, as Tacker drives it (heatclient calls, here as plain REST).

interface HeatStack {
  id: string;
  stack_name: string;
  stack_status: string;
  stack_status_reason: string;
  updated_time: string | null;
}

async function heatStack(name: string, id: string): Promise<HeatStack | undefined> {
  const a = await auth();
  const r = await call<{ stack: HeatStack }>("GET", `${a.heat}/stacks/${name}/${id}`, undefined, [200, 404]);
  return r.status === 404 ? undefined : r.json.stack;
}

async function heatWait(name: string, id: string, done: (s: HeatStack | undefined) => boolean): Promise<HeatStack | undefined> {
  for (;;) {
    const s = await heatStack(name, id);
    if (s?.stack_status.endsWith("_FAILED")) throw new Error(`heat stack ${name}: ${s.stack_status} ${s.stack_status_reason}`);
    if (done(s)) return s;
    await sleep(POLL_MS);
  }
}

function heatTemplate(n: number, resources: Facts): { template: string; files: Record<string, string>; parameters: unknown } {
  // sent as text, as heatclient does (a YAML parser here would turn the template version into a date)
  const top = readFileSync(join(FIXTURES, "heat/bench_top.yaml"), "utf8");
  if (!/^ {6}desired_capacity: \d+$/m.test(top)) throw new Error("bench_top.yaml: no desired_capacity line");
  const template = top.replace(/^( {6}desired_capacity:) \d+$/m, `$1 ${n}`);
  // What Tacker passes as the `nfv` parameter: ids of the flavor and image, the external network.
  const nfv = {
    VDU: { VDU1: { computeFlavourId: resources["flavor.m1.tiny"], vcImageId: resources["image.tiny"] } },
    CP: { VDU1_CP1: { network: resources["network.lab-net"] } },
  };
  return { template, files: { "VDU1.yaml": readFileSync(join(FIXTURES, "heat/VDU1.yaml"), "utf8") }, parameters: { nfv } };
}

/** Creates the stack; `created.id` is set as soon as Heat accepted it (for cleanup after a failure). */
async function heatCreate(name: string, n: number, resources: Facts, created: { id?: string }): Promise<{ id: string; seconds: number }> {
  const a = await auth();
  const t = performance.now();
  const { json } = await call<{ stack: { id: string } }>("POST", `${a.heat}/stacks`, {
    stack_name: name,
    ...heatTemplate(n, resources),
    timeout_mins: 60,
    disable_rollback: true,
  });
  created.id = json.stack.id;
  await heatWait(name, json.stack.id, (s) => s?.stack_status === "CREATE_COMPLETE");
  return { id: json.stack.id, seconds: (performance.now() - t) / 1000 };
}

interface HeatResource {
  resource_name: string;
  resource_type: string;
  physical_resource_id: string;
  links: { href: string; rel: string }[];
}

/** The server resource of one AutoScalingGroup member: its nested stack (name, id) and server id. */
async function heatMember(name: string, id: string): Promise<{ stack: string; stackId: string; server: string }> {
  const a = await auth();
  const { json } = await call<{ resources: HeatResource[] }>("GET", `${a.heat}/stacks/${name}/${id}/resources?nested_depth=2`);
  const servers = json.resources
    .filter((r) => r.resource_type === "OS::Nova::Server")
    .sort((x, y) => x.physical_resource_id.localeCompare(y.physical_resource_id));
  const href = servers[0].links.find((l) => l.rel === "stack")!.href;
  const [, sname, sid] = /\/stacks\/([^/]+)\/([^/]+)$/.exec(href)!;
  return { stack: sname, stackId: sid, server: servers[0].physical_resource_id };
}

/** Updates the stack (PATCH: its existing template, parameters and files unless `body` gives them) and waits until that update is complete: its `updated_time` is no longer `before`. */
async function heatUpdate(name: string, id: string, body: unknown, before: string | null): Promise<void> {
  const a = await auth();
  await call("PATCH", `${a.heat}/stacks/${name}/${id}`, body);
  await heatWait(name, id, (s) => s?.stack_status === "UPDATE_COMPLETE" && s.updated_time !== before);
}

async function heatHealApi(name: string, id: string): Promise<number> {
  const a = await auth();
  const m = await heatMember(name, id);
  const oldPorts = await portsOf(m.server);
  const before = (await heatStack(name, id))!.updated_time;
  const t = performance.now();
  await call("PATCH", `${a.heat}/stacks/${m.stack}/${m.stackId}/resources/VDU1`, { mark_unhealthy: true, resource_status_reason: "bench heal" });
  await heatUpdate(name, id, {}, before);
  const seconds = (performance.now() - t) / 1000;
  await checkReplaced(m.server, oldPorts, "bench-VDU1");
  return seconds;
}

async function heatHealCli(name: string, id: string, facts: Facts): Promise<number> {
  const m = await heatMember(name, id);
  const oldPorts = await portsOf(m.server);
  const env = { ...process.env, OS_CLIENT_CONFIG_FILE: facts.clouds_yaml, OS_CLOUD: "oslab", PATH: `/usr/bin:/bin:${process.env.PATH}` };
  const t = performance.now();
  execFileSync("openstack", ["stack", "resource", "mark", "unhealthy", m.stackId, "VDU1", "bench heal"], { env, stdio: "ignore" });
  execFileSync("openstack", ["stack", "update", "--existing", "--wait", id], { env, stdio: "ignore" });
  const seconds = (performance.now() - t) / 1000;
  await checkReplaced(m.server, oldPorts, "bench-VDU1");
  return seconds;
}

/**
 * Tacker's scale on Heat as its v2 openstack driver does it: a stack update with the aspect's new
 * desired capacity (Tacker puts it in the `nfv` parameter; the bench's template carries it
 * literally). Tacker's v1 driver signals the aspect's scaling policy instead, which Heat carries out
 * with the stack's stored credentials: trusts, which the lab's Heat is not set up for (the signal is
 * accepted, then fails in heat-engine with "no password trust or auth_token").
 */
async function heatScale(name: string, id: string, resources: Facts, want: number, what: string): Promise<number> {
  const before = (await heatStack(name, id))!.updated_time;
  const t = performance.now();
  await heatUpdate(name, id, heatTemplate(want, resources), before);
  const seconds = (performance.now() - t) / 1000;
  await checkServers("bench-VDU1", want, what);
  return seconds;
}

async function heatDelete(name: string, id: string): Promise<number> {
  const a = await auth();
  const t = performance.now();
  await call("DELETE", `${a.heat}/stacks/${name}/${id}`);
  await heatWait(name, id, (s) => s === undefined || s.stack_status === "DELETE_COMPLETE");
  return (performance.now() - t) / 1000;
}

async function portsOf(serverId: string): Promise<string[]> {
  const a = await auth();
  const { json } = await call<{ ports: { id: string }[] }>("GET", `${a.neutron}/v2.0/ports?device_id=${serverId}`);
  return json.ports.map((p) => p.id).sort();
}

/** After a scale: exactly `want` servers named `prefix…`, every one ACTIVE. */
async function checkServers(prefix: string, want: number, what: string): Promise<void> {
  const now = await benchServers(prefix);
  if (now.length !== want || now.some((s) => s.status !== "ACTIVE"))
    throw new Error(`after ${what}: ${now.length} servers (${now.filter((s) => s.status !== "ACTIVE").length} not ACTIVE), want ${want} ACTIVE`);
}

/** After a heal: the old server is gone, every server is ACTIVE, its ports now belong to the new one. */
async function checkReplaced(oldServer: string, oldPorts: string[], prefix: string): Promise<void> {
  const now = await benchServers(prefix);
  if (now.some((s) => s.id === oldServer)) throw new Error(`heal did not replace server ${oldServer}`);
  if (now.some((s) => s.status !== "ACTIVE"))
    throw new Error(
      `after heal: ${now
        .filter((s) => s.status !== "ACTIVE")
        .map((s) => `${s.name} ${s.status}`)
        .join(", ")}`,
    );
  const owners = await Promise.all(now.map(async (s) => ({ s, ports: await portsOf(s.id) })));
  if (!owners.some((o) => o.ports.join() === oldPorts.join())) throw new Error(`after heal: port(s) ${oldPorts.join(", ")} not kept by a new server`);
}

// ---------------------------------------------------------------------------------------------
// Pulumi: the project's program through the Automation API on a private file backend.

async function pulumiOpen(n: number, facts: Facts, resources: Facts, work: string): Promise<BenchStack> {
  const request = JSON.parse(readFileSync(join(FIXTURES, `bench_level${n}.json`), "utf8")) as { extVirtualLinks: { resourceId: string }[] };
  request.extVirtualLinks[0].resourceId = resources["network.lab-net"];
  const requestFile = join(work, `bench_level${n}.json`);
  writeFileSync(requestFile, JSON.stringify(request, null, 2));
  const vnf = `pulumi-nfv:vnfs.bench${n}`;
  return openBenchStack(`bench-pulumi-${n}`, {
    "pulumi-nfv:vims.lab.file": facts.vim_config,
    [`${vnf}.vim`]: "lab",
    [`${vnf}.package`]: PACKAGE,
    [`${vnf}.instantiate_request`]: requestFile,
  });
}

async function pulumiUp(p: BenchStack, n: number): Promise<Timed> {
  const timed = await budgeted(async (onEvent) => {
    const r = await p.stack.up({ color: "never", onEvent });
    if (r.summary.result !== "succeeded") throw new Error(`pulumi up: ${r.summary.result}`);
  });
  await checkServers(`bench${n}-`, n, "pulumi up");
  return timed;
}

async function pulumiHeal(p: BenchStack, n: number, work: string): Promise<Timed> {
  const vnf = `bench${n}`;
  const old = (await benchServers(`${vnf}-${HEAL_VNFC}`))[0].id;
  const oldPorts = await portsOf(old);
  const timed = await nfvRun(p, "heal", ["--vnf", vnf, "--vnfc", HEAL_VNFC], work);
  await checkReplaced(old, oldPorts, `${vnf}-`);
  return timed;
}

/** `nfv scale` of the bench VNF's aspect by one step; `want` servers after it. */
async function pulumiScale(p: BenchStack, n: number, type: "in" | "out", want: number, work: string): Promise<Timed> {
  const timed = await nfvRun(p, "scale", ["--vnf", `bench${n}`, "--aspect", "vdu1_aspect", "--steps", "1", "--type", type], work);
  await checkServers(`bench${n}-`, want, `nfv scale --type ${type}`);
  return timed;
}

async function pulumiDestroy(p: BenchStack): Promise<Timed> {
  return budgeted((onEvent) => p.stack.destroy({ color: "never", onEvent }));
}

// ---------------------------------------------------------------------------------------------

interface Row {
  n: number;
  op: string;
  pulumi?: number;
  heat?: number;
  note?: string;
  /** Where the Pulumi run's seconds went. */
  budget?: string[];
  /** The Pulumi run's peak memory by process role. */
  memory?: string;
}

/** Records a Pulumi run on its row; its seconds. */
function record(row: Row, timed: Timed): number {
  row.pulumi = timed.seconds;
  row.budget = timed.budget;
  row.memory = timed.memory;
  return timed.seconds;
}

async function runSize(n: number, lab: LabSession, state: string, resources: Facts, work: string, rows: Row[], sampler: MemSampler): Promise<void> {
  const heatName = `bench-heat-${n}`;
  const deploy: Row = { n, op: `deploy ${n} servers` };
  const heal: Row = { n, op: `heal 1 of ${n} (Heat: API)` };
  const healCli: Row = { n, op: `heal 1 of ${n} (Heat: openstack CLI)` };
  const noop: Row = { n, op: `up with no change, ${n} servers` };
  const scaleIn: Row = { n, op: `scale in 1 of ${n}` };
  const scaleOut: Row = { n, op: `scale out back to ${n}` };
  const destroy: Row = { n, op: `destroy ${n} servers` };
  rows.push(deploy, noop, heal, healCli, scaleIn, scaleOut, destroy);

  const pulumiSide = async () => {
    const p = await pulumiOpen(n, lab.facts, resources, work);
    try {
      log(`pulumi up, ${n} servers`);
      log(`pulumi up: ${secs(record(deploy, await pulumiUp(p, n)) * 1000)} s`);
      await quiesce(state, `bench${n}-`);
      const again = await budgeted((onEvent) => p.stack.up({ color: "never", onEvent }));
      const changed = Object.entries(again.result.summary.resourceChanges ?? {}).filter(([op, k]) => op !== "same" && (k ?? 0) > 0);
      if (changed.length > 0) throw new Error(`a second pulumi up changed ${JSON.stringify(changed)}`);
      log(`pulumi up with no change: ${secs(record(noop, again) * 1000)} s`);
      healCli.pulumi = record(heal, await pulumiHeal(p, n, work));
      log(`nfv heal --vnfc ${HEAL_VNFC}: ${secs(healCli.pulumi * 1000)} s`);
      await quiesce(state, `bench${n}-`);
      log(`nfv scale --type in: ${secs(record(scaleIn, await pulumiScale(p, n, "in", n - 1, work)) * 1000)} s`);
      await quiesce(state, `bench${n}-`);
      log(`nfv scale --type out: ${secs(record(scaleOut, await pulumiScale(p, n, "out", n, work)) * 1000)} s`);
      await quiesce(state, `bench${n}-`);
      log(`pulumi destroy: ${secs(record(destroy, await pulumiDestroy(p)) * 1000)} s`);
      await quiesce(state, `bench${n}-`);
    } finally {
      await p.stack.destroy({ color: "never" }).catch(() => undefined);
      await p.dispose();
    }
  };
  const heatSide = async () => {
    log(`heat stack create ${heatName}, ${n} servers`);
    sampler.start();
    const created: { id?: string } = {};
    let id: string | undefined;
    try {
      const c = await heatCreate(heatName, n, resources, created);
      id = c.id;
      deploy.heat = c.seconds;
      log(`heat create: ${secs(deploy.heat * 1000)} s`);
      await quiesce(state, "bench-VDU1");
      heal.heat = await heatHealApi(heatName, id);
      log(`heat mark unhealthy + update --existing (API): ${secs(heal.heat * 1000)} s`);
      await quiesce(state, "bench-VDU1");
      healCli.heat = await heatHealCli(heatName, id, lab.facts);
      log(`heat mark unhealthy + update --existing (CLI): ${secs(healCli.heat * 1000)} s`);
      await quiesce(state, "bench-VDU1");
      scaleIn.heat = await heatScale(heatName, id, resources, n - 1, "heat scale in");
      log(`heat stack update, desired capacity ${n - 1}: ${secs(scaleIn.heat * 1000)} s`);
      await quiesce(state, "bench-VDU1");
      scaleOut.heat = await heatScale(heatName, id, resources, n, "heat scale out");
      log(`heat stack update, desired capacity ${n}: ${secs(scaleOut.heat * 1000)} s`);
      await quiesce(state, "bench-VDU1");
      destroy.heat = await heatDelete(heatName, id);
      id = undefined;
      created.id = undefined;
      log(`heat stack delete: ${secs(destroy.heat * 1000)} s`);
      await quiesce(state, "bench-VDU1");
    } finally {
      sampler.stop();
      id ??= created.id;
      if (id) await heatDelete(heatName, id).catch((e: unknown) => log(`cleanup of ${heatName} failed: ${String(e)}`));
    }
  };
  // alternate who goes first, so that a drift in the lab's load does not favour one side
  const order = SIZES.indexOf(n) % 2 === 0 ? [pulumiSide, heatSide] : [heatSide, pulumiSide];
  for (const side of order.filter((f) => SIDES.includes(f === pulumiSide ? "pulumi" : "heat"))) {
    try {
      await side();
    } catch (e) {
      const msg = e instanceof Error ? e.message : String(e);
      log(`FAILED: ${msg}`);
      deploy.note = (deploy.note ? `${deploy.note}; ` : "") + msg.slice(0, 200);
    }
  }
}

function table(rows: Row[]): string {
  // the no-change row has no Heat counterpart; with BENCH_SIDES=pulumi, Heat did not run ("-", not "failed")
  return ratioTable(
    "heat",
    rows.map((r) => ({ op: r.op, ours: r.pulumi, peer: r.op.startsWith("up with no change") || !SIDES.includes("heat") ? null : r.heat })),
  );
}

async function main(): Promise<void> {
  const lab = labUp();
  const state = lab.facts.state_dir;
  vimFile = lab.facts.vim_config;
  const resources = parseFacts(readFileSync(join(state, "resources.env"), "utf8"));
  const work = mkdtempSync(join(tmpdir(), "nfv-bench-os-"));
  const rows: Row[] = [];
  const idle = heatMemory(state);
  const sampler = new MemSampler(state);
  const load0 = loadavg();
  const t0 = performance.now();
  try {
    // leftovers of an interrupted run
    const stale = await benchServers("bench");
    if (stale.length > 0) log(`warning: ${stale.length} bench* servers exist before the run: ${stale.map((s) => s.name).join(", ")}`);
    for (const n of SIZES) await runSize(n, lab, state, resources, work, rows, sampler);
  } finally {
    const after = heatMemory(state);
    rmSync(work, { recursive: true, force: true });
    const out: string[] = [];
    out.push(table(rows));
    for (const r of rows.filter((x) => x.note)) out.push(`note (${r.op}): ${r.note}`);
    out.push("", "where the Pulumi seconds went (step events of each run; the provider's fixed waits are its StateChangeConf delays):");
    for (const r of rows.filter((x) => x.budget)) out.push(`${r.op}, ${r.budget![0]}`, ...r.budget!.slice(1));
    out.push("", "peak memory of each Pulumi run's processes (sampled every 0.5 s; PSS adds up across processes, RSS counts shared pages in each):");
    for (const r of rows.filter((x) => x.memory)) out.push(`${r.op}: ${r.memory}`);
    out.push("up with no change: Pulumi's fixed cost of a run (program, plugins, diff of every resource; no refresh); Heat has no such step");
    out.push(
      "both heal rows: the Pulumi column is the same `nfv heal` run; the Heat rows are Tacker's way through the API (heatclient) and the literal openstack CLI commands (3-4 s client start-up each, --wait polls)",
    );
    out.push("");
    out.push(
      "pulumi: `pulumi up` (Automation API) / `nfv heal --vnfc VDU1-0` (own process: up --replace of the server, port kept) / `nfv scale --aspect vdu1_aspect --steps 1` (own process: the scale level in stack config, then up) / `pulumi destroy`",
    );
    out.push(parallelismLine());
    out.push(
      `heat: Tacker-style BaseHOT (AutoScalingGroup of VDU1.yaml: port + server, scaling policies), REST API polled every ${POLL_MS} ms; heal = mark unhealthy + update --existing; scale = stack update with the new desired capacity (Tacker's v2 driver; v1's policy signal needs Heat trusts, which the lab lacks)`,
    );
    out.push("both end when every server is ACTIVE in Nova (nova fake driver); the lab's VM-host agent settles between measurements");
    out.push(
      lab.heatStartSeconds !== undefined
        ? `heat start (processes started → API answers, ${lab.facts.heat_engine_workers ?? "?"} engine workers registered): ${lab.heatStartSeconds} s; lab/openstack/up --with-heat took ${lab.upSeconds?.toFixed(0)} s${lab.startedLab ? " (whole lab)" : " (lab already running)"}`
        : "heat start: not measured (Heat was already running)",
    );
    out.push(
      `heat memory (heat-api + heat-engine and its workers): idle ${idle.procs} processes RSS ${idle.rss.toFixed(0)} MiB / PSS ${idle.pss.toFixed(0)} MiB; peak during Heat's work RSS ${sampler.peak.rss.toFixed(0)} / PSS ${sampler.peak.pss.toFixed(0)} MiB; at the end RSS ${after.rss.toFixed(0)} / PSS ${after.pss.toFixed(0)} MiB`,
    );
    out.push(
      `load average ${load0.map((l) => l.toFixed(1)).join(" ")} at the start, ${loadavg()
        .map((l) => l.toFixed(1))
        .join(" ")} at the end, on ${cpus().length} cores; bench took ${secs(performance.now() - t0)} s`,
    );
    process.stdout.write(out.join("\n") + "\n");
    labRestore(lab);
  }
}

main().catch((e: unknown) => {
  process.stderr.write(`${e instanceof Error ? (e.stack ?? e.message) : String(e)}\n`);
  process.exitCode = 1;
});
