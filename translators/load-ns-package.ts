/**
 * `loadNsPackage(nsPath, sources, options?)`: an NS package read and planned with its
 * constituents, for a program that deploys a network service. Each constituent is a VNF package loaded as `loadVnfPackage` loads it, on the VIM kind the caller
 * names. Nothing throws on bad input: every problem is a diagnostic.
 */
import type { Diagnostic } from "./diagnostics";
import { loadVnfPackage, type LoadedVnfPackage } from "./load-vnf-package";
import type { NsModel } from "./ns/model";
import { planNetworkService, vimKindOf, type Constituent, type NsPlan, type VimKind } from "./ns/plan-ns";
import { openPackage, type ReadPackage } from "./tosca/phase1-read/read-package";
import { translateRead } from "./tosca/translate";
import type { InstantiateVnfRequest } from "./tacker/instantiate-request";

/** One VNF of the NSD as the caller gives it. */
export interface ConstituentSource {
  /** Its VNF package: a directory, a `.zip`/`.csar` or one VNFD YAML. */
  packagePath: string;
  /** Its Tacker InstantiateVnfRequest (a file path or the request itself); the NSD's flavour when absent. */
  request?: string | InstantiateVnfRequest;
  /** The kind of VIM it goes on; absent: the kind its component needs (`nfv translate` without `--vim`). */
  vimKind?: VimKind;
}

export interface LoadedNsPackage {
  pkg: ReadPackage;
  /** Absent when the NS package has an error. */
  ns?: NsModel;
  /** Each constituent's VNF package as loaded, by NSD VNF node name. */
  vnfs: Record<string, LoadedVnfPackage>;
  /** Absent when anything has an error. */
  plan?: NsPlan;
  /** Every problem: the NS package, then each constituent (its package, request, plan), then the NS plan. */
  diagnostics: Diagnostic[];
}

export async function loadNsPackage(nsPath: string, sources: Readonly<Record<string, ConstituentSource>>, options: NsOptions = {}): Promise<LoadedNsPackage> {
  const pkg = await openPackage(nsPath);
  const { ns, diagnostics } = translateRead(pkg, { strict: options.strict, expect: "ns" });
  const loaded: LoadedNsPackage = { pkg, vnfs: {}, diagnostics, ...(ns ? { ns } : {}) };
  if (!ns) return loaded;
  const flavour = ns.flavours.find((f) => f.id === (options.flavourId ?? ns.flavours[0]?.id));
  const constituents: Record<string, Constituent> = {};
  let usable = true;
  for (const [id, source] of Object.entries(sources)) {
    const vnf = await loadConstituent(source, flavour?.vnfs.find((v) => v.id === id)?.flavourId, options.strict);
    loaded.vnfs[id] = vnf;
    diagnostics.push(...vnf.diagnostics);
    if (vnf.model && vnf.component && !vnf.diagnostics.some((d) => d.severity === "error"))
      constituents[id] = { model: vnf.model, component: vnf.component, vimKind: source.vimKind ?? vimKindOf(vnf.component) };
    else usable = false;
  }
  if (!usable) return loaded;
  const planned = planNetworkService(ns, constituents, options);
  diagnostics.push(...planned.diagnostics);
  return planned.plan ? { ...loaded, plan: planned.plan } : loaded;
}

export interface NsOptions {
  flavourId?: string;
  levelId?: string;
  strict?: boolean;
}

/**
 * An NS package read and planned with constituents already loaded (a stack config's VNF entries,
 * each read once for itself): the NS's own problems, then the plan's.
 */
export async function planNsPackage(
  nsPath: string,
  constituents: Readonly<Record<string, Constituent>>,
  options: NsOptions = {},
): Promise<Omit<LoadedNsPackage, "vnfs">> {
  const pkg = await openPackage(nsPath);
  const { ns, diagnostics } = translateRead(pkg, { strict: options.strict, expect: "ns" });
  if (!ns) return { pkg, diagnostics };
  const planned = planNetworkService(ns, constituents, options);
  return { pkg, ns, diagnostics: [...diagnostics, ...planned.diagnostics], ...(planned.plan ? { plan: planned.plan } : {}) };
}

/**
 * Without a request, a constituent is planned in the flavour the NSD names for it, when its VNFD
 * has that flavour (when not, the NS plan says so: NS_UNKNOWN_VNF_FLAVOUR).
 */
async function loadConstituent(source: ConstituentSource, nsdFlavourId: string | undefined, strict: boolean | undefined): Promise<LoadedVnfPackage> {
  const vnf = await loadVnfPackage(source.packagePath, source.request, { strict });
  const replan =
    source.request === undefined &&
    nsdFlavourId !== undefined &&
    vnf.graph !== undefined &&
    vnf.graph.flavourId !== nsdFlavourId &&
    vnf.model?.flavours.some((f) => f.id === nsdFlavourId);
  return replan ? loadVnfPackage(source.packagePath, undefined, { strict, flavourId: nsdFlavourId }) : vnf;
}
