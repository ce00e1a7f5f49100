/**
 * Refusing to adopt at run time: before any child is created, the component reads each planned
 * object from the cluster with the VIM's credentials. Here the "cluster" is a local HTTPS server
 * (the VIM has no CA, so TLS is not verified); it proves the requests and the decision, not RBAC
 * or TLS against a real API server.
 */
import { readFileSync } from "node:fs";
import * as https from "node:https";
import type { AddressInfo } from "node:net";
import * as path from "node:path";
import * as pulumi from "@pulumi/pulumi";
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { refuseForeignObjects } from "../../../components/cnf/adoption";
import { kubeApi } from "../../../clients/kube-api";
import { buildKubeconfig } from "../../../clients/kubeconfig";
import { planCnf } from "../../../translators/kubernetes/plan";
import { testCnfModel } from "../../fixtures/cnf/models";
import { installMocks, settle, valueOf, type Registered } from "../helpers/pulumi-mocks";
import { defFiles, testCnfFiles } from "./helpers";

const PKI = path.join(__dirname, "../../fixtures/pki");
const ID = "inst-1";
/** path → labels of an existing object; everything else is 404. */
let existing: Record<string, Record<string, string> | undefined> = {};
const seen: string[] = [];
let server: https.Server;
let url: string;
let registered: Registered[];
let cnf: typeof import("../../../components/cnf");
let vim: typeof import("../../../components/vim");

beforeAll(async () => {
  server = https.createServer({ cert: readFileSync(path.join(PKI, "client.crt")), key: readFileSync(path.join(PKI, "client.key")) }, (req, res) => {
    seen.push(`${req.method} ${req.url} ${req.headers.authorization}`);
    const labels = existing[req.url ?? ""];
    res.writeHead(labels ? 200 : 404, { "Content-Type": "application/json" });
    res.end(JSON.stringify(labels ? { metadata: { name: "x", labels } } : { kind: "Status", code: 404 }));
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", () => r()));
  url = `https://127.0.0.1:${(server.address() as AddressInfo).port}`;
  registered = installMocks();
  cnf = await import("../../../components/cnf");
  vim = await import("../../../components/vim");
});
afterAll(() => new Promise<void>((r) => server.close(() => r())));
afterEach(async () => {
  await settle();
  registered.length = 0;
  seen.length = 0;
  existing = {};
  vi.restoreAllMocks();
});

const plan = () =>
  planCnf({
    model: testCnfModel(),
    flavourId: "simple",
    vnfInstanceId: ID,
    additionalParams: defFiles("pod.yaml", "deployment.yaml", "namespace.yaml"),
    manifests: testCnfFiles(),
  });
const api = () => kubeApi(buildKubeconfig({ name: "t", server: url, namespace: "nfv", caPem: null, bearerToken: "tok" }));

describe("refuseForeignObjects", () => {
  it("reads every object at its API path; nothing exists: no error", async () => {
    expect(await refuseForeignObjects(plan().objects, api(), ID, "nfv")).toEqual([]);
    expect([...seen].sort()).toEqual([
      "GET /api/v1/namespaces/curry Bearer tok",
      "GET /api/v1/namespaces/default/pods/vdu1 Bearer tok",
      "GET /apis/apps/v1/namespaces/default/deployments/vdu2 Bearer tok",
    ]);
  });

  it("objects of this instance are fine; of another instance or unlabelled: one error naming them", async () => {
    existing = {
      "/api/v1/namespaces/default/pods/vdu1": { tacker_vnf_instance_id: ID },
      "/apis/apps/v1/namespaces/default/deployments/vdu2": { tacker_vnf_instance_id: "other" },
      "/api/v1/namespaces/curry": {},
    };
    await expect(refuseForeignObjects(plan().objects, api(), ID, "nfv")).rejects.toThrow(
      [
        "objects of this VNF already exist on the cluster and are not this instance's; nothing was created (2 problems):",
        "  Namespace curry: error CNF_FOREIGN_OBJECT: Namespace curry already exists and is not labelled with any VNF instance; refusing to adopt it",
        "  Deployment default/vdu2: error CNF_FOREIGN_OBJECT: Deployment default/vdu2 already exists and belongs to VNF instance other; refusing to adopt it",
      ].join("\n"),
    );
  });
});

describe("ContainerizedVnf with the VIM's kubeconfig", () => {
  it("checks the cluster before registering its children, then registers them", async () => {
    vi.spyOn(pulumi.log, "warn").mockImplementation(() => Promise.resolve());
    const v = new vim.KubernetesVim("lab", { authUrl: url, bearerToken: "tok", sslCaCert: "None", projectName: "nfv" });
    const c = new cnf.ContainerizedVnf("hello", {
      vim: v,
      model: testCnfModel(),
      flavourId: "simple",
      vnfInstanceId: ID,
      additionalParams: defFiles("pod.yaml", "deployment.yaml"),
      manifests: testCnfFiles(),
    });
    expect(await valueOf(c.namespace)).toBe("default");
    for (let i = 0; i < 50 && registered.filter((r) => r.name.startsWith("hello-")).length < 2; i++) await settle();
    expect([...seen].sort()).toEqual([
      "GET /api/v1/namespaces/default/pods/vdu1 Bearer tok",
      "GET /apis/apps/v1/namespaces/default/deployments/vdu2 Bearer tok",
    ]);
    expect(
      registered
        .filter((r) => r.name.startsWith("hello-"))
        .map((r) => r.name)
        .sort(),
    ).toEqual(["hello-deployment-vdu2", "hello-pod-vdu1"]);
  });
});
