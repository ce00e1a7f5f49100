/**
 * An NS plan as `nfv translate` shows it: a text summary and a Mermaid picture (constituents in
 * deployment order, each external CP to its NS virtual link, dependencies dashed).
 */
import type { NsModel } from "./model";
import type { NsPlan } from "./plan-ns";

/** The plan in deployment order: each constituent, its component and VIM, its links; then the links. */
export function renderNsText(ns: NsModel, plan: NsPlan): string {
  const lines = [
    `NS ${ns.ns.name} (${ns.ns.descriptorId}), flavour ${plan.flavourId}${plan.levelId ? `, level ${plan.levelId}` : ""}`,
    "constituents, in deployment order:",
  ];
  plan.vnfs.forEach((v, i) => {
    const after = v.dependsOn.length > 0 ? `, after ${v.dependsOn.join(", ")}` : "";
    lines.push(
      `  ${i + 1}. ${v.id}: ${v.component} on ${VIM[v.vimKind]} VIM, VNF flavour ${v.flavourId}${v.instantiationLevel ? ` level ${v.instantiationLevel}` : ""}${after}`,
    );
    for (const l of v.extLinks) lines.push(`       CP ${l.cpId} (${l.requirement}) → ${l.virtualLinkId}`);
  });
  lines.push("NS virtual links:");
  const network = (l: NsPlan["virtualLinks"][number]) =>
    l.networkName
      ? `the existing network ${l.networkName}`
      : l.cidr
        ? `${l.ipVersion ?? "ipv4"} ${l.cidr}${l.dhcpEnabled === false ? ", no DHCP" : ""}`
        : "no L3 data (an existing network must be given)";
  for (const l of plan.virtualLinks) lines.push(`  ${l.id}: ${network(l)}`);
  return `${lines.join("\n")}\n`;
}

const VIM = { openstack: "an OpenStack", kubernetes: "a Kubernetes" } as const;
const id = (s: string) => s.replace(/[^A-Za-z0-9_]/g, "_");

export function renderNsMermaid(plan: NsPlan): string {
  const lines = ["flowchart LR"];
  for (const v of plan.vnfs) lines.push(`  vnf_${id(v.id)}["${v.id}<br/>${v.component} · ${v.vimKind}"]`);
  for (const l of plan.virtualLinks) lines.push(`  vl_${id(l.id)}(("${l.id}${l.cidr ? `<br/>${l.cidr}` : ""}"))`);
  for (const v of plan.vnfs) for (const l of v.extLinks) lines.push(`  vnf_${id(v.id)} -- ${l.cpId} --- vl_${id(l.virtualLinkId)}`);
  for (const v of plan.vnfs) for (const d of v.dependsOn) lines.push(`  vnf_${id(d)} -. before .-> vnf_${id(v.id)}`);
  return `${lines.join("\n")}\n`;
}
