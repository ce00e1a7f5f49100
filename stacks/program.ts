/**
 * The Pulumi program: stack config in, components out. Everything is validated first
 * (stacks/settings.ts), so an invalid config registers nothing.
 */
import { readFileSync } from "node:fs";
import * as pulumi from "@pulumi/pulumi";
import { ContainerizedVnf, type ContainerizedVnfArgs } from "../components/cnf";
import { K8sCluster, MagnumCluster } from "../components/k8s-cluster";
import { NetworkService } from "../components/ns";
import { ControlPlane } from "../components/openstack-control-plane/control-plane";
import { HOST_VNFC, PrivateRegistry, type RegistryConnectionInfo } from "../components/registry";
import type { LcmOperation } from "../components/vnf/plan";
import { KubernetesVim, OpenStackVim, vimFromSpec, type TackerVimRecord } from "../components/vim";
import { VmVnf, type VmVnfArgs } from "../components/vnf";
import { formatDiagnostic } from "../translators/diagnostics";
import { manifestReader } from "../translators/kubernetes/manifests";
import type { InstantiateVnfRequest } from "../translators/tacker/instantiate-request";
import type { VnfModel } from "../translators/tosca/model";
import { findProjectRoot, loadStackFile, PROJECT } from "./config";
import type { NsEntry } from "./network-services";
import { referencedKubernetesVim } from "./referenced-vim";
import { hookStdin } from "./hook-stdin";
import { referencedVnfs } from "./references";
import { loadStackSettings } from "./settings";
import type { PreparedVnf, SshLogin } from "./vnfs";

export interface StackOutputs {
  /** Every registered VIM's Tacker record, by name. */
  vims: Record<string, pulumi.Output<TackerVimRecord>>;
  /** Per VNF: the component that realises it and what operators need (VNFCs, endpoint, …). */
  vnfs: Record<string, pulumi.Output<unknown>>;
  /** Kubeconfig of each Kubernetes VIM (secret): `nfv heal` of a CNF uses it. */
  kubeconfigs: Record<string, pulumi.Output<string>>;
  /** Per Magnum cluster: its VIM's name, endpoint and CA, Magnum's cluster id and node count. */
  magnumClusters: Record<string, pulumi.Output<unknown>>;
  /** Per OpenStack control plane: the Kubernetes VIM it runs on, its OpenStack VIM's name, Keystone's URL, its services. */
  controlPlanes: Record<string, pulumi.Output<unknown>>;
  /** Per network service: its constituents' VNF entries by NSD VNF id, and each link's network id. */
  networkServices: Record<string, pulumi.Output<unknown>>;
}

export async function deployStack(): Promise<StackOutputs> {
  const stack = pulumi.getStack();
  const config = new pulumi.Config(PROJECT);
  const root = findProjectRoot();
  const settings = await loadStackSettings(
    {
      vims: config.getObject("vims"),
      vnfs: config.getObject("vnfs"),
      magnumClusters: config.getObject("magnum_clusters"),
      openstackControlPlanes: config.getObject("openstack_control_planes"),
      networkServices: config.getObject("network_services"),
    },
    root,
    stack,
    loadStackFile(root, stack),
  );
  settings.bag.throwIfErrors(`invalid configuration for stack '${stack}'`);
  for (const w of settings.bag.warnings()) pulumi.log.warn(formatDiagnostic(w));

  const outputs: StackOutputs = { vims: {}, vnfs: {}, kubeconfigs: {}, magnumClusters: {}, controlPlanes: {}, networkServices: {} };
  const vims = new Map<string, KubernetesVim | OpenStackVim>();
  /** The networks each control plane made, by its VIM's name. */
  const cloudNetworks = new Map<string, Record<string, pulumi.Output<string>>>();
  /** A VM VNF's `ext_networks` as network ids by link (settings checked each names its control plane's network). */
  const extNetworkIds: ExtNetworkIds = (p) =>
    p.entry.extNetworks && Object.fromEntries(Object.entries(p.entry.extNetworks).map(([link, net]) => [link, cloudNetworks.get(p.entry.vim!)![net]]));
  for (const entry of settings.vims) {
    // Credentials become secrets in vimFromSpec, the moment they leave the config.
    const vim = entry.spec
      ? vimFromSpec(entry.name, entry.spec, { renderYamlToDirectory: entry.renderYamlToDirectory })
      : await referencedKubernetesVim(entry.name, entry.stackReference!);
    vims.set(entry.name, vim);
    outputs.vims[entry.name] = vim.vimRecord;
    if (vim instanceof KubernetesVim) outputs.kubeconfigs[entry.name] = vim.kubeconfig;
  }
  const renderModes = new Set(settings.vims.filter((v) => v.renderYamlToDirectory).map((v) => v.name));
  // Registries first: a cluster's `private_registries` takes their connection info. Clusters next:
  // each is a Kubernetes VIM of its own, which the CNFs after them may target.
  const registries = new Map<string, pulumi.Output<RegistryConnectionInfo>>();
  const isRegistry = (p: PreparedVnf) => p.component === "private-registry" || p.component === "registry-on-host";
  for (const p of settings.vnfs.filter(isRegistry)) outputs.vnfs[p.entry.name] = registerVnf(p, vims, renderModes, registries, outputs.vnfs, extNetworkIds);
  for (const p of settings.vnfs.filter((v) => v.component === "kubernetes-cluster")) {
    const cluster = registerCluster(p, vims.get(p.entry.vim!) as OpenStackVim, registries);
    outputs.vnfs[p.entry.name] = pulumi.output({
      component: p.component,
      vim: p.entry.vim,
      vimName: cluster.vimName,
      endpoint: cluster.endpoint,
      caCertificate: cluster.caCertificate,
      vnfcs: cluster.vnf.vnfcs,
      scaleLevels: cluster.vnf.scaleLevels,
    });
    // The cluster is a Kubernetes VIM of its own: its kubeconfig (secret) under the VIM's name.
    vims.set(cluster.vimName, cluster.vim);
    outputs.kubeconfigs[cluster.vimName] = pulumi.secret(cluster.kubeconfig);
    outputs.vims[cluster.vimName] = cluster.vim.vimRecord;
  }
  for (const m of settings.magnumClusters) {
    const cluster = new MagnumCluster(m.name, { ...m.args, provider: (vims.get(m.vim) as OpenStackVim).provider });
    const vimName = cluster.vimName;
    outputs.magnumClusters[m.name] = pulumi.output({
      vim: m.vim,
      vimName,
      endpoint: cluster.endpoint,
      caCertificate: cluster.caCertificate,
      clusterId: cluster.cluster.id,
      stackId: cluster.cluster.stackId,
      nodeCount: cluster.cluster.nodeCount,
    });
    vims.set(vimName, cluster.vim);
    outputs.kubeconfigs[vimName] = pulumi.secret(cluster.kubeconfig);
    outputs.vims[vimName] = cluster.vim.vimRecord;
  }
  // OpenStack control planes on the Kubernetes VIMs (a cluster's too): each an OpenStack VIM of its own.
  for (const c of settings.controlPlanes) {
    const { name, vim, vimName, adminPassword, passwordSeed, ...args } = c;
    const cp = new ControlPlane(name, {
      ...args,
      vim: vims.get(vim) as KubernetesVim,
      vimName,
      // Secrets the moment they leave the config.
      adminPassword: pulumi.secret(adminPassword),
      passwordSeed: pulumi.secret(passwordSeed),
    });
    vims.set(vimName, cp.vim);
    cloudNetworks.set(vimName, cp.networkIds);
    outputs.vims[vimName] = cp.vim.vimRecord;
    outputs.controlPlanes[name] = pulumi.output({ vim, vimName, authUrl: cp.authUrl, services: cp.services, networkIds: cp.networkIds });
  }
  // The rest, each after the VNFs its hook_parameters refer to (settings checked there is no cycle);
  // the VNFs of a network service together, by its NetworkService.
  const rest = settings.vnfs.filter((v) => !isRegistry(v) && v.component !== "kubernetes-cluster");
  const nsOf = (name: string) => settings.networkServices.find((ns) => Object.values(ns.vnfs).includes(name));
  const done = new Set<string>();
  const register = (p: PreparedVnf) => {
    if (done.has(p.entry.name)) return;
    const ns = nsOf(p.entry.name);
    const members = ns ? rest.filter((q) => Object.values(ns.vnfs).includes(q.entry.name)) : [p];
    for (const m of members) done.add(m.entry.name);
    for (const target of members.flatMap((m) => referencedVnfs(m.entry.hookParameters))) {
      const q = rest.find((x) => x.entry.name === target);
      if (q) register(q);
    }
    if (ns) registerNetworkService(ns, members, vims, renderModes, outputs, extNetworkIds);
    else outputs.vnfs[p.entry.name] = registerVnf(p, vims, renderModes, registries, outputs.vnfs, extNetworkIds);
  };
  for (const p of rest) register(p);
  return outputs;
}

/**
 * A network service: its constituents' args made as for VNFs of their own, each when the
 * constituents before it in the NSD's order exist (its hook_parameters may refer to them), and
 * their outputs under their own entry names, as any VNF's.
 */
function registerNetworkService(
  ns: NsEntry,
  members: PreparedVnf[],
  vims: Map<string, KubernetesVim | OpenStackVim>,
  renderModes: Set<string>,
  outputs: StackOutputs,
  extNetworkIds: ExtNetworkIds,
): void {
  const plan = ns.plan!;
  const entryOf = (id: string) => members.find((m) => m.entry.name === ns.vnfs[id])!;
  const firstVm = plan.vnfs.find((v) => v.component === "vm-vnf");
  const linkVim = firstVm ? (vims.get(entryOf(firstVm.id).entry.vim!) as OpenStackVim) : undefined;
  const summaries = (before: Readonly<Record<string, VmVnf | ContainerizedVnf>>) => {
    for (const [id, c] of Object.entries(before)) outputs.vnfs[ns.vnfs[id]] ??= c instanceof VmVnf ? vmVnfSummary(entryOf(id), c) : cnfSummary(entryOf(id), c);
    return outputs.vnfs;
  };
  const vmVnfs: Record<string, (before: Readonly<Record<string, VmVnf | ContainerizedVnf>>) => VmVnfArgs> = {};
  const cnfs: Record<string, ContainerizedVnfArgs> = {};
  for (const v of plan.vnfs) {
    const p = entryOf(v.id);
    const vim = vims.get(p.entry.vim!)!;
    if (v.component === "vm-vnf") vmVnfs[v.id] = (before) => vmVnfArgs(p, vim as OpenStackVim, summaries(before), extNetworkIds(p));
    else cnfs[v.id] = cnfArgs(p, vim as KubernetesVim, renderModes);
  }
  // The links are made on the VIM of the NS's first VM VNF (the NSD's order).
  const service = new NetworkService(ns.name, { plan, provider: linkVim?.provider, linkNetworkIds: ns.links, vmVnfs, cnfs });
  summaries(service.vnfs);
  outputs.networkServices[ns.name] = pulumi.output({ vnfs: ns.vnfs, linkNetworkIds: service.linkNetworkIds });
}

/** The VDUs of the request's flavour that have the SSH CP. */
function sshVdus(model: VnfModel, request: InstantiateVnfRequest, cpId: string | undefined): string[] {
  const flavour = model.flavours.find((f) => f.id === request.flavourId);
  return (flavour?.cps ?? []).filter((c) => c.id === cpId).map((c) => c.vduId);
}

function privateKey(login: SshLogin | undefined): pulumi.Output<string> | undefined {
  return login?.privateKeyFile ? pulumi.secret(readFileSync(login.privateKeyFile, "utf8")) : undefined;
}

/** A Kubernetes cluster on the OpenStack VIM: K8sCluster with the entry's `cluster` settings. */
function registerCluster(p: PreparedVnf, vim: OpenStackVim, registries: Map<string, pulumi.Output<RegistryConnectionInfo>>): K8sCluster {
  const { entry } = p;
  const c = entry.cluster!;
  return new K8sCluster(entry.name, {
    flavours: p.model!.flavours,
    request: p.request!,
    provider: vim.provider,
    packageSource: p.pkg?.source,
    versions: c.versions,
    sandboxImage: c.sandboxImage,
    ...(c.imageRepository ? { imageRepository: c.imageRepository } : {}),
    ...(c.kubeProxyConntrackMaxPerCore !== undefined ? { kubeProxyConntrackMaxPerCore: c.kubeProxyConntrackMaxPerCore } : {}),
    ...(c.cniManifest ? { cniManifest: c.cniManifest } : {}),
    ...(c.aptSourceFile ? { aptSource: readFileSync(c.aptSourceFile, "utf8") } : {}),
    ...(c.floatingIp ? { floatingIp: c.floatingIp } : {}),
    ...(c.serverGroups ? { serverGroups: c.serverGroups } : {}),
    ...(c.privateRegistries ? { registries: c.privateRegistries.map((r) => registries.get(r)!) } : {}),
    placement: vim,
    scaleLevels: entry.scaleLevels,
    healGenerations: entry.healGenerations,
    healGeneration: entry.healGeneration,
    sshPrivateKey: privateKey(entry.ssh),
    sshHostKey: entry.ssh?.hostKey,
    sshPublicKey: entry.ssh?.publicKey,
  });
}

function registerVnf(
  p: PreparedVnf,
  vims: Map<string, KubernetesVim | OpenStackVim>,
  renderModes: Set<string>,
  registries: Map<string, pulumi.Output<RegistryConnectionInfo>>,
  vnfOutputs: Record<string, pulumi.Output<unknown>>,
  extNetworkIds: ExtNetworkIds,
): pulumi.Output<unknown> {
  const { entry } = p;
  if (p.component === "registry-on-host") {
    const host = entry.host!;
    const registry = new PrivateRegistry(entry.name, {
      host: {
        host: host.address,
        port: host.port,
        user: host.user,
        privateKey: privateKey(host),
        hostKey: host.hostKey,
        healGeneration: entry.healGenerations?.[HOST_VNFC],
      },
      installationParam: entry.installationParam,
      mode: entry.mode,
    });
    registries.set(entry.name, registry.connectionInfo);
    return pulumi.output({
      component: "private-registry",
      endpoint: registry.endpoint,
      connectionInfo: registry.connectionInfo,
      vnfcs: { [HOST_VNFC]: { address: host.address } },
    });
  }
  const vim = vims.get(entry.vim!)!;
  if (p.component === "container-vnf" && vim instanceof KubernetesVim) return cnfSummary(p, new ContainerizedVnf(entry.name, cnfArgs(p, vim, renderModes)));
  if (vim instanceof OpenStackVim && p.component === "private-registry") {
    const registry = new PrivateRegistry(entry.name, {
      vnf: {
        flavours: p.model!.flavours,
        request: p.request!,
        provider: vim.provider,
        packageSource: p.pkg?.source,
        sshPrivateKey: privateKey(entry.ssh),
        sshHostKey: entry.ssh?.hostKey,
        sshPublicKey: entry.ssh?.publicKey,
        healGenerations: entry.healGenerations,
      },
      installationParam: entry.installationParam,
      mode: entry.mode,
    });
    registries.set(entry.name, registry.connectionInfo);
    return pulumi.output({
      component: p.component,
      vim: entry.vim,
      endpoint: registry.endpoint,
      connectionInfo: registry.connectionInfo,
      vnfcs: registry.vnf?.vnfcs,
    });
  }
  return vmVnfSummary(p, new VmVnf(entry.name, vmVnfArgs(p, vim as OpenStackVim, vnfOutputs, extNetworkIds(p))));
}

function cnfArgs(p: PreparedVnf, vim: KubernetesVim, renderModes: Set<string>): ContainerizedVnfArgs {
  const { entry } = p;
  const request = p.request!;
  return {
    vim,
    model: p.model!,
    flavourId: request.flavourId,
    instantiationLevelId: request.instantiationLevelId,
    additionalParams: request.additionalParams,
    vnfInstanceId: entry.vnfInstanceId,
    manifests: manifestReader(p.pkg!.source),
    packageSource: p.pkg!.source,
    scaleLevels: entry.scaleLevels,
    healGeneration: entry.healGeneration,
    // Adoption is checked against a live API server; a rendering VIM has none.
    refuseAdoption: !renderModes.has(entry.vim!),
  };
}

function cnfSummary(p: PreparedVnf, cnf: ContainerizedVnf): pulumi.Output<unknown> {
  return pulumi.output({
    component: p.component,
    vim: p.entry.vim,
    vnfInstanceId: p.entry.vnfInstanceId,
    namespace: cnf.namespace,
    vnfcs: cnf.vnfcs,
    objects: cnf.objects,
    services: cnf.services,
  });
}

/** A VM VNF's `ext_networks` as the ids of its control plane's networks, by link id. */
type ExtNetworkIds = (p: PreparedVnf) => Record<string, pulumi.Output<string>> | undefined;

/** A VM VNF's args; its hook_parameters' references resolved from `vnfOutputs` (the VNFs registered before it). */
function vmVnfArgs(
  p: PreparedVnf,
  vim: OpenStackVim,
  vnfOutputs: Record<string, pulumi.Output<unknown>>,
  externalNetworkIds: Record<string, pulumi.Output<string>> | undefined,
): VmVnfArgs {
  const { entry } = p;
  const model = p.model!;
  const request = p.request!;
  const stdin = entry.hookParameters ? hookStdin(entry.hookParameters, vnfOutputs) : undefined;
  return {
    flavours: model.flavours,
    request,
    provider: vim.provider,
    packageSource: p.pkg?.source,
    scaleLevels: entry.scaleLevels,
    healGenerations: entry.healGenerations,
    ...(p.previousModel ? { previousPackage: { flavours: p.previousModel.flavours, pendingVnfcs: entry.packageChange?.pending ?? [] } } : {}),
    ...(entry.packageGenerations ? { packageGenerations: entry.packageGenerations } : {}),
    sshPublicKey: entry.ssh?.publicKey,
    ...(entry.ssh?.cpId
      ? { ssh: { cpId: entry.ssh.cpId, user: entry.ssh.user, privateKey: privateKey(entry.ssh), hostKey: entry.ssh.hostKey, port: entry.ssh.port } }
      : {}),
    // The operation's name is the script's first argument, so one script may serve several.
    // Hooks run on the VNFCs that have the SSH CP (a VNFC without it cannot be reached).
    hooks: Object.entries(entry.hooks ?? {}).map(([operation, script]) => ({
      operation: operation as LcmOperation,
      script,
      args: [operation],
      vdus: sshVdus(model, request, entry.ssh?.cpId),
      ...(stdin ? { stdin } : {}),
    })),
    ...(externalNetworkIds ? { externalNetworkIds } : {}),
    ...(entry.extConnChange ? { extConnChange: { generation: entry.extConnChange.generation, previousAddresses: entry.extConnChange.previousAddresses } } : {}),
  };
}

function vmVnfSummary(p: PreparedVnf, vnf: VmVnf): pulumi.Output<unknown> {
  return pulumi.output({ component: p.component, vim: p.entry.vim, vnfcs: vnf.vnfcs, scaleLevels: vnf.scaleLevels });
}
