/**
 * Everything a stack's config says, checked as one: the VIMs, the VNF entries, their packages,
 * requests and component graphs, and that each VNF's component fits its VIM. The Pulumi program
 * and the `nfv` operations both start here, so they accept and refuse the same configs.
 */
import { DiagnosticBag } from "../translators/diagnostics";
import type { LocatedDocument } from "../translators/yaml/located-yaml";
import { PROJECT, readStackConfig, stackLocator, type VimEntry } from "./config";
import { readMagnumEntries, type MagnumEntry } from "./magnum-settings";
import { prepareVnfs, readVnfEntries, type PreparedVnf } from "./vnfs";

export interface StackSettings {
  vims: VimEntry[];
  vnfs: PreparedVnf[];
  magnumClusters: MagnumEntry[];
  /** Every problem found; callers throw on errors and print warnings. */
  bag: DiagnosticBag;
}

/** `raw` holds the parsed `pulumi-nfv:vims`, `pulumi-nfv:vnfs` and `pulumi-nfv:magnum_clusters` values. */
export async function loadStackSettings(raw: { vims?: unknown; vnfs?: unknown; magnumClusters?: unknown }, projectRoot: string, stack: string, stackFile?: LocatedDocument): Promise<StackSettings> {
  const { config, bag } = readStackConfig({ vims: raw.vims }, projectRoot, stackFile);
  const vimTypes = new Map(config.vims.map((v) => [v.name, v.spec.type]));
  const entries = readVnfEntries(raw.vnfs, stack, projectRoot, vimTypes, stackLocator("vnfs", stackFile), bag);
  const vnfs = bag.hasErrors() ? [] : await prepareVnfs(entries, bag);
  for (const p of vnfs) checkVimKind(p, vimTypes, bag, stackFile);
  checkRegistryNames(vnfs, bag, stackFile);
  const magnumClusters = readMagnumEntries(raw.magnumClusters, vimTypes, stackLocator("magnum_clusters", stackFile), bag);
  return { vims: config.vims, vnfs, magnumClusters, bag };
}

/** A cluster's `private_registries` name private-registry VNFs of the same stack. */
function checkRegistryNames(vnfs: PreparedVnf[], bag: DiagnosticBag, stackFile?: LocatedDocument): void {
  const kinds = new Map(vnfs.map((p) => [p.entry.name, p.component]));
  const locate = stackLocator("vnfs", stackFile);
  for (const p of vnfs) {
    (p.entry.cluster?.privateRegistries ?? []).forEach((name, i) => {
      const kind = kinds.get(name);
      if (kind !== "private-registry" && kind !== "registry-on-host") {
        bag.error("CONFIG_BAD_VALUE", `cluster.private_registries: '${name}' is ${kind ? `a ${kind}` : "no VNF of this stack"}, not a private registry`, locate([p.entry.name, "cluster", "private_registries", i]));
      }
    });
  }
}

/**
 * A component needs its kind of VIM: CNFs a Kubernetes one, VM-based VNFs (Kubernetes clusters
 * included) an OpenStack one. A cluster needs its `cluster` settings, and only a cluster takes them.
 */
function checkVimKind(p: PreparedVnf, vimTypes: Map<string, string>, bag: DiagnosticBag, stackFile?: LocatedDocument): void {
  if (p.component === "registry-on-host" || !p.entry.vim) return;
  const want = p.component === "container-vnf" ? "kubernetes" : "openstack";
  const locate = stackLocator("vnfs", stackFile);
  if (p.component === "kubernetes-cluster" && !p.entry.cluster) {
    bag.error("CONFIG_MISSING_FIELD", `VNF '${p.entry.name}' is a Kubernetes cluster: it needs a cluster mapping (kubernetes_version, kubernetes_package_version, containerd_package_version, sandbox_image; see README "Instantiating VNFs")`, locate([p.entry.name]));
  } else if (p.component !== "kubernetes-cluster" && p.entry.cluster) {
    bag.error("CONFIG_BAD_VALUE", `VNF '${p.entry.name}' is a ${p.component}, not a Kubernetes cluster: cluster settings do not apply`, locate([p.entry.name, "cluster"], true));
  }
  if (vimTypes.get(p.entry.vim) !== want) {
    bag.error("CONFIG_WRONG_VIM", `VNF '${p.entry.name}' is a ${p.component} and needs a VIM of type ${want}; '${p.entry.vim}' is ${vimTypes.get(p.entry.vim)}`, { path: `${PROJECT}:vnfs.${p.entry.name}.vim` });
  }
}
