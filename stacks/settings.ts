/**
 * Everything a stack's config says, checked as one: the VIMs, the VNF entries, their packages,
 * requests and component graphs, and that each VNF's component fits its VIM. The Pulumi program
 * and the `nfv` operations both start here, so they accept and refuse the same configs.
 */
import { readFileSync } from "node:fs";
import * as path from "node:path";
import { DiagnosticBag } from "../translators/diagnostics";
import { unreadableFile } from "../translators/user-file";
import { readInstantiateRequest } from "../translators/tacker/instantiate-request";
import { parseYaml, type LocatedDocument } from "../translators/yaml/located-yaml";
import { nodeNameProblems } from "../components/k8s-cluster/config/node-names";
import { PROJECT, readStackConfig, stackLocator, type VimEntry } from "./config";
import { readControlPlaneEntries, type ControlPlaneEntry } from "./control-plane-settings";
import { readMagnumEntries, type MagnumEntry } from "./magnum-settings";
import { planNsEntries, readNsEntries, type NsEntry } from "./network-services";
import { referencedVnfs } from "./references";
import { isMapping, prepareVnfs, readVnfEntries, type PreparedVnf } from "./vnfs";

export interface StackSettings {
  vims: VimEntry[];
  vnfs: PreparedVnf[];
  magnumClusters: MagnumEntry[];
  /** OpenStack control planes on Kubernetes VIMs of the stack, each an OpenStack VIM of the stack. */
  controlPlanes: ControlPlaneEntry[];
  networkServices: NsEntry[];
  /** Every problem found; callers throw on errors and print warnings. */
  bag: DiagnosticBag;
}

/**
 * `raw` holds the parsed `pulumi-nfv:vims`, `vnfs`, `magnum_clusters`, `openstack_control_planes`
 * and `network_services` values.
 */
export async function loadStackSettings(
  raw: { vims?: unknown; vnfs?: unknown; magnumClusters?: unknown; openstackControlPlanes?: unknown; networkServices?: unknown },
  projectRoot: string,
  stack: string,
  stackFile?: LocatedDocument,
): Promise<StackSettings> {
  const { config, bag } = readStackConfig({ vims: raw.vims }, projectRoot, stackFile);
  const vimTypes = new Map(config.vims.map((v) => [v.name, v.type]));
  // VIMs given but refused: their own errors are reported; what names them must not add "no such VIM".
  const refusedVims = new Set(isMapping(raw.vims) ? Object.keys(raw.vims).filter((n) => !vimTypes.has(n)) : []);
  const magnumClusters = readMagnumEntries(raw.magnumClusters, vimTypes, stackLocator("magnum_clusters", stackFile), bag, refusedVims);
  // A cluster of this stack is a Kubernetes VIM of this stack: CNFs may name it as their `vim`.
  const clusterVims = new Map<string, string>(magnumClusters.map((m) => [m.args.vimName ?? `kubernetes_vim_${m.name}`, `magnum_clusters.${m.name}`]));
  for (const [vim, cluster] of k8sClusterVimNames(raw.vnfs, projectRoot)) {
    const taken = vimTypes.has(vim) ? `vims.${vim}` : clusterVims.get(vim);
    if (taken)
      bag.error(
        "CONFIG_DUPLICATE_VIM",
        `the cluster's Kubernetes VIM would be named '${vim}', which is already ${taken}; set vim_name in its instantiate request`,
        stackLocator("vnfs", stackFile)([cluster], true),
      );
    else clusterVims.set(vim, `vnfs.${cluster}`);
  }
  const vimsAndClusters = new Map([...vimTypes, ...[...clusterVims.keys()].map((v): [string, string] => [v, "kubernetes"])]);
  // A control plane of this stack is an OpenStack VIM of this stack: VM VNFs may name it.
  const controlPlanes = readControlPlaneEntries(
    raw.openstackControlPlanes,
    vimsAndClusters,
    projectRoot,
    stackLocator("openstack_control_planes", stackFile),
    bag,
    refusedVims,
  );
  const allVimTypes = new Map([...vimsAndClusters, ...controlPlanes.vimNames.map((v): [string, string] => [v, "openstack"])]);
  const entries = readVnfEntries(raw.vnfs, stack, projectRoot, allVimTypes, stackLocator("vnfs", stackFile), bag, refusedVims);
  const nsLocate = stackLocator("network_services", stackFile);
  const networkServices = readNsEntries(raw.networkServices, projectRoot, new Set(entries.map((e) => e.name)), nsLocate, bag);
  const vnfs = bag.hasErrors() ? [] : await prepareVnfs(entries, bag);
  for (const p of vnfs) checkVimKind(p, allVimTypes, bag, stackFile);
  checkControlPlaneVims(vnfs, new Set(controlPlanes.vimNames), bag, stackFile);
  checkExtNetworks(vnfs, controlPlanes.entries, bag, stackFile);
  checkRegistryNames(vnfs, bag, stackFile);
  checkReferences(vnfs, networkServices, bag, stackFile);
  for (const p of vnfs) if (p.component === "kubernetes-cluster") checkNodeNames(p, bag, stackFile);
  if (!bag.hasErrors()) await planNsEntries(networkServices, vnfs, allVimTypes, nsLocate, stackLocator("vnfs", stackFile), bag);
  return { vims: config.vims, vnfs, magnumClusters, controlPlanes: controlPlanes.entries, networkServices, bag };
}

/**
 * Registries and clusters are registered before the control planes (a control plane may run on a
 * cluster, and a cluster take a registry): none of them can be on a control plane's VIM.
 */
function checkControlPlaneVims(vnfs: PreparedVnf[], controlPlaneVims: Set<string>, bag: DiagnosticBag, stackFile?: LocatedDocument): void {
  const early = new Set(["private-registry", "registry-on-host", "kubernetes-cluster"]);
  for (const p of vnfs)
    if (early.has(p.component) && p.entry.vim !== undefined && controlPlaneVims.has(p.entry.vim))
      bag.error(
        "CONFIG_WRONG_VIM",
        `VNF '${p.entry.name}' is a ${p.component}, which the stack registers before its control planes; it cannot run on '${p.entry.vim}', a control plane's VIM`,
        stackLocator("vnfs", stackFile)([p.entry.name, "vim"]),
      );
}

/**
 * `ext_networks`: a VM VNF on a control plane's VIM, each key an `extVirtualLinks` id of its
 * request, each value one of that control plane's `networks`.
 */
function checkExtNetworks(vnfs: PreparedVnf[], controlPlanes: ControlPlaneEntry[], bag: DiagnosticBag, stackFile?: LocatedDocument): void {
  const locate = stackLocator("vnfs", stackFile);
  for (const p of vnfs) {
    const links = p.entry.extNetworks;
    if (!links) continue;
    const at = (key?: string) => locate([p.entry.name, "ext_networks", ...(key === undefined ? [] : [key])], key !== undefined);
    const cp = controlPlanes.find((c) => c.vimName === p.entry.vim);
    if (p.component !== "vm-vnf" || !cp) {
      bag.error(
        "CONFIG_WRONG_VIM",
        `ext_networks name networks of a control plane of this stack: VNF '${p.entry.name}' must be a VM VNF on a control plane's VIM (${controlPlanes.map((c) => c.vimName).join(", ") || "this stack has none"})`,
        at(),
      );
      continue;
    }
    const linkIds = (p.request?.extVirtualLinks ?? []).map((l) => l.id);
    const networks = (cp.networks ?? []).map((n) => n.name);
    for (const [link, network] of Object.entries(links)) {
      if (!linkIds.includes(link))
        bag.error(
          "CONFIG_BAD_VALUE",
          `ext_networks.${link}: the instantiate request has no extVirtualLinks entry '${link}' (it has ${linkIds.join(", ") || "none"})`,
          at(link),
        );
      if (!networks.includes(network))
        bag.error(
          "CONFIG_BAD_REFERENCE",
          `ext_networks.${link}: control plane '${cp.name}' has no network '${network}' (its networks: ${networks.join(", ") || "none"})`,
          at(link),
        );
    }
  }
}

/**
 * `hook_parameters` references (references.ts): only VM VNFs have hooks to read them; each names
 * another VNF of the stack, and references must not go round (one VNF's hook waiting for the
 * other's output and back; the VNFs of one NS count as one, deployed in the NSD's order).
 */
function checkReferences(vnfs: PreparedVnf[], networkServices: NsEntry[], bag: DiagnosticBag, stackFile?: LocatedDocument): void {
  const locate = stackLocator("vnfs", stackFile);
  const names = new Set(vnfs.map((p) => p.entry.name));
  const unitOf = (vnf: string) => {
    const ns = networkServices.find((n) => Object.values(n.vnfs).includes(vnf));
    return ns ? `network service '${ns.name}'` : `VNF '${vnf}'`;
  };
  const edges = new Map<string, Set<string>>();
  for (const p of vnfs) {
    const params = p.entry.hookParameters;
    if (!params) continue;
    if (p.component !== "vm-vnf")
      bag.error(
        "CONFIG_BAD_VALUE",
        `VNF '${p.entry.name}' is a ${p.component}: hook_parameters are for the hooks of VM VNFs`,
        locate([p.entry.name, "hook_parameters"], true),
      );
    for (const [key, param] of Object.entries(params)) {
      if (!("ref" in param)) continue;
      const target = param.ref.vnf;
      if (target === p.entry.name)
        bag.error(
          "CONFIG_BAD_REFERENCE",
          `hook_parameters.${key}: ${param.ref.text} names this VNF itself; its outputs exist only once its hooks have run`,
          locate([p.entry.name, "hook_parameters", key]),
        );
      else if (!names.has(target))
        bag.error(
          "CONFIG_BAD_REFERENCE",
          `hook_parameters.${key}: ${param.ref.text}: '${target}' is not a VNF of this stack (${[...names].join(", ")})`,
          locate([p.entry.name, "hook_parameters", key]),
        );
    }
    const from = unitOf(p.entry.name);
    for (const target of referencedVnfs(params)) {
      const to = unitOf(target);
      if (names.has(target) && to !== from) (edges.get(from) ?? edges.set(from, new Set()).get(from)!).add(to);
    }
  }
  const cycle = findCycle(edges);
  if (cycle)
    bag.error("CONFIG_REFERENCE_CYCLE", `hook_parameters references go round: ${cycle.join(" → ")}; one of them must not wait for the other`, locate([]));
}

/** One cycle of a directed graph, as the nodes on it (the first repeated at the end). */
function findCycle(edges: ReadonlyMap<string, ReadonlySet<string>>): string[] | undefined {
  const state = new Map<string, "open" | "done">();
  const stack: string[] = [];
  const visit = (n: string): string[] | undefined => {
    if (state.get(n) === "done") return undefined;
    if (state.get(n) === "open") return [...stack.slice(stack.indexOf(n)), n];
    state.set(n, "open");
    stack.push(n);
    for (const m of edges.get(n) ?? []) {
      const c = visit(m);
      if (c) return c;
    }
    stack.pop();
    state.set(n, "done");
    return undefined;
  };
  for (const n of edges.keys()) {
    const c = visit(n);
    if (c) return c;
  }
  return undefined;
}

/**
 * The Kubernetes VIM each K8sCluster of `vnfs` will register: its request's `vim_name`, or
 * `kubernetes_vim_<name>` as in K8sCluster. Read ahead of the entries so that a CNF of the same
 * stack can name it; a request that cannot be read is reported by prepareVnfs, not here.
 */
function k8sClusterVimNames(raw: unknown, projectRoot: string): Map<string, string> {
  const names = new Map<string, string>();
  if (!isMapping(raw)) return names;
  for (const [name, value] of Object.entries(raw)) {
    if (!isMapping(value) || !isMapping(value.cluster)) continue;
    let vimName: unknown;
    const file = typeof value.instantiate_request === "string" ? path.resolve(projectRoot, value.instantiate_request) : undefined;
    if (file && unreadableFile(file) === undefined) {
      const params = readInstantiateRequest(readFileSync(file, "utf8"), file).request?.additionalParams?.k8s_cluster_installation_param;
      vimName = isMapping(params) ? params.vim_name : undefined;
    }
    names.set(typeof vimName === "string" && vimName !== "" ? vimName : `kubernetes_vim_${name}`, name);
  }
  return names;
}

/** VNFC instances per VDU whose node names are checked here; more change nothing (see checkNodeNames). */
const NODE_NAME_INSTANCES = 100;

/**
 * A cluster's node names (`<cluster>-<vnfcId>` as a DNS label, components/k8s-cluster/config/
 * node-names.ts) are RFC 1123 labels and subdomains, one per VNFC, for every VNFC the VNFD allows:
 * checked here, before anything is registered, and located where the cause is: the VDU's node
 * template in the VNFD for two VDUs whose VNFCs would share a name, the VNF's key in the stack
 * config otherwise. Two names can only meet at the same instance index (the index ends the name),
 * so instances past the first hundred add nothing.
 */
function checkNodeNames(p: PreparedVnf, bag: DiagnosticBag, stackFile?: LocatedDocument): void {
  const flavour = p.model?.flavours.find((f) => f.id === p.request?.flavourId);
  if (!flavour) return;
  const ids = flavour.vdus
    .filter((v) => v.kind === "compute")
    .flatMap((v) => Array.from({ length: Math.min(Math.max(v.maxInstances, v.initialInstances, 1), NODE_NAME_INSTANCES) }, (_, i) => `${v.id}-${i}`));
  const { problems } = nodeNameProblems(p.entry.name, ids);
  const vduOf = (vnfcId: string) => vnfcId.slice(0, vnfcId.lastIndexOf("-"));
  let vnfd: LocatedDocument | undefined;
  const vduLocation = (vduId: string) => {
    const text = p.pkg?.source.read(flavour.file)?.toString("utf8");
    vnfd ??= text === undefined ? undefined : parseYaml(text, p.pkg!.source.display(flavour.file)).documents[0];
    return vnfd?.keyLocation(["topology_template", "node_templates", vduId]) ?? { file: p.pkg?.source.display(flavour.file) };
  };
  const said = new Set<string>();
  for (const pr of problems) {
    if (pr.other !== undefined) {
      const pair = `${vduOf(pr.other)}/${vduOf(pr.vnfcId)}`;
      if (said.has(pair)) continue;
      said.add(pair);
      bag.error(
        "K8S_NODE_NAME",
        `VNF '${p.entry.name}': the ${pr.message}: VDUs ${vduOf(pr.other)} and ${vduOf(pr.vnfcId)} come out the same as Kubernetes node names (lower case, a-z, 0-9 and -); rename one`,
        vduLocation(vduOf(pr.vnfcId)),
      );
    } else {
      bag.error("K8S_NODE_NAME", `VNF '${p.entry.name}': ${pr.message}`, stackLocator("vnfs", stackFile)([p.entry.name], true));
    }
  }
}

/** A cluster's `private_registries` name private-registry VNFs of the same stack. */
function checkRegistryNames(vnfs: PreparedVnf[], bag: DiagnosticBag, stackFile?: LocatedDocument): void {
  const kinds = new Map(vnfs.map((p) => [p.entry.name, p.component]));
  const locate = stackLocator("vnfs", stackFile);
  for (const p of vnfs) {
    (p.entry.cluster?.privateRegistries ?? []).forEach((name, i) => {
      const kind = kinds.get(name);
      if (kind !== "private-registry" && kind !== "registry-on-host") {
        bag.error(
          "CONFIG_BAD_VALUE",
          `cluster.private_registries: '${name}' is ${kind ? `a ${kind}` : "no VNF of this stack"}, not a private registry`,
          locate([p.entry.name, "cluster", "private_registries", i]),
        );
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
    bag.error(
      "CONFIG_MISSING_FIELD",
      `VNF '${p.entry.name}' is a Kubernetes cluster: it needs a cluster mapping (kubernetes_version, kubernetes_package_version, containerd_package_version, sandbox_image; see README "Instantiating VNFs")`,
      locate([p.entry.name]),
    );
  } else if (p.component !== "kubernetes-cluster" && p.entry.cluster) {
    bag.error(
      "CONFIG_BAD_VALUE",
      `VNF '${p.entry.name}' is a ${p.component}, not a Kubernetes cluster: cluster settings do not apply`,
      locate([p.entry.name, "cluster"], true),
    );
  }
  if (vimTypes.get(p.entry.vim) !== want) {
    bag.error(
      "CONFIG_WRONG_VIM",
      `VNF '${p.entry.name}' is a ${p.component} and needs a VIM of type ${want}; '${p.entry.vim}' is ${vimTypes.get(p.entry.vim)}`,
      { path: `${PROJECT}:vnfs.${p.entry.name}.vim` },
    );
  }
}
