/**
 * Alertmanager's webhook body (version 4) as Tacker's Prometheus plugin reads it: each firing
 * alert whose labels say `receiver_type: tacker` asks for one operation on one VNF,
 *
 *   function_type: auto_heal   vnf_instance_id, vnfc_info_id             → heal that VNFC
 *   function_type: auto_scale  vnf_instance_id, aspect_id, auto_scale_type (SCALE_OUT | SCALE_IN)
 *                                                                        → scale that aspect one step
 *
 * `vnf_instance_id` is the VNF entry's name or its `vnf_instance_id` (Tacker's rules carry the
 * instance id). The same alert comes again while it fires (Alertmanager's group and repeat
 * intervals): its fingerprint and start time are its key, so it is acted on once.
 */
import type { AutoPolicyKey } from "../../stacks/auto-settings";

export type AlertAction = { kind: "heal"; vnf: string; vnfc: string } | { kind: "scale"; vnf: string; aspect: string; type: "out" | "in" };

/** Why an alert asks for nothing. */
export interface AlertProblem {
  code: string;
  message: string;
}

export interface ReceivedAlert {
  /** `<fingerprint>@<startsAt>`: the same key each time Alertmanager sends this alert again. */
  key: string;
  /** The alert's `labels.alertname`, for reports. */
  name: string;
  action?: AlertAction;
  /** Resolved alerts and alerts for another receiver are ignored (no action, no problem). */
  ignored?: string;
  problem?: AlertProblem;
}

/** The Tacker paths and the function each takes; `/alert` takes both. */
export const ALERT_PATHS: Record<string, AutoPolicyKey[]> = {
  "/alert": ["auto_heal", "auto_scale"],
  "/alert/auto_healing": ["auto_heal"],
  "/alert/auto_scaling": ["auto_scale"],
};

export class BadWebhookBody extends Error {}

const isMapping = (v: unknown): v is Record<string, unknown> => typeof v === "object" && v !== null && !Array.isArray(v);

/** The alerts of one webhook body; a body that is not Alertmanager's is refused whole. */
export function readAlerts(body: unknown, functions: readonly AutoPolicyKey[]): ReceivedAlert[] {
  if (!isMapping(body) || !Array.isArray(body.alerts)) throw new BadWebhookBody("the body is not an Alertmanager webhook (an object with an `alerts` list)");
  return body.alerts.map((a, i) => readAlert(a, i, functions));
}

function readAlert(a: unknown, index: number, functions: readonly AutoPolicyKey[]): ReceivedAlert {
  const at = `alerts[${index}]`;
  if (!isMapping(a) || !isMapping(a.labels))
    return { key: `${at}@unkeyed`, name: "", problem: { code: "SERVE_BAD_ALERT", message: `${at}: an alert must be an object with labels` } };
  const labels = a.labels as Record<string, unknown>;
  const label = (k: string) => (typeof labels[k] === "string" && labels[k] !== "" ? (labels[k] as string) : undefined);
  const name = label("alertname") ?? "";
  const key = `${typeof a.fingerprint === "string" ? a.fingerprint : JSON.stringify(labels)}@${typeof a.startsAt === "string" ? a.startsAt : ""}`;
  if (a.status !== "firing") return { key, name, ignored: `status ${String(a.status)}` };
  if (label("receiver_type") !== "tacker") return { key, name, ignored: `receiver_type ${label("receiver_type") ?? "(none)"}, not tacker` };
  const bad = (message: string): ReceivedAlert => ({ key, name, problem: { code: "SERVE_BAD_ALERT", message: `${at} (${name || "unnamed"}): ${message}` } });
  const fn = label("function_type");
  if (fn !== "auto_heal" && fn !== "auto_scale") return bad(`labels.function_type ${fn ?? "(none)"} is not auto_heal or auto_scale`);
  if (!functions.includes(fn)) return bad(`labels.function_type ${fn} is not taken on this path`);
  const vnf = label("vnf_instance_id");
  if (!vnf) return bad("labels.vnf_instance_id is required (the VNF's name or instance id)");
  if (fn === "auto_heal") {
    const vnfc = label("vnfc_info_id");
    return vnfc ? { key, name, action: { kind: "heal", vnf, vnfc } } : bad("labels.vnfc_info_id is required for auto_heal (the VNFC to heal)");
  }
  const aspect = label("aspect_id");
  if (!aspect) return bad("labels.aspect_id is required for auto_scale");
  const type = label("auto_scale_type");
  if (type !== "SCALE_OUT" && type !== "SCALE_IN") return bad(`labels.auto_scale_type ${type ?? "(none)"} is not SCALE_OUT or SCALE_IN`);
  return { key, name, action: { kind: "scale", vnf, aspect, type: type === "SCALE_OUT" ? "out" : "in" } };
}
