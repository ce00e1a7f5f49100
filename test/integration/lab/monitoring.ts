/**
 * Debian's Prometheus and Alertmanager for the auto-heal/scale test, each a process of its own on
 * a loopback port with its files in a scratch directory: Prometheus scrapes a target of the test
 * every second and evaluates the test's alert rules, Alertmanager sends every alert on its own to
 * one webhook, again every few seconds while it fires (as a production repeat_interval would, only
 * sooner). Installed as the lab installs its packages (lab/lib/debian.sh).
 */
import { execFileSync, spawn, type ChildProcess } from "node:child_process";
import { createWriteStream, mkdirSync, writeFileSync } from "node:fs";
import { createServer } from "node:net";
import * as path from "node:path";
import { ROOT, until } from "../harness";

export interface Monitoring {
  prometheusUrl: string;
  alertmanagerUrl: string;
  /** Stops both and waits for them to exit. */
  stop(): Promise<void>;
}

export interface MonitoringArgs {
  dir: string;
  /** `host:port` of the test's metrics. */
  scrapeTarget: string;
  /** Prometheus rule groups (YAML). */
  rules: string;
  /** Where Alertmanager posts. */
  webhookUrl: string;
  /** Alertmanager's repeat_interval for a firing alert. */
  repeatSeconds: number;
}

export function installMonitoring(): void {
  execFileSync("bash", ["-c", 'log() { printf "[monitoring] %s\\n" "$*"; }; . lab/lib/debian.sh; install_debian_packages prometheus prometheus-alertmanager'], {
    cwd: ROOT,
    stdio: ["ignore", "inherit", "inherit"],
  });
}

/** A port nothing listens on now, on 127.0.0.1. */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = createServer();
    s.once("error", reject);
    s.listen(0, "127.0.0.1", () => {
      const { port } = s.address() as { port: number };
      s.close(() => resolve(port));
    });
  });
}

export async function startMonitoring(args: MonitoringArgs): Promise<Monitoring> {
  const [promPort, amPort] = [await freePort(), await freePort()];
  mkdirSync(path.join(args.dir, "prometheus-data"), { recursive: true });
  mkdirSync(path.join(args.dir, "alertmanager-data"), { recursive: true });
  writeFileSync(path.join(args.dir, "rules.yml"), args.rules);
  writeFileSync(
    path.join(args.dir, "prometheus.yml"),
    [
      "global: {scrape_interval: 1s, evaluation_interval: 1s}",
      `alerting: {alertmanagers: [{static_configs: [{targets: ["127.0.0.1:${amPort}"]}]}]}`,
      "rule_files: [rules.yml]",
      `scrape_configs: [{job_name: nfv-lab, static_configs: [{targets: ["${args.scrapeTarget}"]}]}]`,
      "",
    ].join("\n"),
  );
  writeFileSync(
    path.join(args.dir, "alertmanager.yml"),
    [
      "route:",
      "  receiver: nfv",
      "  group_by: ['...']", // every alert on its own
      "  group_wait: 1s",
      "  group_interval: 2s",
      `  repeat_interval: ${args.repeatSeconds}s`,
      "receivers:",
      "  - name: nfv",
      `    webhook_configs: [{url: "${args.webhookUrl}", send_resolved: true}]`,
      "",
    ].join("\n"),
  );
  const children: ChildProcess[] = [];
  const run = (name: string, bin: string, argv: string[]) => {
    const log = createWriteStream(path.join(args.dir, `${name}.log`));
    const child = spawn(bin, argv, { cwd: args.dir, stdio: ["ignore", "pipe", "pipe"] });
    child.stdout!.pipe(log);
    child.stderr!.pipe(log);
    children.push(child);
  };
  run("alertmanager", "/usr/bin/prometheus-alertmanager", [
    `--config.file=${path.join(args.dir, "alertmanager.yml")}`,
    `--storage.path=${path.join(args.dir, "alertmanager-data")}`,
    `--web.listen-address=127.0.0.1:${amPort}`,
    "--cluster.listen-address=", // no gossip: one Alertmanager, nothing off loopback
  ]);
  run("prometheus", "/usr/bin/prometheus", [
    `--config.file=${path.join(args.dir, "prometheus.yml")}`,
    `--storage.tsdb.path=${path.join(args.dir, "prometheus-data")}`,
    `--web.listen-address=127.0.0.1:${promPort}`,
  ]);
  const m: Monitoring = {
    prometheusUrl: `http://127.0.0.1:${promPort}`,
    alertmanagerUrl: `http://127.0.0.1:${amPort}`,
    stop: async () => {
      await Promise.all(
        children.map((c) => (c.exitCode !== null || c.signalCode !== null ? undefined : new Promise((r) => c.once("exit", r).kill("SIGTERM")))),
      );
    },
  };
  try {
    for (const url of [`${m.alertmanagerUrl}/-/ready`, `${m.prometheusUrl}/-/ready`]) await until(`${url} ready`, 60, async () => (await fetch(url)).ok);
  } catch (e) {
    await m.stop();
    throw e;
  }
  return m;
}
