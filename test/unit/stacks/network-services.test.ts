/**
 * `network_services` and `hook_parameters` in a stack config, through the stack program under
 * Pulumi mocks: the example NS (examples/hybrid-ns) deployed from its VNF entries, the client's
 * hook reading the server CNF's node port as a Pulumi output, and every bad config refused,
 * located, with nothing registered.
 */
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import * as path from "node:path";
import * as pulumi from "@pulumi/pulumi";
import { afterEach, beforeAll, describe, expect, it } from "vitest";
import { DiagnosticError } from "../../../translators/diagnostics";
import { installMocks, isSecretValue, plain, settle, valueOf, type Registered } from "../helpers/pulumi-mocks";
import { examplePackage } from "../ns/helpers";
import { writePackage } from "../tosca/helpers";
import { hookStdin } from "../../../stacks/hook-stdin";
import { parseReference, valueAt } from "../../../stacks/references";
import { OS_VIM, RENDER_K8S_VIM } from "./vims";

const ROOT = path.join(__dirname, "../../..");
const KEY = path.join(ROOT, "test/fixtures/pki/client.key");
const EXAMPLE = path.join(ROOT, "examples/hybrid-ns");

let registered: Registered[];
let program: typeof import("../../../stacks/program");
const packages: Record<string, string> = {};

beforeAll(async () => {
  registered = installMocks("unit");
  program = await import("../../../stacks/program");
  for (const name of ["ns", "client-vnf", "server-cnf"] as const) packages[name] = writePackage(examplePackage(name));
});
afterEach(async () => {
  await settle();
  registered.length = 0;
});

function setConfig(vnfs: unknown, networkServices: unknown): void {
  pulumi.runtime.setAllConfig(
    {
      "pulumi-nfv:vims": JSON.stringify({ lab: OS_VIM, edge: RENDER_K8S_VIM }),
      "pulumi-nfv:vnfs": JSON.stringify(vnfs),
      "pulumi-nfv:network_services": JSON.stringify(networkServices),
    },
    ["pulumi-nfv:vims"],
  );
}

const server = () => ({ vim: "edge", package: packages["server-cnf"], instantiate_request: path.join(EXAMPLE, "requests/server.json") });
const client = (parameters: Record<string, unknown> = { server_address: "10.10.0.5", server_port: "${vnfs.nsserver.services.server.ports[0].nodePort}" }) => ({
  vim: "lab",
  package: packages["client-vnf"],
  instantiate_request: path.join(EXAMPLE, "requests/client.json"),
  ssh: { cp: "clientCp", user: "cirros", private_key_file: KEY },
  hooks: { instantiate_end: path.join(EXAMPLE, "mgmt/call-server.sh") },
  hook_parameters: parameters,
});
const hybrid = (extra: Record<string, unknown> = {}) => ({ hybrid: { package: packages.ns, vnfs: { client: "nsclient", server: "nsserver" }, ...extra } });

async function refused(): Promise<DiagnosticError> {
  try {
    await program.deployStack();
  } catch (err) {
    if (err instanceof DiagnosticError) return err;
    throw err;
  }
  throw new Error("expected the stack config to be refused");
}

describe("network_services in a stack config", () => {
  it("deploys the NS's VNF entries inside a NetworkService: the link's network, the CNF, then the VM VNF on it", async () => {
    setConfig({ nsclient: client(), nsserver: server() }, hybrid());
    const outputs = await program.deployStack();
    await settle();
    const of = (type: string) => registered.filter((r) => r.type === type).map((r) => r.name);
    expect(of("nfv:ns:NetworkService")).toEqual(["hybrid"]);
    expect(of("openstack:networking/network:Network")).toEqual(["hybrid-service_link"]);
    expect(of("nfv:cnf:ContainerizedVnf")).toEqual(["hybrid-server"]);
    expect(of("nfv:vnf:VmVnf")).toEqual(["hybrid-client"]);
    const port = registered.find((r) => r.type === "openstack:networking/port:Port" && r.name.startsWith("hybrid-client"))!;
    expect(port.inputs.networkId).toBe("hybrid-service_link-id");
    // The constituents keep their entries' names in the outputs: `nfv heal --vnf nsclient` finds them.
    expect(Object.keys(outputs.vnfs).sort()).toEqual(["nsclient", "nsserver"]);
    expect((await valueOf(outputs.vnfs.nsserver as pulumi.Output<{ services: unknown }>)).services).toEqual({
      server: { namespace: "default", type: "NodePort", ports: [{ port: 8080, targetPort: 8080, nodePort: 30080, protocol: "TCP" }] },
    });
    expect(await valueOf(outputs.networkServices.hybrid)).toEqual({
      vnfs: { client: "nsclient", server: "nsserver" },
      linkNetworkIds: { service_link: "hybrid-service_link-id" },
    });
  });

  it("the client's hook reads its hook_parameters on stdin, a secret: the literal and the server's node port from its Service", async () => {
    setConfig({ nsclient: client(), nsserver: server() }, hybrid());
    await program.deployStack();
    await settle();
    const hook = registered.find((r) => r.type === "command:remote:Command" && r.name.includes("instantiate_end"))!;
    expect(isSecretValue(hook.inputs.stdin)).toBe(true);
    expect(plain(hook.inputs.stdin)).toBe("server_address=10.10.0.5\nserver_port=30080\n");
    expect(String(hook.inputs.create)).not.toContain("30080");
  });

  it("links: an existing network for the NS virtual link; nothing is made for it", async () => {
    setConfig({ nsclient: client(), nsserver: server() }, hybrid({ links: { service_link: "net-existing" } }));
    const outputs = await program.deployStack();
    await settle();
    expect(registered.filter((r) => r.type === "openstack:networking/network:Network")).toEqual([]);
    expect(registered.find((r) => r.type === "openstack:networking/port:Port" && r.name.startsWith("hybrid-client"))!.inputs.networkId).toBe("net-existing");
    expect((await valueOf(outputs.networkServices.hybrid as pulumi.Output<{ linkNetworkIds: unknown }>)).linkNetworkIds).toEqual({
      service_link: "net-existing",
    });
  });

  it("bad NS entries are refused at their keys, and nothing is registered", async () => {
    setConfig(
      { nsclient: client(), nsserver: server() },
      {
        a: { package: packages.ns, vnfs: { client: "nope", server: "nsserver" }, colour: "red" },
        b: { vnfs: { server: "nsserver" } },
        c: { package: "does/not/exist", vnfs: "nsclient" },
      },
    );
    const e = await refused();
    expect(e.diagnostics.map((d) => [d.code, d.path])).toEqual([
      ["CONFIG_UNKNOWN_KEY", "pulumi-nfv:network_services.a.colour"],
      ["CONFIG_UNKNOWN_VNF", "pulumi-nfv:network_services.a.vnfs.client"],
      ["CONFIG_MISSING_FIELD", "pulumi-nfv:network_services.b"],
      ["CONFIG_BAD_VALUE", "pulumi-nfv:network_services.b.vnfs.server"],
      ["CONFIG_FILE_MISSING", "pulumi-nfv:network_services.c.package"],
      ["CONFIG_BAD_TYPE", "pulumi-nfv:network_services.c.vnfs"],
    ]);
    expect(registered.filter((r) => r.type.startsWith("nfv:") && r.type !== "nfv:vim:OpenStackVim" && r.type !== "nfv:vim:KubernetesVim")).toEqual([]);
  });

  it("the NSD's checks: a constituent whose VNFD is not the NSD's (descriptor id) is an error in the NSD, and nothing is registered", async () => {
    // The server's package given for the NSD's client: its descriptor_id is not the client's.
    setConfig({ nsclient: client(), nsserver: server() }, { hybrid: { package: packages.ns, vnfs: { client: "nsserver", server: "nsclient" } } });
    const e = await refused();
    expect(e.diagnostics.map((d) => d.code)).toContain("NS_UNKNOWN_VNF_DESCRIPTOR");
    expect(e.diagnostics.find((d) => d.code === "NS_UNKNOWN_VNF_DESCRIPTOR")!.file).toMatch(/hybrid_ns\.yaml$/);
    await settle();
    expect(registered.filter((r) => r.type === "nfv:ns:NetworkService" || r.type === "nfv:vnf:VmVnf" || r.type === "nfv:cnf:ContainerizedVnf")).toEqual([]);
  });

  it("Tacker's legacy NSD: its two legacy VM VNFDs' entries in one NetworkService, on the networks its VLs name (looked up, none made)", async () => {
    const corpus = path.join(ROOT, "../shared/vnf-packages/tacker-corpus/packages");
    const request = path.join(mkdtempSync(path.join(tmpdir(), "legacy-ns-")), "request.json");
    writeFileSync(request, JSON.stringify({ flavourId: "default" }));
    const legacyVnf = (n: 1 | 2) => ({
      vim: "lab",
      package: path.join(corpus, `legacy_samples_tosca-templates_nsd_sample-tosca-vnfd${n}.yaml/sample-tosca-vnfd${n}.yaml`),
      instantiate_request: request,
    });
    setConfig(
      { vnf1: legacyVnf(1), vnf2: legacyVnf(2) },
      { legacy: { package: path.join(ROOT, "test/fixtures/legacy-nsd/nsd.yaml"), vnfs: { VNF1: "vnf1", VNF2: "vnf2" } } },
    );
    const outputs = await program.deployStack();
    await settle();
    const of = (type: string) => registered.filter((r) => r.type === type).map((r) => r.name);
    expect(of("nfv:ns:NetworkService")).toEqual(["legacy"]);
    expect(of("nfv:vnf:VmVnf").sort()).toEqual(["legacy-VNF1", "legacy-VNF2"]);
    expect(of("openstack:networking/network:Network")).toEqual([]);
    expect(Object.keys(outputs.vnfs).sort()).toEqual(["vnf1", "vnf2"]);
  });

  it("a link the NS flavour has no such virtual link for is refused at links.<id>", async () => {
    setConfig({ nsclient: client(), nsserver: server() }, hybrid({ links: { other_link: "net-1" } }));
    const e = await refused();
    expect(e.diagnostics.map((d) => [d.code, d.path])).toEqual([["CONFIG_BAD_VALUE", "pulumi-nfv:network_services.hybrid.links.other_link"]]);
  });
});

describe("hook_parameters", () => {
  it("bad parameters are refused at their keys: names, a reference that is not the whole value, no path, no value, no hooks", async () => {
    const noHooks = { ...client({}), hooks: undefined, hook_parameters: { a: "1" } };
    setConfig(
      {
        nsclient: client({ "bad-name": "x", half: "at ${vnfs.nsserver.namespace}", whole: "${vnfs.nsserver}", nested: { a: 1 } }),
        nsserver: server(),
        other: noHooks,
      },
      {},
    );
    const e = await refused();
    expect(e.diagnostics.map((d) => [d.code, d.path])).toEqual([
      ["CONFIG_BAD_VALUE", "pulumi-nfv:vnfs.nsclient.hook_parameters.bad-name"],
      ["CONFIG_BAD_REFERENCE", "pulumi-nfv:vnfs.nsclient.hook_parameters.half"],
      ["CONFIG_BAD_REFERENCE", "pulumi-nfv:vnfs.nsclient.hook_parameters.whole"],
      ["CONFIG_BAD_TYPE", "pulumi-nfv:vnfs.nsclient.hook_parameters.nested"],
      ["CONFIG_BAD_VALUE", "pulumi-nfv:vnfs.other.hook_parameters"],
    ]);
  });

  it("a reference to a VNF the stack does not have, or to the VNF itself, is refused at its key", async () => {
    setConfig({ nsclient: client({ nobody: "${vnfs.ghost.vnfcs}", me: "${vnfs.nsclient.vnfcs}" }), nsserver: server() }, hybrid());
    const e = await refused();
    expect(e.diagnostics.map((d) => [d.code, d.path])).toEqual([
      ["CONFIG_BAD_REFERENCE", "pulumi-nfv:vnfs.nsclient.hook_parameters.nobody"],
      ["CONFIG_BAD_REFERENCE", "pulumi-nfv:vnfs.nsclient.hook_parameters.me"],
    ]);
  });

  it("within a network service, a reference to a constituent deployed later (the NSD's order) is refused at its key", async () => {
    // The NSD's order swapped: the server now depends on the client, so the client's reference to
    // the server's node port names a constituent deployed after it.
    const files = examplePackage("ns");
    const nsd = files
      .get("Definitions/hybrid_ns.yaml")!
      .replace("        - dependency: server\n", "")
      .replace(
        "        - virtual_link_service: service_link\n\n    service_link",
        "        - virtual_link_service: service_link\n        - dependency: client\n\n    service_link",
      );
    files.set("Definitions/hybrid_ns.yaml", nsd);
    setConfig({ nsclient: client(), nsserver: server() }, { hybrid: { package: writePackage(files), vnfs: { client: "nsclient", server: "nsserver" } } });
    const e = await refused();
    expect(e.diagnostics.map((d) => [d.code, d.path])).toEqual([["CONFIG_BAD_REFERENCE", "pulumi-nfv:vnfs.nsclient.hook_parameters.server_port"]]);
    expect(e.diagnostics[0].message).toContain("'nsserver' is deployed after 'nsclient' in network service 'hybrid' (the NSD's order: nsclient, nsserver)");
  });

  it("references that go round between two VM VNFs are refused", async () => {
    setConfig(
      {
        one: client({ x: "${vnfs.two.vnfcs}" }),
        two: client({ y: "${vnfs.one.vnfcs}" }),
      },
      {},
    );
    // (Both would fail later for their CP's missing link: the cycle is found first.)
    const e = await refused();
    expect(e.diagnostics.map((d) => d.code)).toEqual(["CONFIG_REFERENCE_CYCLE"]);
    expect(e.diagnostics[0].message).toContain("VNF 'one' → VNF 'two' → VNF 'one'");
  });

  it("a VNF referring to one listed after it is registered after it (outside an NS)", async () => {
    // Outside an NS the client's CP needs its own external link.
    const request = path.join(
      writePackage(
        new Map([
          [
            "client.json",
            JSON.stringify({ flavourId: "simple", extVirtualLinks: [{ id: "l1", resourceId: "net-1", extCps: [{ cpdId: "clientCp", cpConfig: [{}] }] }] }),
          ],
        ]),
      ),
      "client.json",
    );
    setConfig({ nsclient: { ...client(), instantiate_request: request }, nsserver: server() }, {});
    await program.deployStack();
    await settle();
    const hook = registered.find((r) => r.type === "command:remote:Command" && r.name.includes("instantiate_end"))!;
    expect(plain(hook.inputs.stdin)).toBe("server_address=10.10.0.5\nserver_port=30080\n");
  });

  it("resolution: the value at the path; a missing step names what is there; an object or a line break is no value", async () => {
    const out = { vnfcs: { "workerNode-0": { ips: ["10.10.0.7"] } }, note: "a\nb" };
    const ref = (t: string) => parseReference(t)!;
    expect(ref("${vnfs.k8s.vnfcs.workerNode-0.ips[0]}")).toEqual({
      vnf: "k8s",
      path: ["vnfcs", "workerNode-0", "ips", 0],
      text: "${vnfs.k8s.vnfcs.workerNode-0.ips[0]}",
    });
    expect(valueAt(out, ref("${vnfs.k8s.vnfcs.workerNode-0.ips[0]}"), "p")).toBe("10.10.0.7");
    expect(() => valueAt(out, ref("${vnfs.k8s.vnfcs.workerNode-1.ips[0]}"), "p")).toThrow(
      "hook_parameters.p: ${vnfs.k8s.vnfcs.workerNode-1.ips[0]}: vnfs.k8s.vnfcs has no 'workerNode-1' (it has workerNode-0)",
    );
    expect(() => valueAt(out, ref("${vnfs.k8s.vnfcs.workerNode-0.ips}"), "p")).toThrow("is an array, not a value");
    expect(() => valueAt(out, ref("${vnfs.k8s.note}"), "p")).toThrow("has a line break");
    const stdin = hookStdin({ a: { value: "1" }, b: { ref: ref("${vnfs.k8s.vnfcs.workerNode-0.ips[0]}") } }, { k8s: pulumi.output(out) });
    expect(pulumi.Output.isInstance(stdin)).toBe(true);
    expect(await valueOf(stdin)).toBe("a=1\nb=10.10.0.7\n");
    expect(() => hookStdin({ b: { ref: ref("${vnfs.later.vnfcs}") } }, {})).toThrow(
      "hook_parameters.b: ${vnfs.later.vnfcs}: VNF 'later' is deployed after this one",
    );
  });
});
