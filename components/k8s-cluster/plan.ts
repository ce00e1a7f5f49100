/**
 * `planK8sCluster`: pure. From the package's flavours, Tacker's InstantiateVnfRequest, the scale
 * levels and the heal generations: the VM plan (through `planVmVnf`), the checked
 * `k8s_cluster_installation_param`, every node with its role, name and join anchor, and the heal
 * steps. Every problem is collected into one `DiagnosticError`, raised before anything is created.
 */
import { DiagnosticBag, DiagnosticError } from "../../translators/diagnostics";
import { clusterDefaultServerGroup } from "../../translators/graph/component-resources";
import type { InstantiateVnfRequest } from "../../translators/tacker/instantiate-request";
import type { Flavour } from "../../translators/tosca/model";
import type { PackageSource } from "../../translators/tosca/phase1-read/package-source";
import { componentPackageSource } from "../package-file";
import { planVmVnf, type ServerGroupPolicy, type VmVnfPlan } from "../vnf/plan";
import { nodeNameProblems } from "./config/node-names";
import { K8S_PARAM_KEY, readK8sClusterInstallation, type K8sClusterInstallation } from "./params";

export type Role = "master" | "worker";

export interface PlannedNode {
  vnfcId: string;
  role: Role;
  /** Position among the nodes of its role. */
  index: number;
  name: string;
  healGeneration: number;
  /** `init` (first master, never healed), or `join` (every other node, and a healed first master). */
  bootstrap: "init" | "join";
  /** The master that makes this node's join credentials and removes it: the first master that is not this node. */
  anchor: string;
}

export interface K8sClusterPlan {
  vm: VmVnfPlan;
  installation: K8sClusterInstallation;
  /** Masters first, then workers, each in index order. */
  nodes: PlannedNode[];
  /** The first master: `kubeadm init` runs there. */
  initNode: string;
  /** Server groups the cluster adds to the VNFD's rules (VmVnf's `serverGroupPolicies`). */
  serverGroupPolicies: Record<string, ServerGroupPolicy>;
  /** The workers are in an anti-affinity group: each is labelled with its compute host and zone. */
  labelWorkers: boolean;
  /** The id of the VmVnf network the VIP port goes on (external: `resourceId`). */
  vipNetworkResourceId?: string;
  warnings: string[];
}

export interface PlanInput {
  clusterName: string;
  flavours: Flavour[];
  request: InstantiateVnfRequest;
  /** Parameters; default `request.additionalParams.k8s_cluster_installation_param`. */
  installationParam?: Record<string, unknown>;
  scaleLevels?: Record<string, number>;
  healGenerations?: Record<string, number>;
  /** The package as read (a directory or a zip): the files the parameters name are read through it. */
  packageSource?: PackageSource;
  /** A package directory, when no `packageSource` is given. */
  packageDir?: string;
  /** An SSH key is given: `password` may be absent. */
  hasSshKey?: boolean;
  /** Server group policy per role (K8sClusterArgs.serverGroups). */
  serverGroups?: ClusterServerGroups;
}

/** A Nova server group per node role; `none`: no group beyond the VNFD's own affinity rules. */
export type ClusterServerGroups = Partial<Record<Role, ServerGroupPolicy | "none">>;

/** The server group of each role: its `serverGroups` entry, else the podaffinity flavour's default. */
function serverGroupPolicies(flavour: Flavour, vduIds: Record<Role, string>, requested: ClusterServerGroups): Record<string, ServerGroupPolicy> {
  const out: Record<string, ServerGroupPolicy> = {};
  for (const role of ["master", "worker"] as const) {
    const vdu = vduIds[role];
    const policy = requested[role] ?? clusterDefaultServerGroup(flavour, vdu) ?? "none";
    if (policy !== "none") out[vdu] = policy;
  }
  return out;
}

export function planK8sCluster(input: PlanInput): K8sClusterPlan {
  // The VM plan's own checks (flavour, level, scale, CPs) come first; they throw on their own.
  let vm = planVmVnf(input.flavours, input.request, { scaleLevels: input.scaleLevels });
  const flavour = input.flavours.find((f) => f.id === vm.flavourId)!;
  const bag = new DiagnosticBag();
  const request = input.installationParam ? { additionalParams: { [K8S_PARAM_KEY]: input.installationParam } } : input.request;
  // One source for both reads: the package is walked once.
  const { source: packageSource, reason: packageProblem } = componentPackageSource(input);
  const guess = readK8sClusterInstallation(request, { flavour, packageSource, packageProblem, passwordOptional: input.hasSshKey });
  const masterVdu = guess.value?.master.vduId;
  const masterCount = vm.vnfcs.filter((v) => v.vduId === masterVdu).length;
  // Read again with the number of masters (the even-number warning and the HA checks need it).
  const { value, bag: paramBag } = readK8sClusterInstallation(request, {
    flavour,
    packageSource,
    packageProblem,
    passwordOptional: input.hasSshKey,
    masterCount,
  });
  bag.add(...paramBag.items);
  if (!value) throw new DiagnosticError("invalid k8s_cluster_installation_param", bag.errors());
  const groups = serverGroupPolicies(flavour, { master: value.master.vduId, worker: value.worker.vduId }, input.serverGroups ?? {});
  if (Object.keys(groups).length > 0) vm = planVmVnf(input.flavours, input.request, { scaleLevels: input.scaleLevels, serverGroupPolicies: groups });
  const workerPolicy = groups[value.worker.vduId] ?? flavour.affinityRules.find((r) => r.vduIds.includes(value.worker.vduId))?.kind;

  const gens = input.healGenerations ?? {};
  const masters = vm.vnfcs.filter((v) => v.vduId === value.master.vduId);
  const workers = vm.vnfcs.filter((v) => v.vduId === value.worker.vduId);
  for (const id of Object.keys(gens)) {
    if (!vm.vnfcs.some((v) => v.id === id))
      bag.error("K8S_HEAL_UNKNOWN_VNFC", `heal generation for \`${id}\`, which is not a VNFC of the cluster (VNFCs: ${vm.vnfcs.map((v) => v.id).join(", ")})`, {
        path: "healGenerations",
      });
  }
  if (masters.length === 0) bag.error("K8S_NO_MASTER", `no instance of the master VDU \`${value.master.vduId}\` at this level`);
  if (masters.length === 1 && (gens[masters[0].id] ?? 0) > 0) {
    bag.error(
      "K8S_SINGLE_MASTER_HEAL",
      `cannot heal \`${masters[0].id}\`: it is the only master, and the cluster (etcd, certificates) would be lost with it; scale the masters to at least 2 or re-instantiate the cluster`,
      { path: `healGenerations.${masters[0].id}` },
    );
  }
  let vipNetworkResourceId: string | undefined;
  if (value.master.vip) {
    const port = masters[0]?.ports.find((p) => p.cpId === value.master.nicCpName);
    const net = vm.networks.find((n) => n.id === port?.networkId);
    if (net && !net.external)
      bag.error(
        "K8S_VIP_NETWORK",
        `the VIP port \`${value.master.clusterCpName}\` needs the masters' network \`${net.id}\` to exist beforehand (an extVirtualLinks or extManagedVirtualLinks entry)`,
      );
    vipNetworkResourceId = net?.resourceId;
  }
  const { names, problems } = nodeNameProblems(
    input.clusterName,
    vm.vnfcs.map((v) => v.id),
  );
  for (const p of problems) bag.error("K8S_NODE_NAME", p.message, { path: "name" });
  bag.throwIfErrors("invalid Kubernetes cluster");

  const anchorFor = (id: string) => masters.find((m) => m.id !== id)?.id ?? masters[0].id;
  const nodes: PlannedNode[] = [
    ...masters.map((v, i) => ({ v, i, role: "master" as const })),
    ...workers.map((v, i) => ({ v, i, role: "worker" as const })),
  ].map(({ v, i, role }) => {
    const healGeneration = gens[v.id] ?? 0;
    return {
      vnfcId: v.id,
      role,
      index: i,
      name: names[v.id],
      healGeneration,
      bootstrap: role === "master" && i === 0 && healGeneration === 0 ? "init" : "join",
      anchor: anchorFor(v.id),
    };
  });
  const plan: K8sClusterPlan = {
    vm,
    installation: value,
    nodes,
    initNode: masters[0].id,
    serverGroupPolicies: groups,
    labelWorkers: workerPolicy === "anti-affinity" || workerPolicy === "soft-anti-affinity",
    warnings: bag.warnings().map((d) => d.message),
  };
  if (vipNetworkResourceId) plan.vipNetworkResourceId = vipNetworkResourceId;
  return plan;
}
