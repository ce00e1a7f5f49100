/**
 * Our scalable VM VNF (test/fixtures/packages/scalable-vm) on the lab OpenStack, as the rollback,
 * change-vnfpkg and serve tests use it: the package (test/fixtures/scalable-vm-package.ts), its instantiate request on the lab network, and the hook log that
 * record.sh and fail.sh write on a VNFC's VM host.
 */
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import * as path from "node:path";
import { labResources, type LabFacts } from "./openstack";

/** The InstantiateVnfRequest: flavour `simple`, every VNFC's CP on the lab network. */
export function scalableVmRequest(work: string, facts: LabFacts): string {
  const file = path.join(work, "instantiate.json");
  const link = {
    id: "ext0",
    resourceId: labResources(facts)["network.lab-net"],
    extCps: [{ cpdId: "workerCp", cpConfig: [{ cpProtocolData: [{ layerProtocol: "IP_OVER_ETHERNET" }] }] }],
  };
  writeFileSync(file, JSON.stringify({ flavourId: "simple", instantiationLevelId: "instantiation_level_1", extVirtualLinks: [link] }, null, 2));
  return file;
}

/** The hooks that ran on a VNFC's VM host, in order: `<operation>`, or `<operation> failed` (fail.sh). */
export function hookOps(facts: LabFacts, serverId: string): string[] {
  const file = path.join(facts.state_dir, "hosts", serverId, "root/var/log/nfv-hooks.log");
  if (!existsSync(file)) return [];
  return readFileSync(file, "utf8")
    .trim()
    .split("\n")
    .map((l) => {
      // record.sh: "<time> <operation> <addresses>"; fail.sh: "<time> <operation> failed".
      const [, op, rest] = l.split(" ");
      return rest === "failed" ? `${op} failed` : op;
    });
}
