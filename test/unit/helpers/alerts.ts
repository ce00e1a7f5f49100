/** Alertmanager's webhook (version 4), as 0.25 sends it, for the `nfv serve` tests. */
export function alert(labels: Record<string, string>, over: Record<string, unknown> = {}) {
  return {
    status: "firing",
    labels: { alertname: "VnfcDown", receiver_type: "tacker", ...labels },
    annotations: {},
    startsAt: "2026-12-03T07:00:00.000Z",
    endsAt: "0001-01-01T00:00:00Z",
    fingerprint: "5ef77f1f8a3ecb8d",
    ...over,
  };
}

export const webhook = (...alerts: unknown[]) => ({ version: "4", status: "firing", receiver: "nfv", groupLabels: {}, alerts });
