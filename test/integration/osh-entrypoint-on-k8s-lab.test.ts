/**
 * lab/openstack-helm/kubernetes-entrypoint, the init container openstack-helm's charts put in
 * front of every pod (issue 26), against the lab's kube-apiserver: it waits on each kind of
 * dependency the charts name (a Service's endpoints, a Job, pods by labels, a field of an object)
 * until the API says it is met, and only then runs COMMAND. Jobs complete through kwok's
 * pod-complete stage and the real Job controller; pods are Ready through kwok.
 */
import { spawn, type ChildProcess } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import * as path from "node:path";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { readVimConfigFile, type KubernetesVimSpec } from "../../translators/tacker/vim-config";
import { ROOT } from "./harness";
import { k8sLabBuilt, k8sLabDown, k8sLabUp, kubectl } from "./lab/k8s";

const HOLDER = "osh-entrypoint";
const ENTRYPOINT = path.join(ROOT, "lab/openstack-helm/kubernetes-entrypoint");
const NAMES = { service: "osh-ep-svc", job: "osh-ep-job", pod: "osh-ep-pod", configMap: "osh-ep-state" };

describe.skipIf(!k8sLabBuilt)("kubernetes-entrypoint on the lab Kubernetes API", () => {
  let saDir = "";
  let child: ChildProcess | undefined;
  let out = "";
  let exit: number | null | undefined;

  const cleanup = () => {
    for (const [kind, name] of [
      ["service", NAMES.service],
      ["endpoints", NAMES.service],
      ["job", NAMES.job],
      ["pod", NAMES.pod],
      ["configmap", NAMES.configMap],
    ])
      kubectl("delete", kind, name, "--ignore-not-found", "--wait=false", ...(kind === "job" ? ["--cascade=foreground"] : []));
  };

  beforeAll(() => {
    const { spec } = readVimConfigFile(k8sLabUp(HOLDER));
    const k8s = spec as KubernetesVimSpec;
    // The pod's service account as the kubelet mounts it: a token file and the cluster's CA.
    saDir = mkdtempSync(path.join(tmpdir(), "osh-entrypoint-sa-"));
    writeFileSync(path.join(saDir, "token"), k8s.bearerToken!, { mode: 0o600 });
    writeFileSync(path.join(saDir, "ca.crt"), k8s.sslCaCert!, { mode: 0o600 });
    cleanup();
    const api = new URL(k8s.authUrl);
    child = spawn(ENTRYPOINT, [], {
      env: {
        PATH: process.env.PATH,
        KUBERNETES_SERVICE_HOST: api.hostname,
        KUBERNETES_SERVICE_PORT: api.port,
        ENTRYPOINT_SERVICEACCOUNT_DIR: saDir,
        NAMESPACE: "default",
        POD_NAME: "osh-ep-self",
        DEPENDENCY_POLL_SECONDS: "0.5",
        DEPENDENCY_SERVICE: `default:${NAMES.service}`,
        DEPENDENCY_JOBS: NAMES.job,
        DEPENDENCY_POD_JSON: JSON.stringify([{ labels: { app: NAMES.pod } }]),
        DEPENDENCY_CUSTOM_RESOURCE: JSON.stringify([
          { apiVersion: "v1", kind: "ConfigMap", namespace: "default", name: NAMES.configMap, fields: [{ key: "data.phase", value: "Succeeded" }] },
        ]),
        COMMAND: "echo every-dependency-met",
      },
      stdio: ["ignore", "pipe", "pipe"],
    });
    child.stdout!.on("data", (c: Buffer) => (out += c.toString()));
    child.stderr!.on("data", (c: Buffer) => (out += c.toString()));
    child.on("exit", (code) => (exit = code));
  });

  afterAll(() => {
    child?.kill();
    if (saDir) rmSync(saDir, { recursive: true, force: true });
    cleanup();
    k8sLabDown(HOLDER);
  });

  it("waits while nothing exists: each dependency named once, COMMAND not run", async () => {
    await vi.waitFor(() => expect(out).toContain(`waiting for ConfigMap default/${NAMES.configMap}`), { timeout: 15_000 });
    await new Promise((r) => setTimeout(r, 3000));
    expect(exit).toBeUndefined();
    for (const what of [`service default/${NAMES.service}`, `job default/${NAMES.job}`, `pod default {'app': '${NAMES.pod}'}`])
      expect(out).toContain(`waiting for ${what}`);
    expect(out).not.toContain("every-dependency-met");
    expect(out).not.toMatch(/Traceback|HTTP Error/);
  });

  it("a Service without endpoints is not met; with a ready address it is", async () => {
    kubectl("create", "service", "clusterip", NAMES.service, "--tcp=3306:3306");
    await new Promise((r) => setTimeout(r, 2000));
    expect(out).not.toContain(`service default/${NAMES.service}: met`);
    // No selector: the endpoints are the caller's, as a headless database's would be its pods'.
    kubectl("patch", "service", NAMES.service, "--type=json", "-p", '[{"op":"remove","path":"/spec/selector"}]');
    const endpoints = {
      apiVersion: "v1",
      kind: "Endpoints",
      metadata: { name: NAMES.service },
      subsets: [{ addresses: [{ ip: "10.244.0.10" }], ports: [{ port: 3306 }] }],
    };
    writeFileSync(path.join(saDir, "ep.json"), JSON.stringify(endpoints));
    kubectl("apply", "-f", path.join(saDir, "ep.json"));
    await vi.waitFor(() => expect(out).toContain(`service default/${NAMES.service}: met`), { timeout: 15_000 });
    expect(exit).toBeUndefined();
  });

  it("a Job is met once the Job controller says it succeeded; pods by labels once one is Ready; an object's field once it has the value", async () => {
    kubectl("create", "job", NAMES.job, "--image=localhost/none:1", "--", "true");
    await vi.waitFor(() => expect(out).toContain(`job default/${NAMES.job}: met`), { timeout: 60_000, interval: 500 });
    expect(kubectl("get", "job", NAMES.job, "-o", "jsonpath={.status.succeeded}")).toBe("1");

    kubectl("run", NAMES.pod, "--image=localhost/none:1", `--labels=app=${NAMES.pod}`);
    await vi.waitFor(() => expect(out).toContain(`pod default {'app': '${NAMES.pod}'}: met`), { timeout: 60_000, interval: 500 });

    kubectl("create", "configmap", NAMES.configMap, "--from-literal=phase=Running");
    await new Promise((r) => setTimeout(r, 2000));
    expect(out).not.toContain(`ConfigMap default/${NAMES.configMap}: met`);
    expect(exit).toBeUndefined();
    kubectl("patch", "configmap", NAMES.configMap, "--type=merge", "-p", '{"data":{"phase":"Succeeded"}}');
    await vi.waitFor(() => expect(exit).toBe(0), { timeout: 15_000 });
    expect(out).toContain(`ConfigMap default/${NAMES.configMap}: met`);
    expect(out.trimEnd().split("\n").pop()).toBe("every-dependency-met");
  }, 150_000);
});
