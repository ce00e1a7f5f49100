/**
 * The private registry VNF (../shared/vnf-packages/private_registry_vnf_package, the seed's
 * private_registry_param_file.json as it is, pointed at the lab's network) on the lab OpenStack,
 * by a real `pulumi up`: a Nova server with its key pair, a port, a 20 GiB Cinder volume for the
 * registry's storage; the `instantiate_end` hook installs Debian's docker-registry on the VM host
 * over SSH (the script formats and mounts the volume); an OCI image is pushed and pulled with
 * skopeo; `nfv heal` of the VNFC replaces the server (fresh root filesystem) and the same endpoint
 * serves the same image from the kept volume and port; destroy leaves nothing. Needs the openstack
 * provider plugin; skipped without it.
 */
import { readFileSync, writeFileSync } from "node:fs";
import * as path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ROOT, runNfv } from "./harness";
import { openLabStack, type LabStack } from "./lab/lab-stack";
import { labResources, openstackCli, openstackLabEnabled } from "./lab/openstack";
import { buildOciImage, pulledLayers, pushImage, registryAnswers } from "./lab/oci";

const STACK = "it-registry-vm";
const VNF = "reg";
const VNFC = "PrivateRegistryVDU-0";
const enabled = openstackLabEnabled();

// The lab, the scratch directory and the stack: set by beforeAll.
let lab!: LabStack;
let endpoint = "";

interface Server {
  ID: string;
  Name: string;
  Status: string;
}
interface Port {
  ID: string;
  Name: string;
  "Fixed IP Addresses": { ip_address: string }[] | string;
}
interface Volume {
  ID: string;
  Name: string;
  Size: number;
  "Attached to": { server_id: string }[] | string;
}

const os = <T>(...args: string[]) => openstackCli<T>(lab.facts, args);
const ours = <T extends { Name: string }>(xs: T[]) => xs.filter((x) => x.Name.startsWith(`${VNF}-`)).sort((a, b) => a.Name.localeCompare(b.Name));
const servers = () => ours(os<Server[]>("server", "list"));
const ports = () => ours(os<Port[]>("port", "list"));
const volumes = () => ours(os<Volume[]>("volume", "list", "--long"));
const ipsOf = (p: Port) => (typeof p["Fixed IP Addresses"] === "string" ? [p["Fixed IP Addresses"]] : p["Fixed IP Addresses"].map((a) => a.ip_address));
const image = () => `${endpoint}/nfv/hello:1.0`;

/** The VM host of a server: its tree, and whether the registry storage is mounted from a loop device there. */
function hostOf(serverId: string): { root: string; storageMounted: boolean } {
  const root = path.join(lab.facts.state_dir, "hosts", serverId, "root");
  const mounts = readFileSync("/proc/self/mountinfo", "utf8")
    .split("\n")
    .map((l) => l.split(" "));
  // mountinfo: field 3 is the device's major:minor (7 = loop), field 5 the mount point.
  return { root, storageMounted: mounts.some((m) => m[4] === `${root}/var/lib/nfv-registry` && m[2]?.startsWith("7:")) };
}

/** The seed's param file as it is (comments and all), with the lab network's id put in. */
function labRequest(): string {
  const seed = readFileSync(path.join(ROOT, "test/fixtures/vnf/private_registry_param_file.json"), "utf8");
  const file = path.join(lab.work, "private_registry_param_file.json");
  writeFileSync(file, seed.replace("f0c82461-36b5-4d86-8322-b0bc19cda65f", labResources(lab.facts)["network.lab-net"]));
  return file;
}

describe.skipIf(!enabled)("the private registry VNF on the lab OpenStack, by a real pulumi up", () => {
  beforeAll(async () => {
    lab = await openLabStack(STACK);
    await lab.set(`vnfs.${VNF}.vim`, "lab");
    await lab.set(`vnfs.${VNF}.package`, path.join(ROOT, "../shared/vnf-packages/private_registry_vnf_package"));
    await lab.set(`vnfs.${VNF}.instantiate_request`, labRequest());
    await lab.setSsh(VNF, "ubuntu");
    await lab.set(`vnfs.${VNF}.mode`, "native");
  }, 1_800_000);

  afterAll(async () => {
    await lab?.close();
  }, 900_000);

  it("up: one server with the key pair, one port, a 20 GiB volume attached; the hook installed the registry on it", async () => {
    const up = await lab.stack.up({ color: "never" });
    expect(up.summary.result).toBe("succeeded");
    const [server] = servers();
    expect(servers().map((s) => [s.Name, s.Status])).toEqual([[`${VNF}-vnf-${VNFC}`, "ACTIVE"]]);
    expect(os<{ key_name: string }>("server", "show", server.ID).key_name).toBe(`${VNF}-vnf-keypair`);
    expect(ports().map((p) => p.Name)).toEqual([`${VNF}-vnf-${VNFC}-CP1`]);
    const [volume] = volumes();
    expect([volume.Name, volume.Size]).toEqual([`${VNF}-vnf-${VNFC}-RegistryStorage`, 20]);
    endpoint = up.outputs.vnfs.value[VNF].endpoint as string;
    expect(endpoint).toBe(`${ipsOf(ports()[0])[0]}:5000`);
    expect(up.outputs.vnfs.value[VNF].connectionInfo).toEqual({ connection_type: "0", server: endpoint });
    expect(await registryAnswers(endpoint)).toBe(true);
    // The install script formatted the volume and mounted it through the VM's fstab.
    const host = hostOf(server.ID);
    expect(host.storageMounted).toBe(true);
    expect(readFileSync(path.join(host.root, "etc/fstab"), "utf8")).toMatch(/^UUID=\S+ \/var\/lib\/nfv-registry ext4 /m);
    expect(readFileSync(path.join(host.root, "etc/docker/registry/config.yml"), "utf8")).toContain("rootdirectory: /var/lib/nfv-registry");
  });

  let pushed = "";
  it("an OCI image built here is pushed to the endpoint with skopeo and pulled back unchanged", () => {
    const layout = path.join(lab.work, "image");
    pushed = buildOciImage(layout, lab.work).layerDigest;
    pushImage(layout, image());
    expect(pulledLayers(image(), lab.work)).toEqual([pushed]);
  }, 120_000);

  it("a second up changes nothing", async () => {
    const up = await lab.stack.up({ color: "never" });
    expect(Object.entries(up.summary.resourceChanges ?? {}).filter(([op, n]) => op !== "same" && (n ?? 0) > 0)).toEqual([]);
  });

  it("nfv heal of the VNFC: a new server and root filesystem, the same port, address and volume; the image is still served", async () => {
    const before = { servers: servers(), ports: ports(), volumes: volumes() };
    const r = await runNfv(lab.local.env, ["heal", "--stack", STACK, "--vnf", VNF, "--vnfc", VNFC]);
    expect(r.code, r.out).toBe(0);
    const after = { servers: servers(), ports: ports(), volumes: volumes() };
    expect(after.servers).toHaveLength(1);
    expect(after.servers[0].ID).not.toBe(before.servers[0].ID);
    expect(after.ports.map((p) => [p.ID, ipsOf(p)])).toEqual(before.ports.map((p) => [p.ID, ipsOf(p)]));
    expect(after.volumes.map((v) => v.ID)).toEqual(before.volumes.map((v) => v.ID));
    expect(hostOf(after.servers[0].ID).storageMounted).toBe(true);
    expect(await registryAnswers(endpoint)).toBe(true);
    expect(pulledLayers(image(), lab.work)).toEqual([pushed]);
  });

  it("destroy leaves no server, port, volume or key pair of the VNF", async () => {
    await lab.stack.destroy({ color: "never" });
    expect(servers()).toEqual([]);
    expect(ports()).toEqual([]);
    expect(volumes()).toEqual([]);
    expect(ours(os<{ Name: string }[]>("keypair", "list"))).toEqual([]);
  });
});
