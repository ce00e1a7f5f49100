import { describe, expect, it } from "vitest";
import { ALERT_PATHS, BadWebhookBody, readAlerts } from "../../../../ops/auto/alerts";
import { alert, webhook } from "../../helpers/alerts";

describe("Alertmanager webhook alerts, read as Tacker's Prometheus plugin does", () => {
  it("auto_heal names a VNFC, auto_scale an aspect and a direction; the key is fingerprint and start", () => {
    const [heal, scale] = readAlerts(
      webhook(
        alert({ function_type: "auto_heal", vnf_instance_id: "rb", vnfc_info_id: "worker-0" }),
        alert({ function_type: "auto_scale", vnf_instance_id: "rb", aspect_id: "worker_aspect", auto_scale_type: "SCALE_IN" }, { fingerprint: "aa" }),
      ),
      ALERT_PATHS["/alert"],
    );
    expect(heal).toEqual({ key: "5ef77f1f8a3ecb8d@2026-12-03T07:00:00.000Z", name: "VnfcDown", action: { kind: "heal", vnf: "rb", vnfc: "worker-0" } });
    expect(scale.action).toEqual({ kind: "scale", vnf: "rb", aspect: "worker_aspect", type: "in" });
    expect(scale.key).toBe("aa@2026-12-03T07:00:00.000Z");
  });

  it("ignores resolved alerts and another receiver's; refuses missing labels, an unknown function and one the path does not take", () => {
    const out = readAlerts(
      webhook(
        alert({ function_type: "auto_heal", vnf_instance_id: "rb", vnfc_info_id: "worker-0" }, { status: "resolved" }),
        alert({ receiver_type: "other", function_type: "auto_heal" }),
        alert({ function_type: "auto_heal", vnf_instance_id: "rb" }),
        alert({ function_type: "auto_scale", vnf_instance_id: "rb", aspect_id: "a", auto_scale_type: "UP" }),
        alert({ function_type: "vnffm", vnf_instance_id: "rb" }),
        alert({ function_type: "auto_scale", vnf_instance_id: "rb", aspect_id: "a", auto_scale_type: "SCALE_OUT" }),
        "not an alert",
      ),
      ALERT_PATHS["/alert/auto_healing"],
    );
    expect(out.map((a) => a.ignored ?? `${a.problem?.code}: ${a.problem?.message}`)).toEqual([
      "status resolved",
      "receiver_type other, not tacker",
      "SERVE_BAD_ALERT: alerts[2] (VnfcDown): labels.vnfc_info_id is required for auto_heal (the VNFC to heal)",
      "SERVE_BAD_ALERT: alerts[3] (VnfcDown): labels.function_type auto_scale is not taken on this path",
      "SERVE_BAD_ALERT: alerts[4] (VnfcDown): labels.function_type vnffm is not auto_heal or auto_scale",
      "SERVE_BAD_ALERT: alerts[5] (VnfcDown): labels.function_type auto_scale is not taken on this path",
      "SERVE_BAD_ALERT: alerts[6]: an alert must be an object with labels",
    ]);
    expect(
      readAlerts(webhook(alert({ function_type: "auto_scale", vnf_instance_id: "rb", aspect_id: "a", auto_scale_type: "UP" })), ALERT_PATHS["/alert"])[0]
        .problem?.message,
    ).toBe("alerts[0] (VnfcDown): labels.auto_scale_type UP is not SCALE_OUT or SCALE_IN");
  });

  it("a body that is not a webhook is refused whole", () => {
    expect(() => readAlerts({ alert: [] }, ALERT_PATHS["/alert"])).toThrow(BadWebhookBody);
    expect(() => readAlerts([], ALERT_PATHS["/alert"])).toThrow(/an object with an `alerts` list/);
  });
});
