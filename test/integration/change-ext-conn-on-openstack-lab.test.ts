/**
 * Tacker's ChangeExtVnfConnectivity on the lab OpenStack, by `nfv change-ext-conn`: helloworld3
 * with hook scripts from stack config (`hooks`: instantiate_end and the two change hooks, a script
 * that records its operation and the VM's addresses on the VM), SSH over a Nova key pair made
 * from `ssh.public_key_file`. The change request gives CP1 a new fixed address: the port keeps its
 * id and gets the address in place, the server stays, `_start` ran on the VM at the old address
 * and `_end` at the new one, and a second change appended to the first keeps both applied.
 * Needs the openstack provider plugin; skipped without it.
 */
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import * as path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ROOT, runNfv } from "./harness";
import { openLabStack, type LabStack } from "./lab/lab-stack";
import { labResources, openstackCli, openstackLabEnabled } from "./lab/openstack";

const STACK = "it-change-ext-conn";
const VNF = "cec";
// Outside the subnet's DHCP pool (.10-.250): never taken by another port of the lab.
const [OLD_IP, NEW_IP, NEWER_IP] = ["10.10.0.252", "10.10.0.253", "10.10.0.254"];
const enabled = openstackLabEnabled();

// The lab, the scratch directory and the stack: set by beforeAll.
let lab!: LabStack;

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

const os = <T>(...args: string[]) => openstackCli<T>(lab.facts, args);
const ours = <T extends { Name: string }>(xs: T[]) => xs.filter((x) => x.Name.startsWith(`${VNF}-`)).sort((a, b) => a.Name.localeCompare(b.Name));
const servers = () => ours(os<Server[]>("server", "list"));
const cp1 = () => ours(os<Port[]>("port", "list")).find((p) => p.Name === `${VNF}-VDU1-0-CP1`)!;
const ipsOf = (p: Port) => (typeof p["Fixed IP Addresses"] === "string" ? [p["Fixed IP Addresses"]] : p["Fixed IP Addresses"].map((a) => a.ip_address));

/** helloworld3's level-1 request (or a change request) on the lab network, CP1 at `ip`. */
function request(ip: string, change: boolean): string {
  const r = labResources(lab.facts);
  const base = JSON.parse(readFileSync(path.join(ROOT, "test/fixtures/vnf/helloworld3_level1.json"), "utf8")) as Record<string, unknown> & {
    extVirtualLinks: {
      resourceId: string;
      extCps: { cpConfig: { cpProtocolData: { ipOverEthernet: { ipAddresses: { fixedAddresses: string[]; subnetId: string }[] } }[] }[] }[];
    }[];
  };
  const link = base.extVirtualLinks[0];
  link.resourceId = r["network.lab-net"];
  const address = link.extCps[0].cpConfig[0].cpProtocolData[0].ipOverEthernet.ipAddresses[0];
  address.fixedAddresses = [ip];
  address.subnetId = r["subnet.lab-subnet"];
  const body = change ? { extVirtualLinks: base.extVirtualLinks, vimConnectionInfo: base.vimConnectionInfo } : base;
  const file = path.join(lab.work, `${change ? "change" : "instantiate"}-${ip}.json`);
  writeFileSync(file, JSON.stringify(body, null, 2));
  return file;
}

/** The hook log on VDU1-0's VM host: [operation, addresses] per run. */
function hookLog(serverId: string): [string, string][] {
  const file = path.join(lab.facts.state_dir, "hosts", serverId, "root/var/log/nfv-hooks.log");
  return existsSync(file)
    ? readFileSync(file, "utf8")
        .trim()
        .split("\n")
        .map((l) => l.split(" ").slice(1) as [string, string])
    : [];
}

describe.skipIf(!enabled)("change of external connectivity on the lab OpenStack, by nfv change-ext-conn", () => {
  beforeAll(async () => {
    lab = await openLabStack(STACK);
    await lab.set(`vnfs.${VNF}.vim`, "lab");
    await lab.set(`vnfs.${VNF}.package`, path.join(ROOT, "../shared/vnf-packages/helloworld3"));
    await lab.set(`vnfs.${VNF}.instantiate_request`, request(OLD_IP, false));
    await lab.setSsh(VNF, "cirros", "CP1");
    const script = path.join(ROOT, "test/fixtures/vnf/hooks/record.sh");
    for (const op of ["instantiate_end", "change_external_connectivity_start", "change_external_connectivity_end"])
      await lab.set(`vnfs.${VNF}.hooks.${op}`, script);
  }, 1_800_000);

  afterAll(async () => {
    await lab?.close();
  }, 900_000);

  let serverId = "";
  let portId = "";
  it("up: the instantiate_end hook ran on VDU1-0 (the VDU with the SSH CP) at the first address", async () => {
    const up = await lab.stack.up({ color: "never" });
    expect(up.summary.result).toBe("succeeded");
    expect(servers().map((s) => s.Name)).toEqual([`${VNF}-VDU1-0`, `${VNF}-VDU2-0`]);
    serverId = servers()[0].ID;
    portId = cp1().ID;
    expect(ipsOf(cp1())).toEqual([OLD_IP]);
    expect(hookLog(serverId)).toEqual([["instantiate_end", expect.stringContaining(`${OLD_IP}/24`)]]);
  });

  it("--preview shows the change and leaves the stack config as it was", async () => {
    const before = await lab.stack.getAllConfig();
    const r = await runNfv(lab.local.env, ["change-ext-conn", "--stack", STACK, "--vnf", VNF, "--request", request(NEW_IP, true), "--preview"]);
    expect(r.code, r.out).toBe(0);
    expect(r.out).toContain(`port VDU1-0/CP1: link ext0 (network ${labResources(lab.facts)["network.lab-net"]}), fixed ${NEW_IP}`);
    expect(r.out).toMatch(/cec-VDU1-0-change_external_connectivity_start/);
    expect(await lab.stack.getAllConfig()).toEqual(before);
    expect(ipsOf(cp1())).toEqual([OLD_IP]);
  });

  it("the change: same port and server, the new address; _start ran at the old address, _end at the new one", async () => {
    const r = await runNfv(lab.local.env, ["change-ext-conn", "--stack", STACK, "--vnf", VNF, "--request", request(NEW_IP, true)]);
    expect(r.code, r.out).toBe(0);
    expect(cp1().ID).toBe(portId);
    expect(ipsOf(cp1())).toEqual([NEW_IP]);
    expect(servers()[0].ID).toBe(serverId);
    expect(hookLog(serverId).map(([op, ips]) => [op, ips.split(",").filter((a) => a.startsWith("10.10.0."))])).toEqual([
      ["instantiate_end", [`${OLD_IP}/24`]],
      ["change_external_connectivity_start", [`${OLD_IP}/24`]],
      ["change_external_connectivity_end", [`${NEW_IP}/24`]],
    ]);
  });

  it("a second up changes nothing; a second change is applied on top of the first", async () => {
    const again = await lab.stack.up({ color: "never" });
    expect(Object.entries(again.summary.resourceChanges ?? {}).filter(([op, n]) => op !== "same" && (n ?? 0) > 0)).toEqual([]);
    const r = await runNfv(lab.local.env, ["change-ext-conn", "--stack", STACK, "--vnf", VNF, "--request", request(NEWER_IP, true)]);
    expect(r.code, r.out).toBe(0);
    expect(ipsOf(cp1())).toEqual([NEWER_IP]);
    const config = JSON.parse((await lab.stack.getAllConfig())["pulumi-nfv:vnfs"].value) as Record<
      string,
      { change_ext_conn: { requests: string[]; previous_addresses: Record<string, string> } }
    >;
    expect(config[VNF].change_ext_conn.requests).toHaveLength(2);
    expect(config[VNF].change_ext_conn.previous_addresses).toEqual({ "VDU1-0": NEW_IP });
    expect(
      hookLog(serverId)
        .slice(-2)
        .map(([op]) => op),
    ).toEqual(["change_external_connectivity_start", "change_external_connectivity_end"]);
  });

  it("a request naming a CP the VNF does not have is refused before anything changes", async () => {
    const bad = path.join(lab.work, "bad.json");
    writeFileSync(bad, readFileSync(request(NEW_IP, true), "utf8").replace('"cpdId": "CP1"', '"cpdId": "CP7"'));
    const r = await runNfv(lab.local.env, ["change-ext-conn", "--stack", STACK, "--vnf", VNF, "--request", bad]);
    expect(r.code).toBe(1);
    expect(r.out).toMatch(/CP7/);
    expect(ipsOf(cp1())).toEqual([NEWER_IP]);
  });
});
