/**
 * Which component realises a flavour. Tacker tells VNF kinds apart by the Mgmt Driver its LCM
 * hooks run, which is named by the artifact file; we follow that, then VDU kinds.
 */
import { containerImageOf } from "../kubernetes/container-vdu";
import type { Flavour, Vdu } from "../tosca/model";
import type { ComponentKind } from "./types";

/**
 * A VDU that runs as a container workload: one without `virtual_compute` (realised by a manifest
 * or its image), or a `Vdu.Compute` whose `sw_image_data` is a container image, whose
 * `virtual_compute` then sizes the container's resources instead of a VM.
 */
function isContainerWorkload(vdu: Vdu): boolean {
  return vdu.kind === "container" || containerImageOf(vdu) !== undefined;
}

export function chooseComponent(flavour: Flavour): { component: ComponentKind; reason: string } {
  const files = flavour.lcmHooks.map((h) => h.file.split("/").pop()!.toLowerCase());
  const k8s = files.find((f) => f.includes("kubernetes"));
  if (k8s) return { component: "kubernetes-cluster", reason: `LCM hooks run the Kubernetes Mgmt Driver (${k8s})` };
  const registry = files.find((f) => f.includes("private_registry") || f.includes("private-registry"));
  if (registry) return { component: "private-registry", reason: `LCM hooks run the private-registry Mgmt Driver (${registry})` };
  if (flavour.vdus.length > 0 && flavour.vdus.every(isContainerWorkload)) {
    return { component: "container-vnf", reason: "every VDU is a container workload" };
  }
  return { component: "vm-vnf", reason: flavour.vdus.some(isContainerWorkload) ? "mixed VDU kinds: compute VDUs need VMs" : "every VDU is a VM" };
}
