/** The `nfv` command in-process: output formats and exit codes (0 ok, 1 problems, 2 usage). */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { main } from "../../../cli/nfv";
import { baseFiles, edit, FIXTURES, positionOf, REPO, SHARED_PACKAGES, writePackage } from "../tosca/helpers";
import { examplePackage } from "../ns/helpers";
import { BROKEN } from "../tosca/broken-fixtures";
import { kubernetesPackage } from "../../fixtures/kubernetes-package";

async function run(...argv: string[]): Promise<{ code: number; out: string; err: string }> {
  let out = "";
  let err = "";
  const code = await main(argv, { out: (s) => void (out += s), err: (s) => void (err += s) });
  return { code, out, err };
}

const HELLO = join(SHARED_PACKAGES, "helloworld3");

describe("nfv", () => {
  it("lists its commands, and refuses unknown ones with exit 2", async () => {
    expect((await run("--help")).out).toMatch(/validate .*\n.*translate/);
    expect(await run()).toMatchObject({ code: 2 });
    expect(await run("frobnicate")).toMatchObject({ code: 2, err: expect.stringContaining("unknown command `frobnicate`") });
  });

  it("starts with a node shebang", () => {
    expect(readFileSync(join(REPO, "cli/nfv.ts"), "utf8").startsWith("#!/usr/bin/env node\n")).toBe(true);
  });
});

describe("nfv validate", () => {
  it("exits 0 on a valid package and prints a summary", async () => {
    expect(await run("validate", HELLO)).toEqual({ code: 0, out: "0 error(s), 0 warning(s)\n", err: "" });
  });

  it("validates an NS package: the example NS is valid, a dependency cycle in it is an error at its line", async () => {
    expect(await run("validate", writePackage(examplePackage("ns")))).toEqual({ code: 0, out: "0 error(s), 0 warning(s)\n", err: "" });
    const files = edit(
      examplePackage("ns"),
      "Definitions/hybrid_ns.yaml",
      "        - virtual_link_service: service_link\n\n",
      "        - virtual_link_service: service_link\n        - dependency: client\n\n",
    );
    const dir = writePackage(files);
    const r = await run("validate", dir);
    expect(r.code).toBe(1);
    expect(r.out).toContain(`${join(dir, "Definitions/hybrid_ns.yaml")}:${positionOf(files.get("Definitions/hybrid_ns.yaml")!, "dependency: client").line}:`);
    expect(r.out).toContain("error NS_DEPENDENCY_CYCLE: the VNFs depend on each other in a cycle: client → server → client");
  });

  it("prints `file:line:col: error CODE: message` and exits 1", async () => {
    const dir = writePackage(edit(baseFiles(), "Definitions/vnfd.yaml", "default_level: small", "default_level: medium"));
    const r = await run("validate", dir);
    expect(r.code).toBe(1);
    expect(r.out).toMatch(
      new RegExp(
        `^${join(dir, "Definitions/vnfd.yaml")}:\\d+:\\d+ \\(topology_template\\.policies\\[3\\]\\.instantiation_levels\\.properties\\.default_level\\): error POLICY_DEFAULT_LEVEL_MISSING: `,
        "m",
      ),
    );
  });

  it("prints the JSON shape with --format json", async () => {
    const r = await run("validate", join(FIXTURES, "zip-symlink.zip"), "--format", "json");
    expect(r.code).toBe(1);
    const json = JSON.parse(r.out);
    expect(Object.keys(json)).toEqual(["diagnostics"]);
    expect(Object.keys(json.diagnostics[0])).toEqual(["severity", "code", "message", "file", "line", "column", "path"]);
    expect(json.diagnostics[0]).toMatchObject({ severity: "error", code: "PKG_ZIP_ESCAPE" });
  });

  it("exits 1 for every broken fixture", async () => {
    for (const b of BROKEN) {
      const r = await run("validate", writePackage(b.files()), "--format", "json", ...(b.strict ? ["--strict"] : []));
      expect([b.name, r.code]).toEqual([b.name, 1]);
      expect(JSON.parse(r.out).diagnostics.some((d: { code: string; line: number | null }) => d.code === b.code && d.line !== null)).toBe(true);
    }
  }, 60_000);

  it("--strict makes what Tacker tolerates an error: exit 0 with a warning without it, 1 with it", async () => {
    const dir = writePackage(edit(baseFiles(), "Definitions/vnfd.yaml", "      properties:\n        description: VDUs kept apart\n", ""));
    expect(await run("validate", dir)).toMatchObject({
      code: 0,
      out: expect.stringMatching(/: warning TEMPLATE_MISSING_PROPERTY: .*\(L10: Tacker accepts this; an error with --strict\)\n/),
    });
    expect(await run("validate", dir, "--strict")).toMatchObject({ code: 1, out: expect.stringContaining(": error TEMPLATE_MISSING_PROPERTY: ") });
  });

  it("exits 2 on bad usage", async () => {
    expect((await run("validate")).code).toBe(2);
    expect((await run("validate", HELLO, "--format", "xml")).code).toBe(2);
    expect((await run("validate", HELLO, "--colour")).code).toBe(2);
  });
});

describe("nfv translate of an NS package", () => {
  const ns = () => writePackage(examplePackage("ns"));
  const vnfs = () => ["--vnf", `client=${writePackage(examplePackage("client-vnf"))}`, "--vnf", `server=${writePackage(examplePackage("server-cnf"))}`];

  it("text: the constituents in deployment order, each with its component, VIM and CPs on the links; then the links", async () => {
    const r = await run("translate", ns(), ...vnfs(), "--format", "text");
    expect(r.code, r.out + r.err).toBe(0);
    expect(r.out).toBe(
      [
        "NS hybrid-ns (7f3a4c1e-2b6d-4e8f-9a01-5c2d3e4f5a6b), flavour simple, level default",
        "constituents, in deployment order:",
        "  1. server: container-vnf on a Kubernetes VIM, VNF flavour simple",
        "       CP serverCp (virtual_link_service) → service_link",
        "  2. client: vm-vnf on an OpenStack VIM, VNF flavour simple, after server",
        "       CP clientCp (virtual_link_service) → service_link",
        "NS virtual links:",
        "  service_link: ipv4 10.30.0.0/24",
        "0 error(s), 0 warning(s)",
        "",
      ].join("\n"),
    );
  });

  it("mermaid: a node per constituent and link, a CP edge per external CP, the dependency dashed; json: the plan", async () => {
    const m = await run("translate", ns(), ...vnfs(), "--format", "mermaid");
    expect(m.out.split("\n")).toEqual(
      expect.arrayContaining(["flowchart LR", "  vnf_client -- clientCp --- vl_service_link", "  vnf_server -. before .-> vnf_client"]),
    );
    const j = JSON.parse((await run("translate", ns(), ...vnfs())).out) as { plan: { vnfs: { id: string }[] }; diagnostics: unknown[] };
    expect(j.plan.vnfs.map((v) => v.id)).toEqual(["server", "client"]);
    expect(j.diagnostics).toEqual([]);
  });

  it("a constituent on the wrong VIM kind, or none given: located errors, exit 1; bad --vim and --vnf are usage errors", async () => {
    const wrong = await run("translate", ns(), ...vnfs(), "--vim", "server=openstack", "--format", "text");
    expect(wrong.code).toBe(1);
    expect(wrong.out).toContain("error NS_VIM_KIND_MISMATCH");
    const none = await run("translate", ns(), "--format", "text");
    expect(none.code).toBe(1);
    expect(none.out).toContain("error NS_VNF_PACKAGE_MISSING");
    expect(await run("translate", ns(), ...vnfs(), "--vim", "server=vmware")).toMatchObject({
      code: 2,
      err: expect.stringContaining("--vim server=vmware: must be openstack or kubernetes"),
    });
    expect(await run("translate", ns(), "--vnf", "client")).toMatchObject({ code: 2, err: expect.stringContaining("--vnf client: expected ID=PACKAGE") });
    expect(await run("translate", ns(), ...vnfs(), "--request", "other=x.json")).toMatchObject({
      code: 2,
      err: expect.stringContaining("--request other: no --vnf other=PACKAGE"),
    });
  });
});

describe("nfv translate", () => {
  it("prints the documented JSON shape", async () => {
    const r = await run("translate", kubernetesPackage(), "--flavour", "complex");
    expect(r.code).toBe(0);
    const json = JSON.parse(r.out);
    expect(Object.keys(json)).toEqual(["vnf", "flavours", "graph", "diagnostics"]);
    expect(json.vnf).toMatchObject({
      descriptorId: "b1db0ce7-ebca-1fb7-95ed-4840d70a1163",
      descriptorVersion: "1.0",
      provider: "Company",
      productName: "Sample VNF",
      softwareVersion: "1.0",
    });
    const complex = json.flavours.find((f: { id: string }) => f.id === "complex");
    expect(complex.vdus[0]).toMatchObject({ id: "masterNode", name: "masterNode", kind: "compute", minInstances: 3, maxInstances: 5, initialInstances: 3 });
    expect(complex.cps[0]).toEqual({ id: "masterNode_CP1", vdu: "masterNode", virtualLink: null, external: true });
    expect(complex.aspects).toEqual([
      { id: "master_instance", maxScaleLevel: 2 },
      { id: "worker_instance", maxScaleLevel: 2 },
    ]);
    expect(complex.instantiationLevels).toEqual([
      { id: "instantiation_level_1", default: true },
      { id: "instantiation_level_2", default: false },
    ]);
    expect(complex.lcmHooks.instantiate_end).toBe("Scripts/kubernetes_mgmt.py");
    expect(json.graph.flavourId).toBe("complex");
    expect(json.graph.nodes[0]).toMatchObject({ kind: "component", component: "kubernetes-cluster" });
    expect(json.diagnostics.map((d: { code: string }) => d.code)).toEqual(["ARTIFACT_FILE_MISSING", "ARTIFACT_FILE_MISSING", "ARTIFACT_FILE_MISSING"]);
  });

  it("uses an instantiate request for the level and external networks", async () => {
    const request = writePackage(
      new Map([
        [
          "req.json",
          JSON.stringify({
            flavourId: "simple",
            instantiationLevelId: "instantiation_level_2",
            extVirtualLinks: [{ id: "net0", resourceId: "uuid", extCps: [{ cpdId: "CP1", cpConfig: [] }] }],
          }),
        ],
      ]),
    );
    const r = await run("translate", HELLO, "--request", join(request, "req.json"));
    expect(r.code).toBe(0);
    const graph = JSON.parse(r.out).graph;
    expect(graph.instantiationLevelId).toBe("instantiation_level_2");
    expect(graph.nodes.find((n: { id: string }) => n.id === "vdu:VDU2").instances).toBe(3);
    expect(graph.edges).toContainEqual({ from: "port:CP1", to: "network:ext:net0", kind: "attaches" });
  });

  it("a CNF's graph holds the objects its request's manifests give, realising their VDUs; a manifest the package lacks is an error in the request file", async () => {
    const dir = writePackage(
      new Map([
        [
          "ok.json",
          JSON.stringify({
            flavourId: "simple",
            additionalParams: { "lcm-kubernetes-def-files": ["Files/kubernetes/pod.yaml", "Files/kubernetes/deployment.yaml"] },
          }),
        ],
        ["bad.json", JSON.stringify({ flavourId: "simple", additionalParams: { "lcm-kubernetes-def-files": ["Files/kubernetes/nope.yaml"] } })],
      ]),
    );
    const TEST_CNF = join(SHARED_PACKAGES, "test_cnf");
    const ok = await run("translate", TEST_CNF, "--request", join(dir, "ok.json"));
    expect(ok.code, ok.err).toBe(0);
    const graph = JSON.parse(ok.out).graph;
    expect(graph.nodes.find((n: { id: string }) => n.id === "k8s-object:deployment-vdu2")).toMatchObject({
      objectKind: "Deployment",
      name: "vdu2",
      key: "deployment-vdu2",
      replicas: 1,
    });
    expect(graph.edges).toContainEqual({ from: "k8s-object:deployment-vdu2", to: "vdu:VDU2", kind: "realises" });
    const bad = await run("translate", TEST_CNF, "--request", join(dir, "bad.json"), "--format", "mermaid");
    expect(bad.code).toBe(1);
    expect(bad.err).toContain(
      `${join(dir, "bad.json")} (additionalParams.lcm-kubernetes-def-files[0]): error CNF_MANIFEST_NOT_DECLARED: \`Files/kubernetes/nope.yaml\` is not an artifact`,
    );
  });

  it("--vnf-instance-id names a legacy VDU's objects as up does; it is refused for an NS package", async () => {
    const legacy = join(SHARED_PACKAGES, "legacy-containerized", "tosca-vnfd-containerized.yaml");
    const names = async (...extra: string[]) =>
      JSON.parse((await run("translate", legacy, ...extra)).out)
        .graph.nodes.filter((n: { kind: string }) => n.kind === "k8s-object")
        .map((n: { name: string }) => n.name);
    const byDefault = await names();
    const given = await names("--vnf-instance-id", "3f0c5c6e-0b9e-4c51-9a57-1d2b3c4d5e6f");
    expect(byDefault[0]).toMatch(/^vdu1-[0-9a-f]{8}$/);
    expect(given[0]).toMatch(/^vdu1-[0-9a-f]{8}$/);
    expect(given[0]).not.toBe(byDefault[0]);
    expect((await run("translate", writePackage(examplePackage("ns")), "--vnf", "client=x", "--vnf-instance-id", "i")).code).toBe(2);
  });

  it("draws mermaid and dot, and summarises as text", async () => {
    expect((await run("translate", HELLO, "--format", "mermaid")).out).toMatch(/^flowchart LR\n/);
    expect((await run("translate", HELLO, "--format", "dot")).out).toMatch(/^digraph "simple" \{/);
    expect((await run("translate", HELLO, "--format", "text")).out).toContain("VDU VDU2 (compute, name VDU2): 1 instance(s), min 1, max 3");
  });

  it("exits 1 with diagnostics on a broken package or an unknown flavour, 2 on bad usage", async () => {
    const broken = await run("translate", join(FIXTURES, "zip-path-escape.zip"));
    expect(broken.code).toBe(1);
    expect(JSON.parse(broken.out)).toMatchObject({ vnf: null, flavours: [], graph: null });
    const unknown = await run("translate", HELLO, "--flavour", "nope", "--format", "mermaid");
    expect(unknown).toMatchObject({ code: 1, out: "", err: expect.stringContaining("VNF_UNKNOWN_FLAVOUR: flavourId `nope` is not a flavour") });
    expect((await run("translate", HELLO, "--format", "svg")).code).toBe(2);
  });
});
