/**
 * A legacy Tacker VM VNFD, tosca-vnfd-hello-world.yaml (test/fixtures/legacy-vm), deployed by a
 * real `pulumi up` of the stack program on the lab OpenStack: one server from the Glance image
 * `cirros-0.5.2-x86_64-disk` with a private flavor sized from nfv_compute (1 vCPU, 512 MiB,
 * 1 GiB), three ports on the existing network its VLs name, read back with the `openstack` CLI;
 * a second up changes nothing; destroy leaves nothing of it. The lab has one tenant network,
 * `lab-net`, so the copy deployed here names it for all three VLs (net_mgmt, net0, net1 in
 * Tacker's sample). Needs the openstack provider plugin; skipped, saying why, without it.
 */
import { readFileSync, writeFileSync } from "node:fs";
import * as path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ROOT } from "./harness";
import { openLabStack, type LabStack } from "./lab/lab-stack";
import { labResources, openstackCli, openstackLabEnabled } from "./lab/openstack";

const STACK = "it-legacy-vm";
const enabled = openstackLabEnabled();

let lab!: LabStack;

const os = <T>(...args: string[]) => openstackCli<T>(lab.facts, args);

interface Server {
  ID: string;
  Name: string;
  Status: string;
}
interface ServerShow {
  flavor: string | { name?: string; original_name?: string };
  image: string | { id: string };
}
interface PortShow {
  name: string;
  network_id: string;
  device_id: string;
}

const ours = <T extends { Name: string }>(xs: T[]) => xs.filter((x) => x.Name.startsWith("hello-")).sort((a, b) => a.Name.localeCompare(b.Name));
const servers = () => ours(os<Server[]>("server", "list"));

/** The sample with every VL on the lab's network, and Tacker's minimal request for flavour `default`. */
function writeInputs(): { vnfd: string; request: string } {
  const text = readFileSync(path.join(ROOT, "test/fixtures/legacy-vm/tosca-vnfd-hello-world.yaml"), "utf8").replace(
    /network_name: \S+/g,
    "network_name: lab-net",
  );
  const vnfd = path.join(lab.work, "tosca-vnfd-hello-world.yaml");
  writeFileSync(vnfd, text);
  const request = path.join(lab.work, "hello-request.json");
  writeFileSync(request, JSON.stringify({ flavourId: "default" }));
  return { vnfd, request };
}

describe.skipIf(!enabled)("legacy VM VNFD tosca-vnfd-hello-world.yaml on the lab OpenStack, by a real pulumi up", () => {
  beforeAll(async () => {
    lab = await openLabStack(STACK);
    const { vnfd, request } = writeInputs();
    await lab.set("vnfs.hello.vim", "lab");
    await lab.set("vnfs.hello.package", vnfd);
    await lab.set("vnfs.hello.instantiate_request", request);
  }, 1_800_000);

  afterAll(async () => {
    await lab?.close();
  }, 900_000);

  it("one ACTIVE server from the named image, a flavor sized from nfv_compute, three ports on lab-net in order", async () => {
    const up = await lab.stack.up({ color: "never" });
    expect(up.summary.result).toBe("succeeded");
    expect(servers().map((s) => [s.Name, s.Status])).toEqual([["hello-VDU1-0", "ACTIVE"]]);
    const server = os<ServerShow & { id: string }>("server", "show", "hello-VDU1-0");
    const image = os<{ id: string }>("image", "show", "cirros-0.5.2-x86_64-disk");
    expect(typeof server.image === "string" ? server.image : server.image.id).toContain(image.id);
    const flavor = os<{ ram: number; vcpus: number; disk: number }>("flavor", "show", "hello-VDU1");
    expect([flavor.vcpus, flavor.ram, flavor.disk]).toEqual([1, 512, 1]);
    const net = labResources(lab.facts)["network.lab-net"];
    const ports = ["CP1", "CP2", "CP3"].map((cp) => os<PortShow>("port", "show", `hello-VDU1-0-${cp}`));
    expect(ports.map((p) => [p.network_id, p.device_id])).toEqual(ports.map(() => [net, server.id]));
    const vnfcs = up.outputs.vnfs.value.hello.vnfcs as Record<string, { ips: string[] }>;
    expect(Object.keys(vnfcs)).toEqual(["VDU1-0"]);
    expect(vnfcs["VDU1-0"].ips).toHaveLength(3);
  });

  it("a second up changes nothing", async () => {
    const up = await lab.stack.up({ color: "never" });
    expect(Object.entries(up.summary.resourceChanges ?? {}).filter(([op, n]) => op !== "same" && (n ?? 0) > 0)).toEqual([]);
  });

  it("destroy leaves no server, port or flavor of the VNF, and the lab's network in place", async () => {
    await lab.stack.destroy({ color: "never" });
    expect(servers()).toEqual([]);
    expect(ours(os<{ Name: string }[]>("port", "list"))).toEqual([]);
    expect(ours(os<{ Name: string }[]>("flavor", "list", "--all"))).toEqual([]);
    expect(os<{ id: string }>("network", "show", "lab-net").id).toBe(labResources(lab.facts)["network.lab-net"]);
  });
});
