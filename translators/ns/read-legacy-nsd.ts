/**
 * Tacker's legacy NSD (Ocata's `tosca_simple_profile_for_nfv_1_0_0`; doc/source/user/
 * nsd_usage_guide): `imports` names VNFDs onboarded before it (not files), each VNF node has the
 * `substitution_mappings.node_type` of one of them, and its requirements (`virtualLink1: VL1`)
 * give that VNFD's substitution requirements a `tosca.nodes.nfv.VL`, an existing network named by
 * `network_name`. Read into the model of a SOL001 NSD, as far as it maps: one flavour, `default`;
 * no levels and no dependencies (Tacker created the VNFs side by side); each VNF matched to its
 * package by node type instead of descriptor_id. VNFFGs are refused: no forwarding graph here.
 */
import { LEGACY_FLAVOUR_ID, LEGACY_TYPES, legacyNodes, legacyTopology } from "../tosca/legacy/containerized";
import type { ToscaFile } from "../tosca/phase2-load/load-documents";
import { isMap } from "../tosca/phase3-types/type-system";
import type { Problems } from "../tosca/problems";
import type { NsModel, NsVirtualLink, NsVnf } from "./model";

const TT = "topology_template";
/** Node types of a legacy VNFD: a file holding one is a VNFD, not an NSD. */
const VNFD_TYPES = new Set<unknown>([LEGACY_TYPES.VDU, LEGACY_TYPES.CP]);
const VNFFG = /^tosca\.(nodes\.nfv\.FP|groups\.nfv\.VNFFG)/;

/** True when a legacy-profile file is an NSD: it imports onboarded VNFDs and holds no VDU or CP. */
export function isLegacyNsd(f: ToscaFile): boolean {
  const topo = isMap(f.doc[TT]) ? f.doc[TT] : {};
  const nodes = isMap(topo.node_templates) ? Object.values(topo.node_templates) : [];
  return Array.isArray(f.doc.imports) && f.doc.imports.length > 0 && !nodes.some((n) => isMap(n) && VNFD_TYPES.has(n.type));
}

export function readLegacyNsd(f: ToscaFile, problems: Problems): NsModel | undefined {
  const topo = legacyTopology(f, problems);
  if (!topo) return undefined;
  const inputs = isMap(topo.inputs) ? topo.inputs : {};
  const nodes = legacyNodes(topo);
  const vlIds = new Set(nodes.filter((n) => n.node.type === LEGACY_TYPES.VL).map((n) => n.name));
  const vnfs: NsVnf[] = [];
  const virtualLinks: NsVirtualLink[] = [];
  for (const { name, path, node, props } of nodes) {
    if (typeof node.type !== "string") {
      problems.error("TEMPLATE_UNKNOWN_TYPE", `node template \`${name}\` needs a type: a VNFD's substitution node_type or ${LEGACY_TYPES.VL}`, f.file, path);
    } else if (VNFFG.test(node.type)) {
      problems.error("LEGACY_NSD_VNFFG", `\`${name}\` (${node.type}) is part of a VNFFG: pulumi-nfv deploys no forwarding graph`, f.file, [...path, "type"]);
    } else if (node.type === LEGACY_TYPES.VL) {
      // Tacker takes `get_input` values from the NS's param file; without one, the input's default.
      const raw = props.network_name;
      const input = isMap(raw) && typeof raw.get_input === "string" ? inputs[raw.get_input] : undefined;
      const network = isMap(raw) ? (isMap(input) ? input.default : undefined) : raw;
      if (typeof network !== "string" || network === "")
        problems.error(
          "LEGACY_NO_NETWORK",
          `VL \`${name}\` needs \`network_name\` (or a get_input with a default): the existing network it stands for`,
          f.file,
          [...path, "properties"],
        );
      else virtualLinks.push({ id: name, layerProtocols: ["ipv4"], networkName: network, at: problems.place(f.file, path) });
    } else {
      vnfs.push(readVnf(name, node, path, vlIds, f, problems));
    }
  }
  if (vnfs.length === 0) problems.error("NS_NO_VNF", "the NSD has no VNF node (a node whose type is an imported VNFD's substitution node_type)", f.file, [TT]);
  const metadata = isMap(f.doc.metadata) ? f.doc.metadata : {};
  const templateName = typeof metadata.template_name === "string" ? metadata.template_name : "";
  return {
    ns: { descriptorId: templateName, designer: "", version: "", name: templateName, invariantId: "", nodeType: "" },
    flavours: [{ id: LEGACY_FLAVOUR_ID, file: f.file, at: problems.place(f.file, [TT]), vnfs, virtualLinks, saps: [], levels: [] }],
  };
}

function readVnf(name: string, node: Record<string, unknown>, path: (string | number)[], vlIds: ReadonlySet<string>, f: ToscaFile, problems: Problems): NsVnf {
  const vnf: NsVnf = {
    id: name,
    descriptorId: "",
    nodeType: node.type as string,
    flavourId: LEGACY_FLAVOUR_ID,
    minInstances: 1,
    maxInstances: 1,
    links: [],
    dependsOn: [],
    at: problems.place(f.file, path),
  };
  const requirements = node.requirements ?? [];
  if (!Array.isArray(requirements)) {
    problems.error("LEGACY_BAD_REQUIREMENT", "`requirements` is a list of `name: VL`", f.file, [...path, "requirements"]);
    return vnf;
  }
  requirements.forEach((entry, i) => {
    for (const [requirement, v] of Object.entries(isMap(entry) ? entry : {})) {
      const at = [...path, "requirements", i, requirement];
      const target = typeof v === "string" ? v : isMap(v) && typeof v.node === "string" ? v.node : undefined;
      if (target === undefined) problems.error("LEGACY_BAD_REQUIREMENT", `requirement \`${requirement}\` names a VL of this NSD`, f.file, at);
      else if (!vlIds.has(target))
        problems.error(
          "NS_NOT_A_VIRTUAL_LINK",
          `requirement \`${requirement}\` of VNF \`${name}\` names \`${target}\`, which is not a VL of this NSD`,
          f.file,
          at,
        );
      else vnf.links.push({ requirement, virtualLinkId: target, at: problems.place(f.file, at) });
    }
  });
  return vnf;
}
