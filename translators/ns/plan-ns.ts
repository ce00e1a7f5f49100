/**
 * An NS flavour planned against its constituents: for each VNF of the NSD, the VNF package the
 * stack config gives for it and the kind of VIM it goes on. The plan says, in deployment order,
 * which component deploys each constituent, which of its external CPs joins which NS virtual
 * link, and which links to create. Every mismatch between NSD, packages and VIMs is an error at
 * the NSD's VNF node (or requirement) it concerns; with one, nothing is planned.
 */
import type { Diagnostic, SourceLocation } from "../diagnostics";
import type { ComponentKind } from "../graph/types";
import type { VnfModel } from "../tosca/model";
import type { NsFlavour, NsModel, NsVirtualLink, NsVnf } from "./model";

export type VimKind = "openstack" | "kubernetes";

/** What the stack config gives for one VNF of the NSD. */
export interface Constituent {
  /** The constituent's VNF package, translated. */
  model: VnfModel;
  /** The component its flavour is deployed by (the root of its component graph). */
  component: ComponentKind;
  /** The kind of the VIM the stack config puts it on. */
  vimKind: VimKind;
}

export interface NsPlan {
  flavourId: string;
  /** The NS instantiation level the constituents are counted at; absent when the flavour has none. */
  levelId?: string;
  /** The NS virtual links a deployed constituent joins: each becomes a network. */
  virtualLinks: NsVirtualLink[];
  /** Constituents to deploy, in deployment order (0 instances at the level: left out). */
  vnfs: PlannedConstituent[];
}

export interface PlannedConstituent {
  id: string;
  descriptorId: string;
  flavourId: string;
  instantiationLevel?: string;
  component: ComponentKind;
  vimKind: VimKind;
  /** Deployed constituents this one waits for. */
  dependsOn: string[];
  /** Each external CP of the VNFD that joins an NS virtual link. */
  extLinks: { virtualLinkId: string; requirement: string; cpId: string }[];
}

/** The VIM kind each component needs. */
const VIM_OF: Record<ComponentKind, VimKind> = {
  "vm-vnf": "openstack",
  "kubernetes-cluster": "openstack",
  "private-registry": "openstack",
  "container-vnf": "kubernetes",
};

/** The kind of VIM a component deploys on. */
export const vimKindOf = (component: ComponentKind): VimKind => VIM_OF[component];

const VIM_NAME: Record<VimKind, string> = { openstack: "an OpenStack", kubernetes: "a Kubernetes" };

export function planNetworkService(
  ns: NsModel,
  constituents: Readonly<Record<string, Constituent>>,
  options: { flavourId?: string; levelId?: string } = {},
): { plan?: NsPlan; diagnostics: Diagnostic[] } {
  const diagnostics: Diagnostic[] = [];
  const flavourId = options.flavourId ?? ns.flavours[0]?.id;
  const flavour = ns.flavours.find((f) => f.id === flavourId);
  if (!flavour) {
    diagnostics.push({
      severity: "error",
      code: "NS_UNKNOWN_FLAVOUR",
      message: `the NSD has no flavour \`${flavourId}\` (it has ${ns.flavours.map((f) => f.id).join(", ") || "none"})`,
    });
    return { diagnostics };
  }
  const levelId = options.levelId ?? flavour.defaultLevelId;
  const level = flavour.levels.find((l) => l.id === levelId);
  if (levelId !== undefined && !level) {
    diagnostics.push({
      severity: "error",
      code: "NS_UNKNOWN_LEVEL",
      message: `NS flavour \`${flavour.id}\` has no instantiation level \`${levelId}\` (it has ${flavour.levels.map((l) => l.id).join(", ") || "none"})`,
    });
    return { diagnostics };
  }
  const error = (at: SourceLocation, code: string, message: string) => diagnostics.push({ severity: "error", code, message, ...at });
  for (const id of Object.keys(constituents)) {
    if (!flavour.vnfs.some((v) => v.id === id))
      error(
        flavour.at,
        "NS_UNKNOWN_VNF",
        `a package is given for \`${id}\`, which is not a VNF of NS flavour \`${flavour.id}\` (its VNFs: ${flavour.vnfs.map((v) => v.id).join(", ")})`,
      );
  }
  for (const vnf of flavour.vnfs) {
    // Several instances of one VNFD in one NS are several VNF instances, each with its own config; not planned yet.
    if ((level?.vnfInstances[vnf.id] ?? 1) > 1)
      error(
        vnf.at,
        "NS_INSTANCES_UNSUPPORTED",
        `level \`${levelId}\` gives ${level?.vnfInstances[vnf.id]} instances of \`${vnf.id}\`; pulumi-nfv deploys at most one instance of each VNF of an NS`,
      );
  }
  const deployed = flavour.vnfs.filter((v) => (level?.vnfInstances[v.id] ?? 1) > 0);
  const vnfs = deployed.map((vnf) => planConstituent(vnf, constituents[vnf.id], new Set(deployed.map((v) => v.id)), error)).filter((p) => p !== undefined);
  if (diagnostics.length > 0) return { diagnostics };
  const plan: NsPlan = { flavourId: flavour.id, virtualLinks: joinedLinks(flavour, vnfs), vnfs };
  if (levelId !== undefined) plan.levelId = levelId;
  return { plan, diagnostics };
}

function planConstituent(
  vnf: NsVnf,
  given: Constituent | undefined,
  deployed: ReadonlySet<string>,
  error: (at: SourceLocation, code: string, message: string) => void,
): PlannedConstituent | undefined {
  if (!given) {
    error(vnf.at, "NS_VNF_PACKAGE_MISSING", `no VNF package is given for \`${vnf.id}\` (${vnf.nodeType ?? `descriptor ${vnf.descriptorId}`})`);
    return undefined;
  }
  const { model } = given;
  if (vnf.nodeType !== undefined && model.vnf.nodeType !== vnf.nodeType) {
    error(
      vnf.at,
      "NS_UNKNOWN_VNF_DESCRIPTOR",
      `\`${vnf.id}\` has type ${vnf.nodeType}, but the package given for it substitutes ${model.vnf.nodeType} (its substitution_mappings.node_type)`,
    );
    return undefined;
  }
  if (vnf.nodeType === undefined && model.vnf.descriptorId !== vnf.descriptorId) {
    error(
      vnf.at,
      "NS_UNKNOWN_VNF_DESCRIPTOR",
      `\`${vnf.id}\` is VNFD ${vnf.descriptorId}, but the package given for it is VNFD ${model.vnf.descriptorId || "(none)"} (${model.vnf.productName || model.vnf.nodeType})`,
    );
    return undefined;
  }
  const flavour = model.flavours.find((f) => f.id === vnf.flavourId);
  if (!flavour) {
    error(
      vnf.at,
      "NS_UNKNOWN_VNF_FLAVOUR",
      `VNFD ${vnf.descriptorId} has no flavour \`${vnf.flavourId}\` (it has ${model.flavours.map((f) => f.id).join(", ")})`,
    );
    return undefined;
  }
  const needs = VIM_OF[given.component];
  if (needs !== given.vimKind) {
    error(
      vnf.at,
      "NS_VIM_KIND_MISMATCH",
      `\`${vnf.id}\` is deployed by ${given.component}, which needs ${VIM_NAME[needs]} VIM; the stack config puts it on ${VIM_NAME[given.vimKind]} VIM`,
    );
    return undefined;
  }
  const extLinks: PlannedConstituent["extLinks"] = [];
  for (const link of vnf.links) {
    const ext = flavour.externalLinks.find((e) => e.name === link.requirement);
    if (ext) extLinks.push({ virtualLinkId: link.virtualLinkId, requirement: link.requirement, cpId: ext.cpId });
    else
      error(
        link.at,
        "NS_UNKNOWN_REQUIREMENT",
        `VNFD ${vnf.nodeType ?? vnf.descriptorId} flavour \`${vnf.flavourId}\` exposes no requirement \`${link.requirement}\` (its substitution_mappings requirements: ${flavour.externalLinks.map((e) => e.name).join(", ") || "none"})`,
      );
  }
  const planned: PlannedConstituent = {
    id: vnf.id,
    descriptorId: vnf.descriptorId,
    flavourId: vnf.flavourId,
    component: given.component,
    vimKind: given.vimKind,
    dependsOn: vnf.dependsOn.filter((d) => deployed.has(d)),
    extLinks,
  };
  if (vnf.instantiationLevel !== undefined) planned.instantiationLevel = vnf.instantiationLevel;
  return planned;
}

function joinedLinks(flavour: NsFlavour, vnfs: PlannedConstituent[]): NsVirtualLink[] {
  const used = new Set(vnfs.flatMap((v) => v.extLinks.map((l) => l.virtualLinkId)));
  return flavour.virtualLinks.filter((vl) => used.has(vl.id));
}
