/**
 * The translator: package → `VnfModel` (a VNFD) or `NsModel` (an NSD) plus every diagnostic.
 * Phases, in order (see README.md): 1 read the package, 2 load YAML and imports, 3 build the type
 * system, 4 check topologies, 5 SOL001 semantics of a VNFD or an NSD (or the legacy containerized
 * format). Nothing throws on bad input; a model is returned only when there is no error.
 */
import type { Diagnostic } from "../diagnostics";
import type { VnfModel } from "./model";
import { openPackage, readPackageSource, type ReadPackage } from "./phase1-read/read-package";
import type { PackageSource } from "./phase1-read/package-source";
import { loadDocuments } from "./phase2-load/load-documents";
import { checkDefinitions } from "./phase3-types/check-definitions";
import { TypeSystem } from "./phase3-types/type-system";
import { checkRequirementOccurrences } from "./phase4-templates/check-occurrences";
import { checkTopology } from "./phase4-templates/check-topology";
import type { Topology } from "./phase4-templates/topology";
import { buildModel } from "./phase5-sol001/flavours";
import { translateLegacy } from "./legacy/containerized";
import { isLegacyVm, translateLegacyVm } from "./legacy/vm";
import { isLegacyNsd, readLegacyNsd } from "../ns/read-legacy-nsd";
import { Problems, sortDiagnostics } from "./problems";
import type { NsModel } from "../ns/model";
import { buildNsModel, describesNs } from "../ns/read-nsd";

export interface TranslateOptions {
  /** `nfv validate --strict`: what SOL001 requires but Tacker tolerates is an error, not a warning. */
  strict?: boolean;
  /**
   * What the package must describe: a VNF (the default; an NSD is `PKG_IS_NSD`), an NS (a VNFD is
   * `PKG_IS_VNFD`) or either (`nfv validate`).
   */
  expect?: "vnf" | "ns" | "any";
}

export interface TranslateResult {
  /** The VNFD's model. */
  model?: VnfModel;
  /** The NSD's model, when the package is an NS package and `expect` allows it. */
  ns?: NsModel;
  diagnostics: Diagnostic[];
}

type Described = Pick<TranslateResult, "model" | "ns">;

/** Translates a package directory, `.zip`/`.csar` file, or single YAML file. */
export async function translatePackage(path: string, options: TranslateOptions = {}): Promise<TranslateResult> {
  return translateRead(await openPackage(path), options);
}

/** Translates a package already in memory (tests, mutated fixtures). */
export function translateSource(source: PackageSource, options: TranslateOptions = {}): TranslateResult {
  return translateRead(readPackageSource(source), options);
}

export function translateRead(pkg: ReadPackage, options: TranslateOptions = {}): TranslateResult {
  const { source } = pkg;
  const problems = new Problems((f) => source.display(f), options.strict);
  problems.add(...pkg.diagnostics);
  for (const t of pkg.tolerated) problems.tolerate(t);
  const described = pkg.entry !== undefined ? translateEntry(source, pkg, pkg.entry, problems, options.expect ?? "vnf") : {};
  const diagnostics = problems.locate((f) => source.read(f)?.toString("utf8"));
  return problems.hasErrors() ? { diagnostics } : { ...described, diagnostics: sortDiagnostics(diagnostics) };
}

function translateEntry(source: PackageSource, pkg: ReadPackage, entry: string, problems: Problems, expect: "vnf" | "ns" | "any"): Described {
  const loaded = loadDocuments(source, entry, problems, pkg.singleFile);
  if (!loaded.entry) return {};
  if (loaded.entry.version === "tosca_simple_profile_for_nfv_1_0_0") {
    if (isLegacyNsd(loaded.entry)) return expect === "vnf" ? refuseNsd(entry, problems) : { ns: readLegacyNsd(loaded.entry, problems) };
    if (expect === "ns") return refuseVnfd(entry, problems);
    return { model: isLegacyVm(loaded.entry) ? translateLegacyVm(loaded.entry, problems) : translateLegacy(loaded.entry, problems) };
  }
  const types = new TypeSystem(loaded.files, problems);
  checkDefinitions(types, problems);
  const topologies: Topology[] = [];
  let entryTopology: Topology | undefined;
  for (const f of loaded.files) {
    const topo = checkTopology(f, types, problems);
    if (!topo) continue;
    topologies.push(topo);
    if (f === loaded.entry) entryTopology = topo;
  }
  if (entryTopology) checkRequirementOccurrences(entryTopology, loaded.files, types, problems);
  const ctx = { types, problems };
  if (describesNs(topologies, ctx)) {
    if (expect === "vnf") return refuseNsd(entry, problems);
    return { ns: buildNsModel(topologies, entryTopology, entry, ctx) };
  }
  if (expect === "ns") return refuseVnfd(entry, problems);
  const manifests = pkg.artifacts.map((a) => a.name).filter((n) => n.startsWith("Files/kubernetes/"));
  return { model: buildModel(topologies, entryTopology, entry, loaded.unimported, source, [...new Set(manifests)], ctx) };
}

function refuseNsd(entry: string, problems: Problems): Described {
  problems.error("PKG_IS_NSD", "this package holds an NSD, not a VNFD: deploy it as a network service (`network_services` in the stack config)", entry);
  return {};
}

function refuseVnfd(entry: string, problems: Problems): Described {
  problems.error("PKG_IS_VNFD", "this package holds a VNFD, not an NSD: no NS node type (tosca.nodes.nfv.NS) in it", entry);
  return {};
}
