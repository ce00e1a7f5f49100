/**
 * What `nfv change-vnfpkg` will do (Tacker's Change Current VNF Package, RollingUpdate), decided
 * before anything runs: the new package and the optional ChangeCurrentVnfPkgRequest checked
 * against the VNF, then the steps, each a config change and one `up`.
 *
 * - A CNF: one step. `package` names the new package; the request's additionalParams (its
 *   `lcm-kubernetes-def-files`) apply over the instantiate request's; `up` updates each workload in
 *   place and Kubernetes rolls its pods.
 * - A VM VNF: VNFC by VNFC (`batch_size` at a time), in the order of the request's `vdu_params`.
 *   Until the last step the VNFCs not reached yet are `change_vnfpkg.pending` and keep the previous
 *   package's image and flavor; each VNFC reached gets its `package_generations` raised, which
 *   runs its `change_current_package_start` hook before its server changes and `_end` after. The
 *   openstack provider rebuilds a server on a new image and resizes it to a new flavor, in place
 *   (the same server id, ports and volumes), as Heat does for Tacker.
 *
 * Tacker's limits stay: the VDUs and the number of VNFCs do not change, nor do links. A flavor
 * sized from `virtual_compute` is one per VDU, so resizing it would resize every server of the
 * VDU at once: refused.
 */
import { planVmVnf, type PlannedVdu, type VmVnfPlan } from "../components/vnf/plan";
import { DiagnosticError, type Diagnostic, type SourceLocation } from "../translators/diagnostics";
import type { LoadedVnfPackage } from "../translators/load-vnf-package";
import { planCnf } from "../translators/kubernetes/plan";
import { manifestReader } from "../translators/kubernetes/manifests";
import {
  applyPackageChange,
  readChangeVnfpkgRequest,
  type ChangeCurrentVnfPkgRequest,
  type InstantiateVnfRequest,
} from "../translators/tacker/instantiate-request";
import type { Flavour } from "../translators/tosca/model";
import type { YamlPath } from "../translators/yaml/located-yaml";
import type { PreparedVnf } from "../stacks/vnfs";
import type { ConfigChange, Operation } from "./operations";

export interface ChangeVnfpkgArgs {
  vnf?: string;
  /** The new package (absolute path) and what `loadVnfPackage` read of it. */
  packagePath: string;
  loaded: LoadedVnfPackage;
  /** The ChangeCurrentVnfPkgRequest file: absolute path and text; without it, every VDU that changes, one VNFC at a time. */
  request?: { path: string; text: string };
}

export interface PackageChangePlan {
  vnf: string;
  /** Run in order, one `up` each. */
  steps: Operation[];
  /** VM VNFs: the Glance images the changed VDUs boot from, by VDU id (checked on the VIM before anything changes). */
  images: Record<string, string>;
}

const fail = (code: string, message: string, at: SourceLocation = {}): never => {
  throw new DiagnosticError("cannot plan the change of package", [{ severity: "error", code, message, ...at }]);
};

const key = (vnf: string, ...path: string[]) => `pulumi-nfv:vnfs.${vnf}.${path.join(".")}`;

export function planChangeVnfpkgOperation(prepared: PreparedVnf[], args: ChangeVnfpkgArgs): PackageChangePlan {
  const fits = prepared.filter((x) => x.component === "vm-vnf" || x.component === "container-vnf");
  const p =
    args.vnf !== undefined
      ? (prepared.find((x) => x.entry.name === args.vnf) ??
        fail("OP_UNKNOWN_VNF", `VNF '${args.vnf}' is not in the stack (VNFs: ${prepared.map((x) => x.entry.name).join(", ") || "none"})`))
      : fits.length === 1
        ? fits[0]
        : fail(
            "OP_WHICH_VNF",
            fits.length === 0 ? "the stack has no VM-based VNF or CNF" : `several VNFs (${fits.map((x) => x.entry.name).join(", ")}); pass --vnf`,
          );
  if (p.component !== "vm-vnf" && p.component !== "container-vnf")
    fail("OP_UNSUPPORTED", `VNF '${p.entry.name}' is a ${p.component}: change-vnfpkg applies to VM-based VNFs and CNFs`);
  const name = p.entry.name;
  const under = p.entry.packageChange;
  if (under?.previousPackagePath)
    fail(
      "CHANGE_VNFPKG_UNDER_WAY",
      `VNF '${name}' is in the middle of a change of package (still on ${under.previousPackagePath}: ${under.pending.join(", ")}): \`nfv rollback\` it first`,
    );
  const errors = args.loaded.diagnostics.filter((d) => d.severity === "error");
  if (errors.length > 0 || !args.loaded.model) throw new DiagnosticError(`invalid VNF package ${args.packagePath}`, errors);
  const model = args.loaded.model;
  const current = p.model!;

  let change: ChangeCurrentVnfPkgRequest | undefined;
  let locate: (path: YamlPath) => SourceLocation = () => ({});
  if (args.request) {
    const read = readChangeVnfpkgRequest(args.request.text, args.request.path);
    const bad = read.diagnostics.filter((d) => d.severity === "error");
    if (bad.length > 0) throw new DiagnosticError(`invalid ChangeCurrentVnfPkgRequest ${args.request.path}`, bad);
    change = read.request!;
    locate = read.locate;
    if (change.vnfdId !== model.vnf.descriptorId)
      fail("CHANGE_VNFPKG_VNFD_MISMATCH", `vnfdId ${change.vnfdId} is not the VNFD of ${args.packagePath} (${model.vnf.descriptorId})`, locate(["vnfdId"]));
  }
  if (model.vnf.descriptorId === current.vnf.descriptorId)
    fail("CHANGE_VNFPKG_SAME_VNFD", `${args.packagePath} has the VNFD the VNF runs (${current.vnf.descriptorId}): a change of package needs a new vnfdId`);
  const request = change ? applyPackageChange(p.request!, change) : p.request!;
  if (!model.flavours.some((f) => f.id === request.flavourId))
    fail(
      "CHANGE_VNFPKG_NO_FLAVOUR",
      `${args.packagePath} has no flavour '${request.flavourId}' (the VNF's); it has ${model.flavours.map((f) => f.id).join(", ")}`,
    );

  const first: ConfigChange[] = [
    { key: key(name, "package"), value: args.packagePath },
    ...(change ? [{ key: key(name, "change_vnfpkg", `requests[${under?.requestPaths.length ?? 0}]`), value: args.request!.path }] : []),
  ];
  const to = `${model.vnf.productName} ${model.vnf.softwareVersion} (VNFD ${model.vnf.descriptorId})`;
  if (p.component === "container-vnf") {
    const plan = planCnf({
      model,
      flavourId: request.flavourId,
      instantiationLevelId: request.instantiationLevelId,
      additionalParams: request.additionalParams,
      vnfInstanceId: p.entry.vnfInstanceId,
      manifests: manifestReader(args.loaded.pkg.source),
      charts: args.loaded.pkg.source,
      scaleLevels: p.entry.scaleLevels,
    });
    const bad = plan.diagnostics.filter((d: Diagnostic) => d.severity === "error");
    if (bad.length > 0) throw new DiagnosticError(`the CNF cannot be planned from ${args.packagePath}`, bad);
    return {
      vnf: name,
      steps: [
        {
          vnf: name,
          configChanges: first,
          replace: [],
          podDeletions: [],
          summary: [`to ${to}: each workload updated in place, its pods rolled by Kubernetes`],
        },
      ],
      images: {},
    };
  }
  return { vnf: name, ...vmSteps(p, request, model.flavours, change, locate, first, to) };
}

/** The VM VNF's steps: which VNFCs change, checked, in batches. */
function vmSteps(
  p: PreparedVnf,
  request: InstantiateVnfRequest,
  flavours: Flavour[],
  change: ChangeCurrentVnfPkgRequest | undefined,
  locate: (path: YamlPath) => SourceLocation,
  first: ConfigChange[],
  to: string,
): { steps: Operation[]; images: Record<string, string> } {
  const name = p.entry.name;
  const before = planVmVnf(p.model!.flavours, p.request!, { scaleLevels: p.entry.scaleLevels });
  const after = planVmVnf(flavours, request, { scaleLevels: p.entry.scaleLevels });
  const ids = (plan: VmVnfPlan) => plan.vnfcs.map((v) => v.id).join(", ");
  if (ids(before) !== ids(after))
    fail(
      "CHANGE_VNFPKG_VNFCS_DIFFER",
      `the new package gives VNFCs ${ids(after) || "none"} where the VNF has ${ids(before)}: a change of package keeps the VDUs and their VNFCs (as Tacker)`,
    );
  const old = new Map(before.vdus.map((v) => [v.vduId, v]));
  const changed = after.vdus.filter((v) => differs(old.get(v.vduId)!, v)).map((v) => v.vduId);
  for (const v of after.vdus) {
    const o = old.get(v.vduId)!;
    if (!o.flavorName && !v.flavorName && (o.memoryMib !== v.memoryMib || o.numCpus !== v.numCpus || o.rootDiskGib !== v.rootDiskGib))
      fail(
        "CHANGE_VNFPKG_FLAVOR_RESIZE",
        `VDU ${v.vduId}'s flavor is sized from virtual_compute and the new package resizes it: it is one per VDU, so every server of the VDU would be resized at once; name a Nova flavor (requested_flavor_name) instead`,
      );
    const volumeImages = (x: VmVnfPlan) =>
      x.vnfcs
        .filter((c) => c.vduId === v.vduId)
        .flatMap((c) => c.volumes.map((vol) => `${vol.storageId}=${vol.imageName ?? ""}`))
        .join(",");
    if (volumeImages(before) !== volumeImages(after))
      fail("CHANGE_VNFPKG_UNSUPPORTED", `VDU ${v.vduId}'s volumes change (storage or image): not supported, only the server's image and flavor`);
  }
  const listed = change?.additionalParams.vdu_params;
  listed?.forEach((d, i) => {
    if (!old.has(d.vdu_id))
      fail(
        "CHANGE_VNFPKG_UNKNOWN_VDU",
        `vdu_id ${d.vdu_id} is not a VDU of the VNF (${[...old.keys()].join(", ")})`,
        locate(["additionalParams", "vdu_params", i, "vdu_id"]),
      );
  });
  const order = listed ? listed.map((d) => d.vdu_id) : changed;
  const unlisted = changed.filter((id) => !order.includes(id));
  if (unlisted.length > 0)
    fail(
      "CHANGE_VNFPKG_VDU_NOT_LISTED",
      `VDU ${unlisted.join(", ")} gets a new image or flavor but is not in vdu_params: every changed VDU is updated`,
      locate(["additionalParams", "vdu_params"]),
    );
  const images = Object.fromEntries(after.vdus.filter((v) => order.includes(v.vduId) && v.imageName).map((v) => [v.vduId, v.imageName!]));
  const vnfcs = order.flatMap((vdu) => after.vnfcs.filter((v) => v.vduId === vdu).map((v) => v.id));
  const batch = change?.additionalParams.batch_size ?? 1;
  const batches: string[][] = [];
  for (let i = 0; i < vnfcs.length; i += batch) batches.push(vnfcs.slice(i, i + batch));
  const generation = (id: string) => (p.entry.packageGenerations?.[id] ?? 0) + 1;
  const describe = (id: string) => {
    const vdu = after.vnfcs.find((v) => v.id === id)!.vduId;
    const o = old.get(vdu)!;
    const n = after.vdus.find((v) => v.vduId === vdu)!;
    const parts = [
      ...(o.imageName !== n.imageName ? [`image ${o.imageName} → ${n.imageName}`] : []),
      ...(o.flavorName !== n.flavorName ? [`flavor ${o.flavorName ?? "sized"} → ${n.flavorName ?? "sized"}`] : []),
    ];
    return `VNFC ${id}: ${parts.length > 0 ? `${parts.join(", ")}; the server rebuilt or resized in place` : "same image and flavor; hooks only"}`;
  };
  if (batches.length === 0)
    return { steps: [{ vnf: name, configChanges: first, replace: [], podDeletions: [], summary: [`to ${to}: no VDU gets a new image or flavor`] }], images };
  const steps = batches.map((ids, i): Operation => {
    const last = i === batches.length - 1;
    const pending = batches.slice(i + 1).flat();
    const configChanges: ConfigChange[] = [
      ...(i === 0 ? first : []),
      ...ids.map((id) => ({ key: key(name, "package_generations", id), value: String(generation(id)) })),
      // A list is written item by item: the old one goes first.
      { key: key(name, "change_vnfpkg", "pending"), remove: true },
      ...(last
        ? [{ key: key(name, "change_vnfpkg", "previous_package"), remove: true as const }]
        : [
            { key: key(name, "change_vnfpkg", "previous_package"), value: p.entry.packagePath! },
            ...pending.map((id, k) => ({ key: key(name, "change_vnfpkg", `pending[${k}]`), value: id })),
          ]),
    ];
    return {
      vnf: name,
      configChanges,
      replace: [],
      podDeletions: [],
      summary: [`step ${i + 1} of ${batches.length}${i === 0 ? ` (to ${to})` : ""}:`, ...ids.map(describe)],
    };
  });
  return { steps, images };
}

function differs(a: PlannedVdu, b: PlannedVdu): boolean {
  return (
    a.imageName !== b.imageName || a.flavorName !== b.flavorName || a.memoryMib !== b.memoryMib || a.numCpus !== b.numCpus || a.rootDiskGib !== b.rootDiskGib
  );
}
