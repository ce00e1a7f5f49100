/**
 * Phase 5 for an NSD: finds the NS deployment flavours (topologies whose `substitution_mappings`
 * substitute an NS node type, or a single topology holding an NS node with a literal
 * `flavour_id`) and reads each: the constituent VNFs, the NS virtual links, the SAPs, the
 * dependencies (deployment order, cycles refused) and the instantiation levels.
 */
import type { SourceLocation } from "../diagnostics";
import type { VirtualLink } from "../tosca/model";
import { nodePath, policyPath, TT, type NodeTemplate, type Topology } from "../tosca/phase4-templates/topology";
import type { SemanticContext } from "../tosca/phase5-sol001/context";
import { int, obj, str, strings } from "../tosca/phase5-sol001/read";
import { readVirtualLink } from "../tosca/phase5-sol001/virtual-link";
import type { NsFlavour, NsInfo, NsLevel, NsModel, NsVirtualLink, NsVnf, Sap } from "./model";
import { NS_T } from "./nsd-types";

/** True when a topology of the package describes an NS (an NS node, or substitution of an NS type). */
export function describesNs(topologies: Topology[], ctx: SemanticContext): boolean {
  return topologies.some((t) => nsSubstitution(t, ctx) || nsNode(t, ctx) !== undefined);
}

export function buildNsModel(topologies: Topology[], entry: Topology | undefined, entryFile: string, ctx: SemanticContext): NsModel | undefined {
  let flavourTopos = topologies.filter((t) => nsSubstitution(t, ctx));
  if (flavourTopos.length === 0) flavourTopos = topologies.filter((t) => typeof nsNode(t, ctx)?.properties.flavour_id === "string");
  if (flavourTopos.length === 0) {
    ctx.problems.error(
      "NS_NO_FLAVOUR",
      "no NS deployment flavour: no topology_template has substitution_mappings for an NS node type, or an NS node with a flavour_id",
      entryFile,
      entry ? [TT] : [],
    );
    return undefined;
  }
  const primary = (entry && nsNode(entry, ctx)) ?? flavourTopos.map((t) => nsNode(t, ctx)).find((n) => n !== undefined);
  if (!primary) {
    ctx.problems.error("NS_NO_NS_NODE", "no node template of a type derived from tosca.nodes.nfv.NS: the NSD has no descriptor_id", flavourTopos[0].file, [
      TT,
      "node_templates",
    ]);
    return undefined;
  }
  const flavours: NsFlavour[] = [];
  const seen = new Map<string, string>();
  for (const topo of flavourTopos) {
    const flavour = readFlavour(topo, ctx);
    const previous = seen.get(flavour.id);
    if (previous !== undefined) {
      ctx.problems.error("NS_DUPLICATE_FLAVOUR", `NS flavour \`${flavour.id}\` is also defined in ${previous}`, topo.file, [TT, "substitution_mappings"]);
      continue;
    }
    seen.set(flavour.id, topo.file);
    flavours.push(flavour);
  }
  return { ns: readNsInfo(primary), flavours };
}

function nsSubstitution(t: Topology, ctx: SemanticContext): boolean {
  return t.substitution !== undefined && ctx.types.isA(ctx.types.get("node_types", t.substitution.nodeType), NS_T.NS);
}

function nsNode(t: Topology, ctx: SemanticContext): NodeTemplate | undefined {
  return [...t.nodes.values()].find((n) => ctx.types.isA(n.type, NS_T.NS));
}

function readNsInfo(node: NodeTemplate): NsInfo {
  const p = node.properties;
  return {
    descriptorId: str(p.descriptor_id) ?? "",
    designer: str(p.designer) ?? "",
    version: str(p.version) ?? "",
    name: str(p.name) ?? "",
    invariantId: str(p.invariant_id) ?? "",
    nodeType: node.typeName,
  };
}

function readFlavour(topo: Topology, ctx: SemanticContext): NsFlavour {
  const id = str(topo.substitution?.properties.flavour_id) ?? str(nsNode(topo, ctx)?.properties.flavour_id) ?? "";
  if (id === "")
    ctx.problems.error("NS_NO_FLAVOUR_ID", "the NS flavour has no flavour_id (substitution_mappings.properties.flavour_id)", topo.file, [
      TT,
      "substitution_mappings",
    ]);
  const nodes = [...topo.nodes.values()];
  const of = (t: string) => nodes.filter((n) => ctx.types.isA(n.type, t));
  const virtualLinks: NsVirtualLink[] = of(NS_T.NS_VIRTUAL_LINK).map((n) => nsVirtualLink(readVirtualLink(n), ctx.problems.place(topo.file, nodePath(n.name))));
  const vlIds = new Set(virtualLinks.map((v) => v.id));
  const vnfNodes = of(NS_T.VNF);
  const vnfs = vnfNodes.map((n) => readVnf(n, topo, vlIds, ctx));
  const saps = of(NS_T.SAP).map((n) => readSap(n, topo, vlIds, ctx));
  for (const vl of virtualLinks) {
    if (!vnfs.some((v) => v.links.some((l) => l.virtualLinkId === vl.id))) {
      ctx.problems.error(
        "NS_DANGLING_VIRTUAL_LINK",
        `NS virtual link \`${vl.id}\` joins no VNF: no requirement of a VNF node names it`,
        topo.file,
        nodePath(vl.id),
      );
    }
  }
  const levels = readLevels(topo, new Map(vnfs.map((v) => [v.id, v])), ctx);
  const flavour: NsFlavour = {
    id,
    file: topo.file,
    at: ctx.problems.place(topo.file, [TT]),
    vnfs: deploymentOrder(vnfs, topo, ctx),
    virtualLinks,
    saps,
    levels: levels.levels,
  };
  if (levels.defaultLevelId !== undefined) flavour.defaultLevelId = levels.defaultLevelId;
  return flavour;
}

/** A VNF link's per-level bitrates have no meaning on an NS link: dropped. */
function nsVirtualLink(vl: VirtualLink, at: SourceLocation): NsVirtualLink {
  const link: Partial<VirtualLink> = { ...vl };
  delete link.bitrateByLevel;
  return { ...(link as Omit<VirtualLink, "bitrateByLevel">), at };
}

function readVnf(node: NodeTemplate, topo: Topology, vlIds: ReadonlySet<string>, ctx: SemanticContext): NsVnf {
  const p = node.properties;
  const profile = obj(p.vnf_profile);
  const vnf: NsVnf = {
    id: node.name,
    descriptorId: str(p.descriptor_id) ?? "",
    flavourId: str(p.flavour_id) ?? "",
    minInstances: int(profile.min_number_of_instances) ?? 1,
    maxInstances: int(profile.max_number_of_instances) ?? 1,
    links: [],
    dependsOn: [],
    at: ctx.problems.place(topo.file, nodePath(node.name)),
  };
  const level = str(profile.instantiation_level);
  if (level !== undefined) vnf.instantiationLevel = level;
  if (vnf.minInstances > vnf.maxInstances) {
    ctx.problems.error(
      "NS_INSTANCES_OUT_OF_RANGE",
      `vnf_profile: min_number_of_instances ${vnf.minInstances} is above max_number_of_instances ${vnf.maxInstances}`,
      topo.file,
      [...nodePath(node.name), "properties", "vnf_profile"],
    );
  }
  for (const r of node.requirements) {
    const path = [...nodePath(node.name), "requirements", r.index, r.name];
    const target = topo.nodes.get(r.node);
    // A target that is not a node template here was reported by phase 4 (TEMPLATE_DANGLING_REQUIREMENT).
    if (!target) continue;
    if (r.name === "dependency") {
      if (ctx.types.isA(target.type, NS_T.VNF)) vnf.dependsOn.push(target.name);
      else ctx.problems.error("NS_BAD_DEPENDENCY", `\`${node.name}\` depends on \`${r.node}\`, which is not a VNF of this NS`, topo.file, path);
    } else if (vlIds.has(target.name)) {
      vnf.links.push({ requirement: r.name, virtualLinkId: target.name, at: ctx.problems.place(topo.file, path) });
    } else {
      ctx.problems.error(
        "NS_NOT_A_VIRTUAL_LINK",
        `requirement \`${r.name}\` of VNF \`${node.name}\` names \`${r.node}\`, which is not an NsVirtualLink`,
        topo.file,
        path,
      );
    }
  }
  return vnf;
}

function readSap(node: NodeTemplate, topo: Topology, vlIds: ReadonlySet<string>, ctx: SemanticContext): Sap {
  const sap: Sap = { id: node.name, layerProtocols: strings(node.properties.layer_protocols) };
  for (const r of node.requirements) {
    if (r.name !== "internal_virtual_link" && r.name !== "external_virtual_link") continue;
    if (vlIds.has(r.node)) {
      if (r.name === "internal_virtual_link") sap.virtualLinkId = r.node;
    } else if (topo.nodes.has(r.node)) {
      ctx.problems.error(
        "NS_NOT_A_VIRTUAL_LINK",
        `requirement \`${r.name}\` of SAP \`${node.name}\` names \`${r.node}\`, which is not an NsVirtualLink`,
        topo.file,
        [...nodePath(node.name), "requirements", r.index, r.name],
      );
    }
  }
  return sap;
}

/** VNFs in file order, each moved after the VNFs it depends on; a cycle is refused where it closes. */
function deploymentOrder(vnfs: NsVnf[], topo: Topology, ctx: SemanticContext): NsVnf[] {
  const byId = new Map(vnfs.map((v) => [v.id, v]));
  const state = new Map<string, "visiting" | "done">();
  const order: NsVnf[] = [];
  const visit = (vnf: NsVnf, trail: string[]): void => {
    state.set(vnf.id, "visiting");
    for (const dep of vnf.dependsOn) {
      const next = byId.get(dep);
      if (!next) continue;
      if (state.get(dep) === "visiting") {
        const cycle = [...trail.slice(trail.indexOf(dep)), vnf.id, dep].join(" → ");
        const node = topo.nodes.get(vnf.id);
        const r = node?.requirements.find((q) => q.name === "dependency" && q.node === dep);
        ctx.problems.error("NS_DEPENDENCY_CYCLE", `the VNFs depend on each other in a cycle: ${cycle}`, topo.file, [
          ...nodePath(vnf.id),
          "requirements",
          r?.index ?? 0,
          "dependency",
        ]);
      } else if (state.get(dep) === undefined) {
        visit(next, [...trail, vnf.id]);
      }
    }
    state.set(vnf.id, "done");
    order.push(vnf);
  };
  for (const vnf of vnfs) if (!state.has(vnf.id)) visit(vnf, []);
  return order;
}

function readLevels(topo: Topology, vnfs: ReadonlyMap<string, NsVnf>, ctx: SemanticContext): { levels: NsLevel[]; defaultLevelId?: string } {
  const policies = topo.policies.filter((p) => ctx.types.isA(p.type, NS_T.NS_INSTANTIATION_LEVELS));
  if (policies.length > 1)
    ctx.problems.error("NS_POLICY_DUPLICATE", "more than one NsInstantiationLevels policy in this flavour", topo.file, policyPath(policies[1]));
  const declared = policies[0];
  const levels: NsLevel[] = Object.entries(obj(declared?.properties.levels)).map(([id, v]) => ({
    id,
    description: str(obj(v).description) ?? "",
    vnfInstances: {},
  }));
  const byId = new Map(levels.map((l) => [l.id, l]));
  const defaultLevelId = str(declared?.properties.default_level);
  if (declared && defaultLevelId !== undefined && !byId.has(defaultLevelId)) {
    ctx.problems.error("NS_UNKNOWN_LEVEL", `default_level \`${defaultLevelId}\` is not one of the levels (${[...byId.keys()].join(", ")})`, topo.file, [
      ...policyPath(declared),
      "properties",
      "default_level",
    ]);
  }
  for (const mapping of topo.policies.filter((p) => ctx.types.isA(p.type, NS_T.VNF_TO_LEVEL_MAPPING))) {
    for (const target of mapping.targets) {
      if (!vnfs.has(target))
        ctx.problems.error("NS_BAD_TARGET", `VnfToLevelMapping \`${mapping.name}\` targets \`${target}\`, which is not a VNF of this NS`, topo.file, [
          ...policyPath(mapping),
          "targets",
        ]);
    }
    for (const [levelId, count] of Object.entries(obj(mapping.properties.levels))) {
      const level = byId.get(levelId);
      if (!level) {
        ctx.problems.error("NS_UNKNOWN_LEVEL", `level \`${levelId}\` is not an NS instantiation level of this flavour`, topo.file, [
          ...policyPath(mapping),
          "properties",
          "levels",
          levelId,
        ]);
        continue;
      }
      for (const target of mapping.targets) {
        const vnf = vnfs.get(target);
        if (!vnf) continue;
        const n = int(count) ?? 0;
        level.vnfInstances[target] = n;
        if (n < vnf.minInstances || n > vnf.maxInstances) {
          ctx.problems.error(
            "NS_INSTANCES_OUT_OF_RANGE",
            `level \`${levelId}\` gives ${n} instances of \`${target}\`, outside its vnf_profile [${vnf.minInstances}, ${vnf.maxInstances}]`,
            topo.file,
            [...policyPath(mapping), "properties", "levels", levelId],
          );
        }
      }
    }
  }
  return defaultLevelId !== undefined && byId.has(defaultLevelId) ? { levels, defaultLevelId } : { levels };
}
