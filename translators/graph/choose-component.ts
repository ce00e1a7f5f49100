/**
 * Which component realises a flavour. Tacker tells VNF kinds apart by the Mgmt Driver its LCM
 * hooks run, which is named by the artifact file; we follow that, then VDU kinds.
 */
import type { Flavour } from "../tosca/model";
import type { ComponentKind } from "./types";

export function chooseComponent(flavour: Flavour): { component: ComponentKind; reason: string } {
  const files = flavour.lcmHooks.map((h) => h.file.split("/").pop()!.toLowerCase());
  const k8s = files.find((f) => f.includes("kubernetes"));
  if (k8s) return { component: "kubernetes-cluster", reason: `LCM hooks run the Kubernetes Mgmt Driver (${k8s})` };
  const registry = files.find((f) => f.includes("private_registry") || f.includes("private-registry"));
  if (registry) return { component: "private-registry", reason: `LCM hooks run the private-registry Mgmt Driver (${registry})` };
  if (flavour.vdus.length > 0 && flavour.vdus.every((v) => v.kind === "container")) {
    return { component: "container-vnf", reason: "every VDU is a container workload" };
  }
  return { component: "vm-vnf", reason: flavour.vdus.some((v) => v.kind === "container") ? "mixed VDU kinds: compute VDUs need VMs" : "every VDU is a VM" };
}
