/**
 * Phase 5: SOL001 semantics. Finds the deployment flavours (topologies whose
 * `substitution_mappings` substitute a VNF type, or a single topology holding a VNF node with a
 * literal `flavour_id`) and builds the `VnfModel` from them, one concept module at a time.
 */
import type { Flavour, VnfModel } from "../model";
import type { PackageSource } from "../phase1-read/package-source";
import { nodePath, TT, type NodeTemplate, type Topology } from "../phase4-templates/topology";
import type { SemanticContext } from "./context";
import { computeInstances } from "./instance-counts";
import { readLevels } from "./instantiation-levels";
import { readLcmHooks } from "./lcm-hooks";
import { readPlacement } from "./placement";
import { str } from "./read";
import { readScaling } from "./scaling";
import { T } from "./sol001-types";
import { readVdu } from "./vdu-compute";
import { readCp } from "./vdu-cp";
import { readVirtualLink } from "./virtual-link";
import { readStorage } from "./virtual-storage";
import { readVnfInfo } from "./vnf-node";

/**
 * @param entryFile the entry definitions, where "no flavour" is reported
 * @param unimported files loaded only by L6: they add flavours, they cannot be the only ones
 */
export function buildModel(
  topologies: Topology[],
  entry: Topology | undefined,
  entryFile: string,
  unimported: ReadonlySet<string>,
  source: PackageSource,
  manifests: string[],
  ctx: SemanticContext,
): VnfModel | undefined {
  const vnfNode = (t: Topology): NodeTemplate | undefined => [...t.nodes.values()].find((n) => ctx.types.isA(n.type, T.VNF));
  let flavourTopos = topologies.filter((t) => t.substitution && ctx.types.isA(ctx.types.get("node_types", t.substitution.nodeType), T.VNF));
  if (flavourTopos.length === 0) {
    flavourTopos = topologies.filter((t) => {
      const vnf = vnfNode(t);
      return vnf !== undefined && typeof vnf.properties.flavour_id === "string";
    });
  }
  const entryVnf = entry ? vnfNode(entry) : undefined;
  if (flavourTopos.length === 0) {
    ctx.problems.error(
      "SOL001_NO_FLAVOUR",
      "no deployment flavour: no topology_template has substitution_mappings for a VNF node type, or a VNF node with a flavour_id",
      entryFile,
      entry ? [TT] : [],
    );
    return undefined;
  }
  if (flavourTopos.every((t) => unimported.has(t.file))) {
    // Tacker's csar_utils finds flavours through the entry's imports only and then refuses the package.
    ctx.problems.error(
      "SOL001_NO_FLAVOUR",
      `No VNF flavours are available: the entry definitions neither define nor import a flavour (${flavourTopos.map((t) => t.file).join(", ")} not imported)`,
      entryFile,
      ["imports"],
    );
    return undefined;
  }
  const firstVnf = vnfNode(flavourTopos[0]);
  const primary = entryVnf ?? firstVnf;
  if (!primary) {
    ctx.problems.error("SOL001_NO_VNF_NODE", "no node template of a type derived from tosca.nodes.nfv.VNF", flavourTopos[0].file, [TT, "node_templates"]);
    return undefined;
  }
  const flavours: Flavour[] = [];
  const seen = new Map<string, Topology>();
  for (const topo of flavourTopos) {
    const flavour = buildFlavour(topo, vnfNode(topo), source, ctx);
    const previous = seen.get(flavour.id);
    if (previous) {
      ctx.problems.error("SOL001_DUPLICATE_FLAVOUR", `flavour \`${flavour.id}\` is also defined in ${previous.file}`, topo.file, [TT, "substitution_mappings"]);
      continue;
    }
    seen.set(flavour.id, topo);
    flavours.push(flavour);
  }
  return { format: "sol001", vnf: readVnfInfo(primary, primary === entryVnf ? firstVnf : undefined), flavours, kubernetesManifests: manifests };
}

function buildFlavour(topo: Topology, vnf: NodeTemplate | undefined, source: PackageSource, ctx: SemanticContext): Flavour {
  const id = str(topo.substitution?.properties.flavour_id) ?? str(vnf?.properties.flavour_id) ?? "";
  if (id === "")
    ctx.problems.error("SOL001_NO_FLAVOUR_ID", "the flavour has no flavour_id (substitution_mappings.properties.flavour_id)", topo.file, [
      TT,
      "substitution_mappings",
    ]);
  const nodes = [...topo.nodes.values()];
  const of = (t: string) => nodes.filter((n) => ctx.types.isA(n.type, t));
  const vdus = of(T.VDU_COMPUTE).map((n) => readVdu(n, topo, ctx));
  const vduIds = new Set(vdus.map((v) => v.id));
  const vls = of(T.VNF_VIRTUAL_LINK).map((n) => readVirtualLink(n));
  const cps = of(T.VDU_CP)
    .map((n) => readCp(n, topo, ctx))
    .filter((c) => c !== undefined);
  const scaling = readScaling(topo, vduIds, ctx);
  const levels = readLevels(topo, vduIds, scaling.aspects, vls, ctx);
  for (const vdu of vdus) computeInstances(vdu, scaling, levels, topo, ctx);
  const placement = readPlacement(topo, vduIds, ctx);
  const lcm = vnf ? readLcmHooks(vnf, topo, ctx, source) : { hooks: [], defaults: [] };
  const flavour: Flavour = {
    id,
    description: str(vnf?.properties.flavour_description) ?? "",
    file: topo.file,
    vdus,
    storages: of(T.VDU_BLOCK_STORAGE).map((n) => readStorage(n, ctx)),
    cps,
    vls,
    aspects: scaling.aspects,
    instantiationLevels: levels.levels,
    placementGroups: placement.groups,
    affinityRules: placement.rules,
    lcmHooks: lcm.hooks,
    defaultLcmOperations: lcm.defaults,
    externalLinks: [...(topo.substitution?.requirements ?? [])].map(([name, [cpId, requirement]]) => ({ name, cpId, requirement })),
  };
  if (levels.defaultLevelId !== undefined) flavour.defaultInstantiationLevelId = levels.defaultLevelId;
  for (const link of flavour.externalLinks) {
    // SOL001's standard mapping `[VnfExtCp, external_virtual_link]` exposes a VnfExtCp, not a VduCp.
    if (!cps.some((c) => c.id === link.cpId) && !ctx.types.isA(topo.nodes.get(link.cpId)?.type, T.VNF_EXT_CP)) {
      ctx.problems.error(
        "SOL001_BAD_TARGET",
        `substitution requirement \`${link.name}\` must map a VduCp or a VnfExtCp; \`${link.cpId}\` is neither`,
        topo.file,
        [TT, "substitution_mappings", "requirements", link.name],
      );
    }
  }
  if (vnf === undefined && topo.substitution) {
    // Legal in SOL001 but then the flavour has no description and no LCM hooks; say so.
    ctx.problems.warning("SOL001_NO_VNF_NODE", "this flavour has no VNF node: no flavour_description and no LCM hooks", topo.file, nodePath("VNF").slice(0, 2));
  }
  return flavour;
}
