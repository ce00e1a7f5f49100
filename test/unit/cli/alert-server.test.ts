import { afterEach, describe, expect, it } from "vitest";
import { startAlertServer, type AlertServer } from "../../../cli/alert-server";
import { AutoDispatcher, type VnfPolicies } from "../../../ops/auto/dispatcher";
import { alert, webhook } from "../helpers/alerts";

const POLICIES: VnfPolicies[] = [{ name: "rb", vnfInstanceId: "rb-id", autoHeal: { coolDownSeconds: 60 } }];

let server: AlertServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

async function serve(policies: () => Promise<VnfPolicies[]> = async () => POLICIES) {
  const ran: string[] = [];
  const log: string[] = [];
  const dispatcher = new AutoDispatcher(async (op) => {
    ran.push(`${op.kind} ${op.vnf} ${op.vnfcs.join(",")}`);
    return { exitCode: 0, output: "" };
  });
  server = await startAlertServer({ listen: "127.0.0.1:0", dispatcher, policies, io: { out: (t) => log.push(t), err: (t) => log.push(t) } });
  const post = async (path: string, body: unknown) => {
    const r = await fetch(`${server!.url}${path}`, { method: "POST", body: typeof body === "string" ? body : JSON.stringify(body) });
    return { status: r.status, body: (await r.json()) as { outcomes?: { outcome: string; code?: string }[]; code?: string } };
  };
  return { dispatcher, ran, log, post };
}

const healAlert = alert({ function_type: "auto_heal", vnf_instance_id: "rb", vnfc_info_id: "worker-0" });

describe("nfv serve's webhook server (real HTTP on loopback)", () => {
  it("takes Alertmanager's webhook on Tacker's paths, answers each alert's outcome, runs the heal once; GET /operations reports it", async () => {
    const { dispatcher, ran, log, post } = await serve();
    const first = await post("/alert/auto_healing", webhook(healAlert));
    expect(first).toEqual({
      status: 200,
      body: { outcomes: [{ key: "5ef77f1f8a3ecb8d@2026-12-03T07:00:00.000Z", name: "VnfcDown", outcome: "queued", operation: 1 }] },
    });
    expect((await post("/alert", webhook(healAlert))).body.outcomes!.map((o) => o.outcome)).toEqual(["duplicate"]);
    await dispatcher.idle();
    expect(ran).toEqual(["heal rb worker-0"]);
    const ops = (await (await fetch(`${server!.url}/operations`)).json()) as { operations: { id: number; state: string; vnfcs: string[] }[] };
    expect(ops.operations.map((o) => [o.id, o.state, o.vnfcs])).toEqual([[1, "succeeded", ["worker-0"]]]);
    expect(log.join("")).toContain("alert VnfcDown 5ef77f1f8a3ecb8d@2026-12-03T07:00:00.000Z: queued (operation 1)");
  });

  it("422 when every alert that asks for something is refused (no matching policy); 400 for a body that is not a webhook; 404 elsewhere", async () => {
    const { ran, post } = await serve();
    const noPolicy = await post("/alert", webhook(alert({ function_type: "auto_scale", vnf_instance_id: "rb", aspect_id: "a", auto_scale_type: "SCALE_OUT" })));
    expect(noPolicy.status).toBe(422);
    expect(noPolicy.body.outcomes!.map((o) => [o.outcome, o.code])).toEqual([["refused", "SERVE_NO_POLICY"]]);
    expect((await post("/alert/auto_scaling", webhook(healAlert))).status).toBe(422);
    const resolvedOnly = await post("/alert", webhook(alert({ function_type: "auto_heal" }, { status: "resolved" })));
    expect([resolvedOnly.status, resolvedOnly.body.outcomes!.map((o) => o.outcome)]).toEqual([200, ["ignored"]]);
    expect(await post("/alert", "{not json")).toMatchObject({ status: 400, body: { code: "SERVE_BAD_BODY" } });
    expect(await post("/alert", { alerts: "none" })).toMatchObject({ status: 400, body: { code: "SERVE_BAD_BODY" } });
    expect((await fetch(`${server!.url}/metrics`)).status).toBe(404);
    expect((await fetch(`${server!.url}/alert`)).status).toBe(405);
    expect(ran).toEqual([]);
  });

  it("503 with the config's problem when the stack config cannot be read; nothing queued", async () => {
    const { dispatcher, post } = await serve(async () => {
      throw new Error("invalid configuration for stack 's': CONFIG_UNKNOWN_KEY vnfs.rb.auto_heals");
    });
    expect(await post("/alert", webhook(healAlert))).toMatchObject({ status: 503, body: { code: "SERVE_CONFIG_INVALID" } });
    expect(dispatcher.operations()).toEqual([]);
  });
});
