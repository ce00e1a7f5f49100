/**
 * The heal executor's Kubernetes calls, against a recording fake transport: credentials come from
 * the VIM's in-memory kubeconfig (CA and client certificate as data, no file), and the requests are
 * exactly the API's. Does not prove TLS against a real API server.
 */
import { readFileSync } from "node:fs";
import { createServer } from "node:https";
import type { AddressInfo } from "node:net";
import * as path from "node:path";
import { describe, expect, it } from "vitest";
import { httpsTransport } from "../../../clients/kube-api";
import { kubeApi, runHeal, type HttpRequest, type HttpResponse, type HealPlan } from "../../../ops/cnf";
import { parse, stringify } from "yaml";
import { buildKubeconfig } from "../../../clients/kubeconfig";

const CA = readFileSync(path.join(__dirname, "../../fixtures/pki/ca-a.crt"), "utf8");

function fake(responses: ((r: HttpRequest) => HttpResponse | undefined)[]) {
  const calls: HttpRequest[] = [];
  const transport = async (r: HttpRequest) => {
    calls.push(r);
    for (const f of responses) {
      const out = f(r);
      if (out) return out;
    }
    return { status: 500, body: '{"message":"unexpected"}' };
  };
  return { calls, transport };
}

const kubeconfig = buildKubeconfig({ name: "edge", server: "https://192.0.2.10:6443/", namespace: "nfv", caPem: CA, bearerToken: "tok" });

describe("kubeApi", () => {
  it("uses the VIM's token and CA as data, and the API's paths", async () => {
    const f = fake([(r) => (r.method === "GET" ? { status: 200, body: '{"items":[{"metadata":{"name":"p"}}]}' } : undefined)]);
    const api = kubeApi(kubeconfig, f.transport);
    expect(await api.listPods("nfv", { labelSelector: "app=web,tacker_vnf_instance_id=i-1" })).toEqual([{ metadata: { name: "p" } }]);
    expect(f.calls).toEqual([
      {
        method: "GET",
        url: "https://192.0.2.10:6443/api/v1/namespaces/nfv/pods?labelSelector=app%3Dweb%2Ctacker_vnf_instance_id%3Di-1",
        headers: { Accept: "application/json", Authorization: "Bearer tok" },
        ca: CA,
        insecure: false,
      },
    ]);
  });

  it("basic auth and insecure TLS when the VIM has no CA; API errors carry the Status message", async () => {
    const cfg = buildKubeconfig({ name: "lab", server: "https://k:6443", namespace: "default", caPem: null, username: "u", password: "p" });
    const f = fake([() => ({ status: 403, body: '{"kind":"Status","message":"pods is forbidden"}' })]);
    const api = kubeApi(cfg, f.transport);
    await expect(api.deletePod("default", "x", "Foreground")).rejects.toThrow("delete pod default/x: HTTP 403: pods is forbidden");
    expect(f.calls[0]).toMatchObject({
      method: "DELETE",
      insecure: true,
      headers: { Authorization: `Basic ${Buffer.from("u:p").toString("base64")}`, "Content-Type": "application/json" },
    });
    expect(JSON.parse(f.calls[0].body!)).toEqual({ apiVersion: "v1", kind: "DeleteOptions", propagationPolicy: "Foreground" });
  });
});

describe("httpsTransport", () => {
  it("sends a DELETE's body with its length: the server reads it, and the next request on the kept-alive connection is sound", async () => {
    // The fixture's self-signed certificate serves TLS on loopback; the framing is under test, not the verification.
    const pki = (f: string) => readFileSync(path.join(__dirname, "../../fixtures/pki", f), "utf8");
    const seen: { method?: string; length?: string; body: string; socket: number }[] = [];
    const sockets: unknown[] = [];
    const server = createServer({ cert: pki("client.crt"), key: pki("client.key") }, (req, res) => {
      let body = "";
      req.on("data", (c: Buffer) => (body += c.toString()));
      req.on("end", () => {
        if (!sockets.includes(req.socket)) sockets.push(req.socket);
        seen.push({ method: req.method, length: req.headers["content-length"], body, socket: sockets.indexOf(req.socket) });
        res.writeHead(200, { "Content-Type": "application/json" }).end("{}");
      });
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    try {
      const url = `https://127.0.0.1:${(server.address() as AddressInfo).port}/api/v1/namespaces/default/pods/p`;
      const body = JSON.stringify({ apiVersion: "v1", kind: "DeleteOptions", propagationPolicy: "Foreground" });
      const base = { headers: { Accept: "application/json" }, insecure: true };
      expect(await httpsTransport({ ...base, method: "DELETE", url, body })).toEqual({ status: 200, body: "{}" });
      expect(await httpsTransport({ ...base, method: "GET", url })).toEqual({ status: 200, body: "{}" });
      expect(seen).toEqual([
        { method: "DELETE", length: String(body.length), body, socket: 0 },
        { method: "GET", length: undefined, body: "", socket: 0 },
      ]);
    } finally {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    }
  });
});

describe("runHeal", () => {
  it("deletes controller pods; deletes a bare Pod, waits until it is gone, creates it again", async () => {
    let gets = 0;
    const f = fake([
      (r) => (r.method === "DELETE" ? { status: 200, body: "{}" } : undefined),
      (r) => (r.method === "GET" ? (++gets < 2 ? { status: 200, body: '{"metadata":{"name":"vdu1"}}' } : { status: 404, body: "{}" }) : undefined),
      (r) => (r.method === "POST" ? { status: 201, body: "{}" } : undefined),
    ]);
    const pod = {
      apiVersion: "v1",
      kind: "Pod",
      metadata: { name: "vdu1", labels: { tacker_vnf_instance_id: "i-1" } },
      spec: { containers: [{ name: "c", image: "nginx:1.27" }] },
    };
    const plan: HealPlan = {
      mode: "vnfc",
      deletions: [
        { vnfcId: "vdu2-abc-12345", vduId: "VDU2", name: "vdu2-abc-12345", propagationPolicy: "Foreground", namespace: "cnf" },
        { vnfcId: "vdu1", vduId: "VDU1", name: "vdu1", propagationPolicy: "Foreground", recreate: pod },
      ],
      diagnostics: [],
    };
    expect(await runHeal(plan, kubeApi(kubeconfig, f.transport), { defaultNamespace: "nfv", pollMs: 1 })).toEqual(["cnf/vdu2-abc-12345", "nfv/vdu1"]);
    expect(f.calls.map((c) => `${c.method} ${c.url.replace("https://192.0.2.10:6443", "")}`)).toEqual([
      "DELETE /api/v1/namespaces/cnf/pods/vdu2-abc-12345",
      "DELETE /api/v1/namespaces/nfv/pods/vdu1",
      "GET /api/v1/namespaces/nfv/pods/vdu1",
      "GET /api/v1/namespaces/nfv/pods/vdu1",
      "POST /api/v1/namespaces/nfv/pods",
    ]);
    expect(JSON.parse(f.calls[4].body!)).toEqual({ ...pod, metadata: { ...pod.metadata, namespace: "nfv" } });
  });

  it("refuses an entire-heal plan (that is a Pulumi replacement) and a plan with errors", async () => {
    const api = kubeApi(kubeconfig, fake([]).transport);
    await expect(runHeal({ mode: "entire", replace: [], diagnostics: [] }, api, { defaultNamespace: "nfv" })).rejects.toThrow(/Pulumi replacement/);
    await expect(
      runHeal({ mode: "vnfc", deletions: [], diagnostics: [{ severity: "error", code: "X", message: "m" }] }, api, { defaultNamespace: "nfv" }),
    ).rejects.toThrow(/errors/);
  });

  it("reads the kubeconfig with the one parser the VIMs use: what is missing is named", () => {
    expect(() => kubeApi("apiVersion: v1\nclusters: []\n", fake([]).transport)).toThrow("kubeconfig: current-context is not set");
    const doc = parse(kubeconfig) as { clusters: { cluster: Record<string, unknown> }[] };
    delete doc.clusters[0].cluster["certificate-authority-data"];
    const noCa = stringify(doc);
    expect(() => kubeApi(noCa, fake([]).transport)).toThrow(/certificate-authority-data is not set/);
  });
});
