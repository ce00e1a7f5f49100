/**
 * What `nfv serve` does with the alerts it receives: one operation at a time for its stack (the
 * others queued, in order), an alert acted on once however often Alertmanager sends it again, a
 * cool-down per VNFC healed and per aspect scaled, and alerts for VNFCs of a heal still queued
 * joined to it (Tacker's Prometheus plugin batches them the same way).
 */
import type { AutoPolicy } from "../../stacks/auto-settings";
import type { ReceivedAlert } from "./alerts";

/** The policies of one VNF of the stack config. */
export interface VnfPolicies {
  name: string;
  vnfInstanceId: string;
  autoHeal?: AutoPolicy;
  autoScale?: AutoPolicy;
}

export interface AutoOperation {
  id: number;
  kind: "heal" | "scale";
  /** The VNF entry's name. */
  vnf: string;
  /** heal: the VNFCs. */
  vnfcs: string[];
  /** scale: the aspect and direction, one step. */
  aspect?: string;
  type?: "out" | "in";
  /** The keys of the alerts it acts on. */
  alerts: string[];
  coolDownSeconds: number;
  state: "queued" | "running" | "succeeded" | "failed" | "dropped";
  queuedAt: string;
  startedAt?: string;
  endedAt?: string;
  /** The `nfv` command's exit status and output. */
  exitCode?: number;
  output?: string;
  /** dropped: why. */
  reason?: string;
}

export interface AlertOutcome {
  key: string;
  name: string;
  outcome: "queued" | "joined" | "duplicate" | "cooling-down" | "ignored" | "refused";
  operation?: number;
  code?: string;
  message?: string;
}

export type Execute = (op: AutoOperation) => Promise<{ exitCode: number; output: string }>;

export class AutoDispatcher {
  private readonly seen = new Set<string>();
  private readonly queue: AutoOperation[] = [];
  private readonly all: AutoOperation[] = [];
  /** `heal <vnf>/<vnfc>` or `scale <vnf>/<aspect>` → until when (ms) alerts for it are dropped. */
  private readonly coolUntil = new Map<string, number>();
  private pumping?: Promise<void>;

  constructor(
    private readonly execute: Execute,
    private readonly now: () => number = Date.now,
  ) {}

  /** Takes a webhook's alerts, given the stack's VNF policies as they are now; says what became of each. */
  submit(alerts: ReceivedAlert[], policies: VnfPolicies[]): AlertOutcome[] {
    const outcomes = alerts.map((a) => this.take(a, policies));
    this.kick();
    return outcomes;
  }

  /** Resolves once nothing is queued or running. */
  async idle(): Promise<void> {
    while (this.pumping) await this.pumping;
  }

  /** Every operation so far, oldest first. */
  operations(): readonly AutoOperation[] {
    return this.all;
  }

  private take(alert: ReceivedAlert, policies: VnfPolicies[]): AlertOutcome {
    const base = { key: alert.key, name: alert.name };
    if (alert.ignored) return { ...base, outcome: "ignored", message: alert.ignored };
    if (!alert.action) return { ...base, outcome: "refused", ...alert.problem };
    const action = alert.action;
    const refuse = (code: string, message: string): AlertOutcome => ({ ...base, outcome: "refused", code, message });
    const vnf = policies.find((p) => p.name === action.vnf || p.vnfInstanceId === action.vnf);
    if (!vnf) return refuse("SERVE_NO_POLICY", `no VNF '${action.vnf}' in the stack (by name or vnf_instance_id): no policy to apply`);
    const key = action.kind === "heal" ? "auto_heal" : "auto_scale";
    const policy = action.kind === "heal" ? vnf.autoHeal : vnf.autoScale;
    if (!policy) return refuse("SERVE_NO_POLICY", `VNF '${vnf.name}' has no ${key} in the stack config: its ${action.kind} alerts are not acted on`);
    if (action.kind === "scale" && policy.aspects && !policy.aspects.includes(action.aspect))
      return refuse("SERVE_ASPECT_NOT_ALLOWED", `VNF '${vnf.name}': auto_scale.aspects (${policy.aspects.join(", ")}) does not hold aspect '${action.aspect}'`);
    if (this.seen.has(alert.key)) return { ...base, outcome: "duplicate", operation: this.all.find((o) => o.alerts.includes(alert.key))?.id };
    this.seen.add(alert.key);
    const target = action.kind === "heal" ? action.vnfc : action.aspect;
    if ((this.coolUntil.get(coolKey(action.kind, vnf.name, target)) ?? 0) > this.now())
      return { ...base, outcome: "cooling-down", message: `${action.kind} of ${vnf.name}/${target} is cooling down` };
    const queued = this.queue.find(
      (o) => o.kind === action.kind && o.vnf === vnf.name && (action.kind === "heal" || (o.aspect === action.aspect && o.type === action.type)),
    );
    if (queued) {
      if (action.kind === "heal" && !queued.vnfcs.includes(action.vnfc)) queued.vnfcs.push(action.vnfc);
      queued.alerts.push(alert.key);
      return { ...base, outcome: "joined", operation: queued.id };
    }
    const op: AutoOperation = {
      id: this.all.length + 1,
      kind: action.kind,
      vnf: vnf.name,
      vnfcs: action.kind === "heal" ? [action.vnfc] : [],
      ...(action.kind === "scale" ? { aspect: action.aspect, type: action.type } : {}),
      alerts: [alert.key],
      coolDownSeconds: policy.coolDownSeconds,
      state: "queued",
      queuedAt: new Date(this.now()).toISOString(),
    };
    this.all.push(op);
    this.queue.push(op);
    return { ...base, outcome: "queued", operation: op.id };
  }

  /** Starts the queue's runner unless it runs; it starts again if something came in as it ended. */
  private kick(): void {
    if (this.pumping || this.queue.length === 0) return;
    this.pumping = this.pump().finally(() => {
      this.pumping = undefined;
      this.kick();
    });
  }

  private async pump(): Promise<void> {
    for (let op = this.queue.shift(); op; op = this.queue.shift()) {
      const targets = op.kind === "heal" ? op.vnfcs : [op.aspect!];
      // A VNFC healed (or an aspect scaled) by the operation before this one, while it waited.
      const cooling = targets.filter((t) => (this.coolUntil.get(coolKey(op!.kind, op!.vnf, t)) ?? 0) > this.now());
      if (op.kind === "heal") op.vnfcs = op.vnfcs.filter((v) => !cooling.includes(v));
      if (cooling.length === targets.length) {
        op.state = "dropped";
        op.reason = `cooling down: ${cooling.join(", ")}`;
        continue;
      }
      op.state = "running";
      op.startedAt = new Date(this.now()).toISOString();
      try {
        const r = await this.execute(op);
        op.exitCode = r.exitCode;
        op.output = r.output;
        op.state = r.exitCode === 0 ? "succeeded" : "failed";
      } catch (e) {
        op.state = "failed";
        op.output = String((e as Error).message);
      }
      op.endedAt = new Date(this.now()).toISOString();
      // Failed too: the operation's own rollback point is there to act on, not another try.
      for (const t of op.kind === "heal" ? op.vnfcs : [op.aspect!]) this.coolUntil.set(coolKey(op.kind, op.vnf, t), this.now() + op.coolDownSeconds * 1000);
    }
  }
}

const coolKey = (kind: string, vnf: string, target: string) => `${kind} ${vnf}/${target}`;
