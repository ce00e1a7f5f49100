/** SOL001 NSD type names the NS reader recognises (derived types are recognised too). */
export const NS_T = {
  NS: "tosca.nodes.nfv.NS",
  VNF: "tosca.nodes.nfv.VNF",
  SAP: "tosca.nodes.nfv.Sap",
  NS_VIRTUAL_LINK: "tosca.nodes.nfv.NsVirtualLink",
  NS_INSTANTIATION_LEVELS: "tosca.policies.nfv.NsInstantiationLevels",
  VNF_TO_LEVEL_MAPPING: "tosca.policies.nfv.VnfToLevelMapping",
} as const;
