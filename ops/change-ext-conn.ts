/**
 * What `nfv change-ext-conn` will do, decided before anything runs (pure apart from the request
 * file it is given as text): the change request checked against the VNF (its CPs, links and
 * addresses through the VM plan), the config values to write, and a summary.
 */
import { planVmVnf } from "../components/vnf/plan";
import { DiagnosticError } from "../translators/diagnostics";
import { applyExtConnChange, readChangeExtConnRequest } from "../translators/tacker/instantiate-request";
import type { PreparedVnf } from "../stacks/vnfs";
import type { DeployedVnf, Operation } from "./operations";

export interface ChangeExtConnArgs {
  vnf?: string;
  /** The ChangeExtVnfConnectivityRequest file: absolute path and text. */
  requestPath: string;
  requestText: string;
}

interface DeployedVnfc {
  ports: Record<string, { ips: string[] }>;
}

const fail = (code: string, message: string): never => {
  throw new DiagnosticError("cannot plan the change of external connectivity", [{ severity: "error", code, message }]);
};

export function planChangeExtConnOperation(prepared: PreparedVnf[], deployed: Record<string, DeployedVnf>, args: ChangeExtConnArgs): Operation {
  const vms = prepared.filter((p) => p.component === "vm-vnf");
  const p =
    args.vnf !== undefined
      ? (prepared.find((x) => x.entry.name === args.vnf) ??
        fail("OP_UNKNOWN_VNF", `VNF '${args.vnf}' is not in the stack (VNFs: ${prepared.map((x) => x.entry.name).join(", ") || "none"})`))
      : vms.length === 1
        ? vms[0]
        : fail(
            "OP_WHICH_VNF",
            vms.length === 0 ? "the stack has no VM-based VNF" : `several VM-based VNFs (${vms.map((x) => x.entry.name).join(", ")}); pass --vnf`,
          );
  if (p.component !== "vm-vnf") fail("OP_UNSUPPORTED", `VNF '${p.entry.name}' is a ${p.component}: change-ext-conn applies to VM-based VNFs`);
  const read = readChangeExtConnRequest(args.requestText, args.requestPath);
  const errors = read.diagnostics.filter((d) => d.severity === "error");
  if (errors.length > 0) throw new DiagnosticError(`invalid ChangeExtVnfConnectivityRequest ${args.requestPath}`, errors);
  const change = read.request!;
  // The changed request must still make a valid VNF: CPs of the flavour, addresses in their subnets, …
  const merged = applyExtConnChange(p.request!, change);
  const plan = planVmVnf(p.model!.flavours, merged, { scaleLevels: p.entry.scaleLevels });
  const name = p.entry.name;
  const vnfcs = (deployed[name]?.vnfcs ?? {}) as Record<string, DeployedVnfc>;
  if (Object.keys(vnfcs).length === 0) fail("OP_NOT_DEPLOYED", `VNF '${name}' has no VNFC in the stack's outputs: run up first`);
  const sshCp = p.entry.ssh?.cpId;
  const previous: Record<string, string> = {};
  for (const [id, v] of Object.entries(vnfcs)) {
    const ip = sshCp ? v.ports[sshCp]?.ips[0] : undefined;
    if (ip) previous[id] = ip;
  }
  const generation = (p.entry.extConnChange?.generation ?? 0) + 1;
  const key = (...path: string[]) => `pulumi-nfv:vnfs.${name}.change_ext_conn.${path.join(".")}`;
  const moved = new Set(change.extVirtualLinks.flatMap((l) => l.extCps.map((c) => c.cpdId)));
  const network = (linkId: string) => plan.networks.find((n) => n.id === linkId)?.resourceId ?? linkId;
  const summary = plan.vnfcs.flatMap((v) =>
    v.ports
      .filter((port) => moved.has(port.cpId))
      .map(
        (port) =>
          `port ${v.id}/${port.cpId}: link ${port.networkId} (network ${network(port.networkId)})${port.fixedAddresses.length > 0 ? `, fixed ${port.fixedAddresses.join(", ")}` : ""}`,
      ),
  );
  const hooks = p.entry.hooks ?? {};
  for (const op of ["change_external_connectivity_start", "change_external_connectivity_end"] as const) {
    if (hooks[op]) summary.push(`${op} on ${Object.keys(previous).sort().join(", ")}${op.endsWith("start") ? " (at their current addresses)" : ""}`);
  }
  return {
    vnf: name,
    configChanges: [
      { key: key(`requests[${generation - 1}]`), value: args.requestPath },
      ...Object.entries(previous).map(([id, ip]) => ({ key: key("previous_addresses", id), value: ip })),
    ],
    replace: [],
    podDeletions: [],
    summary,
  };
}
