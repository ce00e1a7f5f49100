/**
 * examples/vm-vnf-openstack as a user runs it: a Pulumi project of its own, with pulumi-nfv
 * installed from `npm pack` (test/package/install-packed.ts), on the lab OpenStack: a preview that
 * touches nothing, an up whose instantiate_end hook writes the greeting on the VM, a second up with
 * no change, a destroy that leaves no server, port or keypair.
 */
import { execFileSync } from "node:child_process";
import { cpSync, existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import * as path from "node:path";
import type { Stack } from "@pulumi/pulumi/automation";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { installPacked, packTarball } from "../package/install-packed";
import { openLocalStack, registerPrivateKeyFile, removeTestStack, ROOT, setSecretConfig, until, type LocalStack } from "./harness";
import { labResources, labUp, openstackCli, openstackLabEnabled, type LabFacts } from "./lab/openstack";
import { timer } from "./lab/timings";

const enabled = openstackLabEnabled();
const EXAMPLE = "vm-vnf-openstack";
const GREETING = "hello from the lab";

let facts!: LabFacts;
let work = "";
let local: LocalStack | undefined;
let stack!: Stack;
const { timings, timed } = timer();

const mine = <T extends { Name: string }>(xs: T[]) => xs.filter((x) => x.Name.startsWith("greeter-"));
const servers = () => mine(openstackCli<{ ID: string; Name: string; Status: string }[]>(facts, ["server", "list"]));
const ports = () => mine(openstackCli<{ Name: string }[]>(facts, ["port", "list"]));
const keypairs = () => mine(openstackCli<{ Name: string }[]>(facts, ["keypair", "list"]));
const set = (key: string, value: string) => stack.setConfig(`${EXAMPLE}:${key}`, { value });

describe.skipIf(!enabled)("examples/vm-vnf-openstack from the packed package, on the lab OpenStack", () => {
  beforeAll(async () => {
    facts = labUp();
    work = mkdtempSync(path.join(tmpdir(), "nfv-example-vm-"));
    const app = path.join(work, EXAMPLE);
    cpSync(path.join(ROOT, "examples", EXAMPLE), app, { recursive: true });
    await timed("npm pack and install", async () => installPacked(await packTarball(work), app));
    const key = path.join(work, "id_ed25519");
    execFileSync("ssh-keygen", ["-q", "-t", "ed25519", "-N", "", "-C", "example", "-f", key]);
    registerPrivateKeyFile("SSH private key of the example", key);
    const request = path.join(work, "instantiate.json");
    const link = {
      id: "ext0",
      resourceId: labResources(facts)["network.lab-net"],
      extCps: [{ cpdId: "greeterCp", cpConfig: [{ cpProtocolData: [{ layerProtocol: "IP_OVER_ETHERNET" }] }] }],
    };
    writeFileSync(request, JSON.stringify({ flavourId: "simple", extVirtualLinks: [link] }, null, 2));
    local = await openLocalStack({ stackName: "it-example-vm", workDir: app });
    stack = local.stack;
    await set("vimConfig", facts.vim_config);
    await set("instantiateRequest", request);
    await set("sshPublicKey", readFileSync(`${key}.pub`, "utf8").trim());
    await setSecretConfig(stack, `${EXAMPLE}:sshPrivateKey`, readFileSync(key, "utf8"), false);
    await set("greeting", GREETING);
  }, 900_000);

  afterAll(async () => {
    await removeTestStack(stack);
    local?.dispose();
    if (work) rmSync(work, { recursive: true, force: true });
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
