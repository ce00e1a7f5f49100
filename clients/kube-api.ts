/**
 * The few Kubernetes API calls `nfv heal` needs (list, get, delete and create pods), made with the
 * VIM's credentials from its in-memory kubeconfig (`KubernetesVim.kubeconfig`): the CA, client
 * certificate and key are passed to TLS as data, never written to a file. The transport is
 * injectable so that tests need no cluster.
 */
import * as https from "node:https";
import type { KubeObject } from "../translators/kubernetes/objects";
import type { LiveObject } from "../translators/kubernetes/labels";
import { parseKubeconfig } from "./kubeconfig";
import { requestIdToken, type IdToken, type OidcCredentials } from "./oidc";

/** A live pod, as `GET /api/v1/namespaces/<ns>/pods` returns it (the fields read here). */
export interface LivePod {
  metadata: {
    name: string;
    namespace?: string;
    labels?: Record<string, string>;
    ownerReferences?: { kind: string; name: string; controller?: boolean }[];
  };
}

export interface HttpRequest {
  method: "GET" | "DELETE" | "POST";
  url: string;
  headers: Record<string, string>;
  body?: string;
  /** PEM; undefined with `insecure` false means the system roots. */
  ca?: string;
  cert?: string;
  key?: string;
  insecure: boolean;
}

export interface HttpResponse {
  status: number;
  body: string;
}

export type Transport = (req: HttpRequest) => Promise<HttpResponse>;

export interface KubeApi {
  /** Pods of a namespace, optionally filtered by label and field selectors. */
  listPods(namespace: string, selectors?: { labelSelector?: string; fieldSelector?: string }): Promise<LivePod[]>;
  /** The pod, or undefined when it does not exist (404). */
  getPod(namespace: string, name: string): Promise<LivePod | undefined>;
  deletePod(namespace: string, name: string, propagationPolicy: "Foreground" | "Background"): Promise<void>;
  createPod(namespace: string, pod: KubeObject): Promise<void>;
  /** Any object by API path parts; undefined when it does not exist (404). */
  getObject(apiVersion: string, plural: string, namespace: string | undefined, name: string): Promise<LiveObject | undefined>;
}

interface Credentials {
  server: string;
  base: Omit<HttpRequest, "method" | "url" | "body">;
  /** OIDC: the Authorization header comes from an id_token asked for per expiry, not from `base`. */
  oidc?: OidcCredentials;
}

/** Gets an id_token for OIDC credentials (injectable, like the transport). */
export type IdTokenSource = (o: OidcCredentials, caPem: string | null) => Promise<IdToken>;

/**
 * The request credentials of a kubeconfig's current context, read by the one kubeconfig parser
 * (`parseKubeconfig`: it throws naming what is missing).
 */
export function credentialsOf(kubeconfig: string): Credentials {
  const parts = parseKubeconfig(kubeconfig);
  const headers: Record<string, string> = { Accept: "application/json" };
  if (parts.oidc === undefined) {
    if (parts.bearerToken !== undefined) headers.Authorization = `Bearer ${parts.bearerToken}`;
    else if (parts.username !== undefined) headers.Authorization = `Basic ${Buffer.from(`${parts.username}:${parts.password ?? ""}`).toString("base64")}`;
  }
  const base: Credentials["base"] = { headers, insecure: parts.caPem === null };
  if (parts.caPem !== null) base.ca = parts.caPem;
  if (parts.clientCertificate !== undefined && parts.clientKey !== undefined) {
    base.cert = parts.clientCertificate;
    base.key = parts.clientKey;
  }
  const server = parts.server.replace(/\/+$/, "");
  return parts.oidc === undefined ? { server, base } : { server, base, oidc: parts.oidc };
}

export function kubeApi(kubeconfig: string, transport: Transport = httpsTransport, idToken: IdTokenSource = requestIdToken): KubeApi {
  const { server, base, oidc } = credentialsOf(kubeconfig);
  let token: IdToken | undefined;
  const authorization = async (): Promise<Record<string, string>> => {
    if (oidc === undefined) return {};
    // As client-go keeps an exec plugin's credential: until shortly before it expires.
    if (token === undefined || token.expiresAt.getTime() - Date.now() < 10_000) token = await idToken(oidc, base.ca ?? null);
    return { Authorization: `Bearer ${token.token}` };
  };
  const call = async (method: HttpRequest["method"], path: string, body?: unknown): Promise<HttpResponse> => {
    const headers = { ...base.headers, ...(await authorization()), ...(body === undefined ? {} : { "Content-Type": "application/json" }) };
    return transport({ ...base, headers, method, url: server + path, ...(body === undefined ? {} : { body: JSON.stringify(body) }) });
  };
  const fail = (what: string, r: HttpResponse): never => {
    let reason = r.body;
    try {
      reason = (JSON.parse(r.body) as { message?: string }).message ?? r.body;
    } catch {
      // not a Status object; keep the text
    }
    throw new Error(`${what}: HTTP ${r.status}: ${reason}`);
  };
  const pods = (ns: string) => `/api/v1/namespaces/${encodeURIComponent(ns)}/pods`;
  return {
    async listPods(namespace, selectors = {}) {
      const q = new URLSearchParams();
      if (selectors.labelSelector) q.set("labelSelector", selectors.labelSelector);
      if (selectors.fieldSelector) q.set("fieldSelector", selectors.fieldSelector);
      const r = await call("GET", pods(namespace) + (q.size ? `?${q}` : ""));
      if (r.status !== 200) fail(`list pods in ${namespace}`, r);
      return (JSON.parse(r.body) as { items: LivePod[] }).items;
    },
    async getPod(namespace, name) {
      const r = await call("GET", `${pods(namespace)}/${encodeURIComponent(name)}`);
      if (r.status === 404) return undefined;
      if (r.status !== 200) fail(`get pod ${namespace}/${name}`, r);
      return JSON.parse(r.body) as LivePod;
    },
    async deletePod(namespace, name, propagationPolicy) {
      const r = await call("DELETE", `${pods(namespace)}/${encodeURIComponent(name)}`, { apiVersion: "v1", kind: "DeleteOptions", propagationPolicy });
      if (r.status !== 200 && r.status !== 202 && r.status !== 404) fail(`delete pod ${namespace}/${name}`, r);
    },
    async getObject(apiVersion, plural, namespace, name) {
      const group = apiVersion.includes("/") ? `/apis/${apiVersion}` : `/api/${apiVersion}`;
      const ns = namespace === undefined ? "" : `/namespaces/${encodeURIComponent(namespace)}`;
      const r = await call("GET", `${group}${ns}/${plural}/${encodeURIComponent(name)}`);
      if (r.status === 404) return undefined;
      if (r.status !== 200) fail(`get ${plural} ${namespace ? `${namespace}/` : ""}${name}`, r);
      return JSON.parse(r.body) as LiveObject;
    },
    async createPod(namespace, pod) {
      const r = await call("POST", pods(namespace), { ...pod, metadata: { ...pod.metadata, namespace } });
      if (r.status !== 201 && r.status !== 200) fail(`create pod ${namespace}/${pod.metadata.name}`, r);
    },
  };
}

/** node:https with the credentials as data (no files). */
export const httpsTransport: Transport = (req) =>
  new Promise((resolve, reject) => {
    // A body goes with its length: node sends a DELETE's body without chunked framing or a length,
    // so the API server took the DeleteOptions (its propagationPolicy) for the start of the next
    // request on the kept-alive connection, and that request got a plain "400 Bad Request".
    const headers = req.body === undefined ? req.headers : { ...req.headers, "Content-Length": String(Buffer.byteLength(req.body)) };
    const r = https.request(
      req.url,
      { method: req.method, headers, ca: req.ca, cert: req.cert, key: req.key, rejectUnauthorized: !req.insecure, timeout: 30_000 },
      (res) => {
        const chunks: Buffer[] = [];
        res.on("data", (c: Buffer) => chunks.push(c));
        res.on("end", () => resolve({ status: res.statusCode ?? 0, body: Buffer.concat(chunks).toString("utf8") }));
      },
    );
    r.on("timeout", () => r.destroy(new Error(`${req.method} ${req.url}: timed out`)));
    r.on("error", reject);
    r.end(req.body);
  });
