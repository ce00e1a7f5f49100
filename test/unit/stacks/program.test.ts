import { readFileSync } from "node:fs";
import * as path from "node:path";
import * as pulumi from "@pulumi/pulumi";
import { afterEach, beforeAll, describe, expect, it } from "vitest";
import { DiagnosticError } from "../../../translators/diagnostics";
import { parseYaml } from "../../../translators/yaml/located-yaml";
import { installMocks, isSecretValue, plain, settle, valueOf, type Registered } from "../helpers/pulumi-mocks";

const ROOT = path.join(__dirname, "../../..");
const SHARED_VIMS = path.join(ROOT, "../shared/vnf-packages/vim");
const CA_A = readFileSync(path.join(ROOT, "test/fixtures/pki/ca-a.crt"), "utf8");

let registered: Registered[];
let program: typeof import("../../../stacks/program");
let config: typeof import("../../../stacks/config");

beforeAll(async () => {
  registered = installMocks("unit");
  program = await import("../../../stacks/program");
  config = await import("../../../stacks/config");
});
afterEach(async () => {
  // Registrations of the finished test may still be in flight; let them land before clearing.
  await settle();
  registered.length = 0;
});

function setVims(vims: unknown): void {
  pulumi.runtime.setAllConfig({ "pulumi-nfv:vims": JSON.stringify(vims) }, ["pulumi-nfv:vims"]);
}

describe("stack program", () => {
  it("registers every VIM of the config, credentials secret", async () => {
    setVims({
      core: { auth_url: "http://192.0.2.20/identity", username: "nfv_user", password: "pw-1", project_name: "nfv" },
      edge: { type: "kubernetes", auth_url: "https://192.0.2.30:6443", bearer_token: "tok-2", ssl_ca_cert: CA_A, project_name: "cnf" },
    });
    const outputs = await program.deployStack();
    expect(Object.keys(outputs.vims)).toEqual(["core", "edge"]);
    expect((await valueOf(outputs.vims.edge)).vim_project).toEqual({ name: "cnf" });
    await settle();
    expect(registered.map((r) => [r.type, r.name]).sort()).toEqual([
      ["nfv:vim:KubernetesVim", "edge"],
      ["nfv:vim:OpenStackVim", "core"],
      ["pulumi:providers:kubernetes", "edge-provider"],
      ["pulumi:providers:openstack", "core-provider"],
    ]);
    const os = registered.find((r) => r.name === "core-provider")!;
    expect(isSecretValue(os.inputs.password)).toBe(true);
    const k8s = registered.find((r) => r.name === "edge-provider")!;
    expect(isSecretValue(k8s.inputs.kubeconfig)).toBe(true);
    expect(plain(k8s.inputs.kubeconfig)).toContain("token: tok-2");
  });

  it("reads a VIM from a Tacker vim-config.yaml named by file:", async () => {
    setVims({ sample: { file: path.join(SHARED_VIMS, "kubernetes-vim-bearer.yaml") } });
    const record = await valueOf((await program.deployStack()).vims.sample);
    expect(record).toMatchObject({ type: "kubernetes", auth_url: "https://127.0.0.1:6443", auth_cred: { bearer_token: "***", ssl_ca_cert: "None" } });
  });

  it("refuses an invalid config with one error listing every problem, and registers nothing", async () => {
    setVims({
      good: { auth_url: "http://192.0.2.20/identity", username: "u", password: "p", project_name: "nfv" },
      bad1: { type: "kubernetes", auth_url: "https://k:6443" },
      bad2: { file: "does/not/exist.yaml" },
      bad3: { type: "kubernetes", auth_url: "https://k:6443", bearer_token: "t", file: path.join(SHARED_VIMS, "kubernetes-vim-bearer.yaml") },
      bad4: "not a mapping",
    });
    let error: DiagnosticError | undefined;
    try {
      await program.deployStack();
    } catch (err) {
      error = err as DiagnosticError;
    }
    expect(error).toBeInstanceOf(DiagnosticError);
    expect(error!.diagnostics.map((d) => [d.code, d.path])).toEqual([
      ["VIM_NO_CREDENTIALS", "pulumi-nfv:vims.bad1"],
      ["CONFIG_FILE_MISSING", "pulumi-nfv:vims.bad2.file"],
      ["CONFIG_MIXED_VIM", "pulumi-nfv:vims.bad3.type"],
      ["CONFIG_MIXED_VIM", "pulumi-nfv:vims.bad3.auth_url"],
      ["CONFIG_MIXED_VIM", "pulumi-nfv:vims.bad3.bearer_token"],
      ["CONFIG_BAD_TYPE", "pulumi-nfv:vims.bad4"],
    ]);
    expect(error!.message).toMatch(/^invalid configuration for stack 'unit' \(6 problems\)/);
    await settle();
    expect(registered).toEqual([]);
  });
});

describe("stack config positions", () => {
  it("locates a problem of an inline VIM at its line in Pulumi.<stack>.yaml", () => {
    const text = [
      "config:",
      "  pulumi-nfv:vims:",
      "    edge:",
      "      type: kubernetes",
      "      auth_url: https://k:6443",
      "      bearer_token:",
      "        secure: v1:abc",
      "      project_name: Not_A_Namespace",
      "",
    ].join("\n");
    const stackFile = parseYaml(text, "stacks/Pulumi.dev.yaml").documents[0];
    const raw = { vims: { edge: { type: "kubernetes", auth_url: "https://k:6443", bearer_token: "decrypted", project_name: "Not_A_Namespace" } } };
    const { bag } = config.readStackConfig(raw, ROOT, stackFile);
    expect(bag.errors()).toEqual([
      expect.objectContaining({ code: "VIM_BAD_NAMESPACE", file: "stacks/Pulumi.dev.yaml", line: 8, column: 21, path: "pulumi-nfv:vims.edge.project_name" }),
    ]);
  });

  it("resolves file: paths from the project root and passes render_yaml_to_directory on", () => {
    const { config: settings, bag } = config.readStackConfig(
      { vims: { k: { file: "test/fixtures/vim/seed-kubernetes-bearer.yaml", render_yaml_to_directory: "out/k" } } },
      ROOT,
    );
    expect(bag.errors()).toEqual([]);
    expect(settings.vims[0]).toMatchObject({
      name: "k",
      renderYamlToDirectory: path.join(ROOT, "out/k"),
      spec: { type: "kubernetes", projectName: "default" },
    });
  });

  it("refuses render_yaml_to_directory on an OpenStack VIM", () => {
    const { bag } = config.readStackConfig(
      { vims: { o: { auth_url: "http://k/identity", username: "u", password: "p", project_name: "x", render_yaml_to_directory: "out" } } },
      ROOT,
    );
    expect(bag.errors().map((d) => d.code)).toEqual(["CONFIG_BAD_TYPE"]);
  });
});
