/**
 * The HTTP side of `nfv serve`: Alertmanager's webhook on Tacker's paths (`/alert`,
 * `/alert/auto_healing`, `/alert/auto_scaling`) and `GET /operations`, the report of what it did.
 * A webhook is answered at once (Alertmanager waits 10 s at most): the operations run after, one
 * at a time, in the dispatcher. 200 with each alert's outcome; 422 when every alert that asks for
 * something is refused (Alertmanager does not send a 4xx again); 400 for a body that is not a webhook.
 */
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { ALERT_PATHS, BadWebhookBody, readAlerts } from "../ops/auto/alerts";
import type { AutoDispatcher, VnfPolicies } from "../ops/auto/dispatcher";
import type { Io } from "./io";

export interface AlertServerArgs {
  /** `host:port`; port 0 picks a free one. */
  listen: string;
  dispatcher: AutoDispatcher;
  /** The stack's VNF policies as the config holds them now (read for each webhook). */
  policies: () => Promise<VnfPolicies[]>;
  io: Io;
}

export interface AlertServer {
  /** `http://host:port` it listens on. */
  url: string;
  close(): Promise<void>;
}

const MAX_BODY = 1 << 20;

export async function startAlertServer(args: AlertServerArgs): Promise<AlertServer> {
  const m = /^(.+):(\d+)$/.exec(args.listen);
  if (!m) throw new Error(`--listen ${args.listen} is not host:port`);
  const server = createServer((req, res) => {
    handle(req, res, args).catch((e: unknown) => send(res, 500, { error: String((e as Error).message) }));
  });
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(Number(m[2]), m[1], () => resolve());
  });
  const address = server.address() as AddressInfo;
  const host = address.family === "IPv6" ? `[${address.address}]` : address.address;
  return {
    url: `http://${host}:${address.port}`,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

async function handle(req: IncomingMessage, res: ServerResponse, args: AlertServerArgs): Promise<void> {
  const url = new URL(req.url ?? "/", "http://serve");
  if (req.method === "GET" && url.pathname === "/operations") return send(res, 200, { operations: args.dispatcher.operations() });
  const functions = ALERT_PATHS[url.pathname];
  if (!functions) return send(res, 404, { error: `no ${url.pathname} here (POST ${Object.keys(ALERT_PATHS).join(", ")}; GET /operations)` });
  if (req.method !== "POST") return send(res, 405, { error: `${url.pathname} takes POST` });
  const body = await readBody(req);
  if (body === undefined) return send(res, 413, { error: `the body is over ${MAX_BODY} bytes` });
  let alerts;
  try {
    alerts = readAlerts(JSON.parse(body), functions);
  } catch (e) {
    if (e instanceof BadWebhookBody || e instanceof SyntaxError) {
      args.io.err(`nfv serve: ${url.pathname}: SERVE_BAD_BODY ${e.message}\n`);
      return send(res, 400, { code: "SERVE_BAD_BODY", error: e.message });
    }
    throw e;
  }
  let policies: VnfPolicies[];
  try {
    policies = await args.policies();
  } catch (e) {
    args.io.err(`nfv serve: the stack config cannot be read: ${(e as Error).message}\n`);
    return send(res, 503, { code: "SERVE_CONFIG_INVALID", error: (e as Error).message });
  }
  const outcomes = args.dispatcher.submit(alerts, policies);
  for (const o of outcomes) {
    const what = [o.operation !== undefined ? `operation ${o.operation}` : "", o.code ?? "", o.message ?? ""].filter(Boolean).join(" ");
    args.io.out(`alert ${o.name || "(unnamed)"} ${o.key}: ${o.outcome}${what ? ` (${what})` : ""}\n`);
  }
  const asking = outcomes.filter((o) => o.outcome !== "ignored");
  const allRefused = asking.length > 0 && asking.every((o) => o.outcome === "refused");
  send(res, allRefused ? 422 : 200, { outcomes });
}

function readBody(req: IncomingMessage): Promise<string | undefined> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on("data", (c: Buffer) => {
      size += c.length;
      if (size <= MAX_BODY) chunks.push(c);
    });
    req.on("end", () => resolve(size > MAX_BODY ? undefined : Buffer.concat(chunks).toString("utf8")));
    req.on("error", reject);
  });
}

function send(res: ServerResponse, status: number, body: unknown): void {
  res.writeHead(status, { "content-type": "application/json" });
  res.end(JSON.stringify(body, null, 2) + "\n");
}
