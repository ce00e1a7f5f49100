/**
 * The translator: package → `VnfModel` plus every diagnostic. Phases, in order (see README.md):
 * 1 read the package, 2 load YAML and imports, 3 build the type system, 4 check topologies,
 * 5 SOL001 semantics (or the legacy containerized format). Nothing throws on bad input; a model is
 * returned only when there is no error.
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
import { Problems, sortDiagnostics } from "./problems";

export interface TranslateOptions {
  /** `nfv validate --strict`: what SOL001 requires but Tacker tolerates is an error, not a warning. */
  strict?: boolean;
}

export interface TranslateResult {
  model?: VnfModel;
  diagnostics: Diagnostic[];
}

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
  let model: VnfModel | undefined;
  if (pkg.entry !== undefined) model = translateEntry(source, pkg, pkg.entry, problems);
  const diagnostics = problems.locate((f) => source.read(f)?.toString("utf8"));
  return problems.hasErrors() ? { diagnostics } : { model, diagnostics: sortDiagnostics(diagnostics) };
}

function translateEntry(source: PackageSource, pkg: ReadPackage, entry: string, problems: Problems): VnfModel | undefined {
  const loaded = loadDocuments(source, entry, problems, pkg.singleFile);
  if (!loaded.entry) return undefined;
  if (loaded.entry.version === "tosca_simple_profile_for_nfv_1_0_0") {
    return isLegacyVm(loaded.entry) ? translateLegacyVm(loaded.entry, problems) : translateLegacy(loaded.entry, problems);
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
  const manifests = pkg.artifacts.map((a) => a.name).filter((n) => n.startsWith("Files/kubernetes/"));
  return buildModel(topologies, entryTopology, entry, loaded.unimported, source, [...new Set(manifests)], { types, problems });
}
