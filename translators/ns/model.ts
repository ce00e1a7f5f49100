/**
 * What the translator reads from an ETSI SOL001 NSD (inside a SOL007 NS package): the NS, its
 * flavours, and per flavour the constituent VNFs, the NS virtual links that join them, the SAPs,
 * the dependencies and the instantiation levels. Plain data, like `VnfModel`; each VNF keeps the
 * place of its node template, where a plan against a stack config reports what does not fit.
 */
import type { SourceLocation } from "../diagnostics";
import type { VirtualLink } from "../tosca/model";

export interface NsModel {
  ns: NsInfo;
  /** One entry per NS deployment flavour, in file order. */
  flavours: NsFlavour[];
}

/** Properties of the NS node (`tosca.nodes.nfv.NS` or derived). */
export interface NsInfo {
  descriptorId: string;
  designer: string;
  version: string;
  name: string;
  invariantId: string;
  /** The NS node type, e.g. `company.nodes.MyNs`. */
  nodeType: string;
}

export interface NsFlavour {
  /** `flavour_id` of the substitution mappings (or of the NS node). */
  id: string;
  /** Package-relative file of the flavour's topology. */
  file: string;
  /** The flavour's topology, for problems a plan finds. */
  at: SourceLocation;
  /** Constituent VNFs in deployment order: every VNF after the VNFs it depends on. */
  vnfs: NsVnf[];
  virtualLinks: NsVirtualLink[];
  saps: Sap[];
  levels: NsLevel[];
  /** `NsInstantiationLevels.default_level`; absent when the flavour declares no levels. */
  defaultLevelId?: string;
}

/** A node template of a type derived from `tosca.nodes.nfv.VNF`: one constituent VNF. */
export interface NsVnf {
  /** The node template's name: how the stack config and `nfv` commands name the constituent. */
  id: string;
  /** The VNFD the constituent is instantiated from (`descriptor_id`; empty in a legacy NSD). */
  descriptorId: string;
  /** A legacy NSD's VNF node type: the package given for it must substitute it (`substitution_mappings.node_type`). */
  nodeType?: string;
  /** The VNF deployment flavour (`flavour_id`). */
  flavourId: string;
  /** `vnf_profile.instantiation_level`: the VNF's level; absent for the VNFD's default. */
  instantiationLevel?: string;
  minInstances: number;
  maxInstances: number;
  /** The VNF's requirements that name an NS virtual link: the VNF's external connections. */
  links: NsVnfLink[];
  /** Constituents this one is deployed after (`dependency` requirements). */
  dependsOn: string[];
  /** The node template, for problems a plan finds. */
  at: SourceLocation;
}

export interface NsVnfLink {
  /** The requirement name: the VNFD's `substitution_mappings` requirement it is mapped to. */
  requirement: string;
  virtualLinkId: string;
  at: SourceLocation;
}

/**
 * `tosca.nodes.nfv.NsVirtualLink`: a network between constituents, read as a VNF's virtual link
 * is (NS links have no per-level bitrates). `networkName`: a legacy NSD's VL, an existing network.
 */
export type NsVirtualLink = Omit<VirtualLink, "bitrateByLevel"> & { at: SourceLocation };

/** `tosca.nodes.nfv.Sap`: where the NS is reached from outside. */
export interface Sap {
  id: string;
  layerProtocols: string[];
  /** The NS virtual link the SAP exposes (`internal_virtual_link`), when it names one. */
  virtualLinkId?: string;
}

export interface NsLevel {
  id: string;
  description: string;
  /** Instances of each constituent at this level (`VnfToLevelMapping`). */
  vnfInstances: Record<string, number>;
}
