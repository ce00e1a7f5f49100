/**
 * examples/vm-vnf-openstack as a user runs it: a Pulumi project of its own, with pulumi-nfv
 * installed from `npm pack` (test/package/install-packed.ts), on the lab OpenStack: a preview that
 * touches nothing, an up whose instantiate_end hook writes the greeting on the VM, a second up with
 * no change, a destroy that leaves no server, port or keypair.
 */
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import * as path from "node:path";
import type { Stack } from "@pulumi/pulumi/automation";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { until } from "./harness";
import { openExampleProject, type ExampleProject } from "./lab/example-project";
import { labResources, labUp, openstackCli, openstackLabEnabled, type LabFacts } from "./lab/openstack";
import { timer } from "./lab/timings";

const enabled = openstackLabEnabled();
const EXAMPLE = "vm-vnf-openstack";
const GREETING = "hello from the lab";

let facts!: LabFacts;
let example: ExampleProject | undefined;
const { timings, timed } = timer();

const mine = <T extends { Name: string }>(xs: T[]) => xs.filter((x) => x.Name.startsWith("greeter-"));
const servers = () => mine(openstackCli<{ ID: string; Name: string; Status: string }[]>(facts, ["server", "list"]));
const ports = () => mine(openstackCli<{ Name: string }[]>(facts, ["port", "list"]));
const keypairs = () => mine(openstackCli<{ Name: string }[]>(facts, ["keypair", "list"]));

describe.skipIf(!enabled)("examples/vm-vnf-openstack from the packed package, on the lab OpenStack", () => {
  let stack!: Stack;
  beforeAll(async () => {
    facts = labUp();
    example = await openExampleProject(EXAMPLE, "it-example-vm", facts, timed);
    stack = example.stack;
    const request = path.join(example.work, "instantiate.json");
    const link = {
      id: "ext0",
      resourceId: labResources(facts)["network.lab-net"],
      extCps: [{ cpdId: "greeterCp", cpConfig: [{ cpProtocolData: [{ layerProtocol: "IP_OVER_ETHERNET" }] }] }],
    };
    writeFileSync(request, JSON.stringify({ flavourId: "simple", extVirtualLinks: [link] }, null, 2));
    await example.set("instantiateRequest", request);
    await example.set("greeting", GREETING);
  }, 900_000);

  afterAll(async () => {
    await example?.close();
    console.log(`example ${EXAMPLE} timings (s): ${JSON.stringify(timings)}`);
  }, 600_000);

  it("preview: the keypair, port, server and hook commands to create, nothing made", async () => {
    const preview = await timed("preview", () => stack.preview({ color: "never", diff: true }));
    expect(preview.changeSummary.create).toBeGreaterThanOrEqual(6);
    expect(preview.stdout).toContain("nfv:vnf:VmVnf");
    expect(preview.stdout).toContain("greeter-greeter-0-instantiate_end");
    expect(servers()).toEqual([]);
  });

  let serverId = "";
  it("up: one ACTIVE server, whose instantiate_end hook got the greeting on stdin and wrote it on the VM", async () => {
    const up = await timed("up", () => stack.up({ color: "never" }));
    expect(up.summary.result).toBe("succeeded");
    const list = servers();
    expect(list.map((s) => [s.Name, s.Status])).toEqual([["greeter-greeter-0", "ACTIVE"]]);
    serverId = list[0].ID;
    const log = path.join(facts.state_dir, "hosts", serverId, "root/var/log/example-greeter.log");
    expect(readFileSync(log, "utf8")).toBe(`instantiate_end ${GREETING}\n`);
    expect(keypairs().map((k) => k.Name)).toEqual(["greeter-keypair"]);
    const vnfcs = up.outputs.vnfcs.value as Record<string, { serverId: string }>;
    expect(Object.values(vnfcs).map((v) => v.serverId)).toEqual([serverId]);
  });

  it("a second up changes nothing, and the hook does not run again", async () => {
    const up = await timed("second up", () => stack.up({ color: "never" }));
    expect(Object.keys(up.summary.resourceChanges ?? {})).toEqual(["same"]);
    expect(servers().map((s) => s.ID)).toEqual([serverId]);
    expect(readFileSync(path.join(facts.state_dir, "hosts", serverId, "root/var/log/example-greeter.log"), "utf8")).toBe(`instantiate_end ${GREETING}\n`);
  });

  it("destroy: no server, port or keypair of the example left, and its VM host gone", async () => {
    await timed("destroy", () => stack.destroy({ color: "never" }));
    expect(servers()).toEqual([]);
    expect(ports()).toEqual([]);
    expect(keypairs()).toEqual([]);
    await until("the VM host removed", 60, () => !existsSync(path.join(facts.state_dir, "hosts", serverId)));
  });
});
