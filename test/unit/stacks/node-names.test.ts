/**
 * A cluster's Kubernetes node names are checked with the stack config, before anything is
 * registered, and located: two VDUs whose VNFCs would get one node name (`masterNode` and
 * `MasterNode`: both `k8s-masternode-0`, Kubernetes names being lower case) are an error at the
 * second VDU's node template in the VNFD (file, line, column, field). Pulumi mocks.
 */
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import * as path from "node:path";
import * as pulumi from "@pulumi/pulumi";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { loadStackSettings } from "../../../stacks/settings";
import { formatDiagnostic, type DiagnosticError } from "../../../translators/diagnostics";
import { settle, type Registered } from "../helpers/pulumi-mocks";
import { installK8sMocks } from "../k8s-cluster/k8s-mocks";
import { kubernetesPackage } from "../../fixtures/kubernetes-package";
import { OS_VIM } from "./vims";

const ROOT = path.join(__dirname, "../../..");
const PACKAGE = kubernetesPackage();
const REQUEST = "test/fixtures/k8s-cluster/private_registry_kubernetes_param_file.json";
const KEY = path.join(ROOT, "test/fixtures/pki/client.key");
const CLUSTER = {
  kubernetes_version: "1.30.14",
  kubernetes_package_version: "1.30.14-1.1",
  containerd_package_version: "1.7.24-1",
  sandbox_image: "192.168.246.10:5000/pause:3.9",
};

let registered: Registered[];
let program: typeof import("../../../stacks/program");
let work: string;
let clashing: string;
let dfFile: string;

beforeAll(async () => {
  registered = installK8sMocks();
  program = await import("../../../stacks/program");
  work = mkdtempSync(path.join(tmpdir(), "nfv-node-names-"));
  // The package with its worker VDU renamed `MasterNode` (every reference to the VDU, not its CP's).
  clashing = path.join(work, "pkg");
  cpSync(PACKAGE, clashing, { recursive: true });
  dfFile = path.join(clashing, "Definitions/sample_kubernetes_df_simple.yaml");
  writeFileSync(dfFile, readFileSync(dfFile, "utf8").replace(/\bworkerNode\b/g, "MasterNode"));
});
afterAll(() => rmSync(work, { recursive: true, force: true }));
afterEach(async () => {
  await settle();
  registered.length = 0;
});

const entry = (pkg: string) => ({ vim: "core", package: pkg, instantiate_request: REQUEST, ssh: { user: "ubuntu", private_key_file: KEY }, cluster: CLUSTER });
const lineOf = (file: string, text: string) =>
  readFileSync(file, "utf8")
    .split("\n")
    .findIndex((l) => l === text) + 1;

describe("Kubernetes node names of a cluster VNF, checked with the stack config", () => {
  it("two VDUs whose VNFCs come out as one node name: K8S_NODE_NAME at the second VDU's node template (file:line:column, field)", async () => {
    const s = await loadStackSettings({ vims: { core: OS_VIM }, vnfs: { k8s: entry(clashing) } }, ROOT, "unit");
    const line = lineOf(dfFile, "    MasterNode:");
    expect(line).toBeGreaterThan(0);
    expect(s.bag.errors().map(formatDiagnostic)).toEqual([
      `${dfFile}:${line}:5 (topology_template.node_templates.MasterNode): error K8S_NODE_NAME: VNF 'k8s': the node name k8s-masternode-0 would be used by VNFCs masterNode-0 and MasterNode-0: VDUs masterNode and MasterNode come out the same as Kubernetes node names (lower case, a-z, 0-9 and -); rename one`,
    ]);
  });

  it("the program refuses it before anything is registered, not even the VIM", async () => {
    pulumi.runtime.setAllConfig({ "pulumi-nfv:vims": JSON.stringify({ core: OS_VIM }), "pulumi-nfv:vnfs": JSON.stringify({ k8s: entry(clashing) }) }, [
      "pulumi-nfv:vims",
    ]);
    const err = await program.deployStack().then(
      () => undefined,
      (e: DiagnosticError) => e,
    );
    expect(err?.diagnostics?.map((d) => [d.code, d.file, d.path])).toEqual([["K8S_NODE_NAME", dfFile, "topology_template.node_templates.MasterNode"]]);
    await settle();
    expect(registered.filter((r) => r.type !== "pulumi:pulumi:Stack")).toEqual([]);
  });

  it("the package as shipped: no problem, and every node name a label", async () => {
    const s = await loadStackSettings({ vims: { core: OS_VIM }, vnfs: { k8s: entry(PACKAGE) } }, ROOT, "unit");
    expect(s.bag.errors()).toEqual([]);
  });
});
