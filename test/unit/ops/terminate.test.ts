/**
 * `nfv terminate`'s plan on the example NS (examples/hybrid-ns) read as the stack program reads
 * it: a network service goes with its constituents' entries, a constituent alone is refused, and
 * a terminate that would leave the config invalid (a VNF's hook_parameters naming what goes) is
 * refused with that config's own located error.
 */
import * as path from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { DiagnosticError } from "../../../translators/diagnostics";
import { loadStackSettings } from "../../../stacks/settings";
import { checkConfigLeft, configWithout, terminateOperation, terminateTargets, type TerminateArgs } from "../../../ops/terminate";
import type { RawStackConfig } from "../../../ops/stack-state";
import { examplePackage } from "../ns/helpers";
import { writePackage } from "../tosca/helpers";
import { OS_VIM, RENDER_K8S_VIM } from "../stacks/vims";

const ROOT = path.join(__dirname, "../../..");
const EXAMPLE = path.join(ROOT, "examples/hybrid-ns");
const KEY = path.join(ROOT, "test/fixtures/pki/client.key");
const packages: Record<string, string> = {};
beforeAll(() => {
  for (const name of ["ns", "client-vnf", "server-cnf"] as const) packages[name] = writePackage(examplePackage(name));
});

const server = () => ({ vim: "edge", package: packages["server-cnf"], instantiate_request: path.join(EXAMPLE, "requests/server.json") });
const client = (serverVnf: string) => ({
  vim: "lab",
  package: packages["client-vnf"],
  instantiate_request: path.join(EXAMPLE, "requests/client.json"),
  ssh: { cp: "clientCp", user: "cirros", private_key_file: KEY },
  hooks: { instantiate_end: path.join(EXAMPLE, "mgmt/call-server.sh") },
  hook_parameters: { server_port: `\${vnfs.${serverVnf}.services.server.ports[0].nodePort}` },
});
/** The NS (nsclient → nsserver) and, beside it, a standalone client of a standalone server. */
const raw = (): RawStackConfig => ({
  vims: { lab: OS_VIM, edge: RENDER_K8S_VIM },
  vnfs: { nsclient: client("nsserver"), nsserver: server(), solo: client("soloserver"), soloserver: server() },
  networkServices: { hybrid: { package: packages.ns, vnfs: { client: "nsclient", server: "nsserver" } } },
});

async function plan(args: TerminateArgs) {
  const settings = await loadStackSettings(raw(), ROOT, "dev");
  expect(settings.bag.errors()).toEqual([]);
  return terminateTargets(settings, args);
}

async function refusal(run: () => Promise<unknown>): Promise<DiagnosticError> {
  try {
    await run();
  } catch (e) {
    if (e instanceof DiagnosticError) return e;
    throw e;
  }
  throw new Error("expected a refusal");
}

describe("nfv terminate: what goes", () => {
  it("a network service: its entry and both constituents' entries are removed, the standalone VNFs stay valid", async () => {
    const targets = await plan({ ns: "hybrid" });
    expect(targets).toEqual({ ns: "hybrid", vnfs: ["nsclient", "nsserver"] });
    expect(terminateOperation(targets).configChanges).toEqual([
      { key: "pulumi-nfv:network_services.hybrid", remove: true },
      { key: "pulumi-nfv:vnfs.nsclient", remove: true },
      { key: "pulumi-nfv:vnfs.nsserver", remove: true },
    ]);
    const left = configWithout(raw(), targets);
    expect(Object.keys(left.vnfs as object)).toEqual(["solo", "soloserver"]);
    expect(left.networkServices).toEqual({});
    await checkConfigLeft(raw(), targets, ROOT, "dev");
  });

  it("a standalone VNF nothing names: its entry alone", async () => {
    const targets = await plan({ vnf: "solo" });
    expect(terminateOperation(targets).configChanges).toEqual([{ key: "pulumi-nfv:vnfs.solo", remove: true }]);
    await checkConfigLeft(raw(), targets, ROOT, "dev");
  });

  it("a VNF another VNF's hook_parameters name: refused with the error the config left would have", async () => {
    const targets = await plan({ vnf: "soloserver" });
    const e = await refusal(() => checkConfigLeft(raw(), targets, ROOT, "dev"));
    expect(e.message).toMatch(/^terminating soloserver would leave the stack's config invalid/);
    expect(e.diagnostics.map((d) => d.code)).toEqual(["CONFIG_BAD_REFERENCE"]);
    expect(e.diagnostics[0].message).toContain("soloserver");
  });

  it("refused: a constituent alone, an unknown NS or VNF, both or neither named", async () => {
    const codes = async (args: TerminateArgs) => (await refusal(() => plan(args))).diagnostics.map((d) => [d.code, d.message]);
    expect(await codes({ vnf: "nsserver" })).toEqual([
      ["OP_NS_CONSTITUENT", "VNF 'nsserver' is constituent server of network service 'hybrid': terminate the network service (--ns hybrid)"],
    ]);
    expect(await codes({ ns: "other" })).toEqual([["OP_UNKNOWN_NS", "network service 'other' is not in the stack (network services: hybrid)"]]);
    expect((await codes({ vnf: "x" }))[0][0]).toBe("OP_UNKNOWN_VNF");
    expect((await codes({ ns: "hybrid", vnf: "solo" }))[0][0]).toBe("OP_TERMINATE_WHAT");
    expect((await codes({}))[0][0]).toBe("OP_TERMINATE_WHAT");
  });
});
