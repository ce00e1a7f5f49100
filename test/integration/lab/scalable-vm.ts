/**
 * Our scalable VM VNF (test/fixtures/packages/scalable-vm) on the lab OpenStack, as the rollback,
 * change-vnfpkg and serve tests use it: the package with ETSI's SOL001 type files added (they are
 * not in this repository), its instantiate request on the lab network, and the hook log that
 * record.sh and fail.sh write on a VNFC's VM host.
 */
import { cpSync, existsSync, readFileSync, writeFileSync } from "node:fs";
import * as path from "node:path";
import { ROOT } from "../harness";
import { labResources, type LabFacts } from "./openstack";

/** The package copied to `work/dir`, its VNFD edited by `edit`. */
export function scalableVmPackage(work: string, dir = "scalable-vm", edit: (vnfd: string) => string = (s) => s): string {
  const out = path.join(work, dir);
  cpSync(path.join(ROOT, "test/fixtures/packages/scalable-vm"), out, { recursive: true });
  for (const f of ["etsi_nfv_sol001_common_types.yaml", "etsi_nfv_sol001_vnfd_types.yaml"])
    cpSync(path.join(ROOT, "../shared/vnf-packages/etsi-sol001-2.6.1", f), path.join(out, "Definitions", f));
  const vnfd = path.join(out, "Definitions/scalable_vm.yaml");
  writeFileSync(vnfd, edit(readFileSync(vnfd, "utf8")));
  return out;
}

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
