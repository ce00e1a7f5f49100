/**
 * The Pulumi program: stack config in, components out. Everything is validated first (VIMs,
 * VNF entries, their packages, requests and component graphs), so an invalid config registers
 * nothing.
 */
import { readFileSync } from "node:fs";
import * as pulumi from "@pulumi/pulumi";
import { ContainerizedVnf } from "../components/cnf";
import { PrivateRegistry } from "../components/registry";
import { KubernetesVim, OpenStackVim, type TackerVimRecord } from "../components/vim";
import { VmVnf } from "../components/vnf";
import { DiagnosticBag, formatDiagnostic } from "../translators/diagnostics";
import { manifestReader } from "../translators/kubernetes/manifests";
import type { VimSpec } from "../translators/tacker/vim-config";
import { findProjectRoot, loadStackFile, PROJECT, readStackConfig, type VimEntry } from "./config";
import { prepareVnfs, readVnfEntries, type PreparedVnf, type SshLogin } from "./vnfs";

export interface StackOutputs {
  /** Every registered VIM's Tacker record, by name. */
  vims: Record<string, pulumi.Output<TackerVimRecord>>;
  /** Per VNF: the component that realises it and what operators need (VNFCs, endpoint, …). */
  vnfs: Record<string, pulumi.Output<unknown>>;
  /** Kubeconfig of each Kubernetes VIM (secret): `nfv heal` of a CNF uses it. */
  kubeconfigs: Record<string, pulumi.Output<string>>;
}

export async function deployStack(): Promise<StackOutputs> {
  const stack = pulumi.getStack();
  const config = new pulumi.Config(PROJECT);
  const root = findProjectRoot();
  const stackFile = loadStackFile(root, stack);
  const { config: settings, bag } = readStackConfig({ vims: config.getObject("vims") }, root, stackFile);
  const vimTypes = new Map(settings.vims.map((v) => [v.name, v.spec.type]));
  const inStack = (p: readonly (string | number)[], key?: boolean) => {
    const full = ["config", `${PROJECT}:vnfs`, ...p];
    return { ...(stackFile ? (key ? stackFile.keyLocation(full) : stackFile.location(full)) : {}), path: `${PROJECT}:vnfs.${p.join(".")}` };
  };
  const entries = readVnfEntries(config.getObject("vnfs"), stack, root, vimTypes, inStack, bag);
  const prepared = bag.hasErrors() ? [] : await prepareVnfs(entries, bag);
  for (const p of prepared) checkVimKind(p, vimTypes, bag);
  bag.throwIfErrors(`invalid configuration for stack '${stack}'`);
  for (const w of bag.warnings()) pulumi.log.warn(formatDiagnostic(w));

  const outputs: StackOutputs = { vims: {}, vnfs: {}, kubeconfigs: {} };
  const vims = new Map<string, KubernetesVim | OpenStackVim>();
  for (const entry of settings.vims) {
    const vim = registerVim(entry);
    vims.set(entry.name, vim);
    outputs.vims[entry.name] = vim.vimRecord;
    if (vim instanceof KubernetesVim) outputs.kubeconfigs[entry.name] = vim.kubeconfig;
  }
  const renderModes = new Set(settings.vims.filter((v) => v.renderYamlToDirectory).map((v) => v.name));
  for (const p of prepared) outputs.vnfs[p.entry.name] = registerVnf(p, vims, renderModes);
  return outputs;
}

/** A component needs its kind of VIM: CNFs a Kubernetes one, VM-based VNFs an OpenStack one. */
function checkVimKind(p: PreparedVnf, vimTypes: Map<string, string>, bag: DiagnosticBag): void {
  if (p.component === "registry-on-host" || !p.entry.vim) return;
  const want = p.component === "container-vnf" ? "kubernetes" : "openstack";
  if (p.component === "kubernetes-cluster") {
    bag.error("VNF_UNSUPPORTED", `VNF '${p.entry.name}' is a Kubernetes cluster: the cluster component is not available yet`, { path: `${PROJECT}:vnfs.${p.entry.name}` });
  } else if (vimTypes.get(p.entry.vim) !== want) {
    bag.error("CONFIG_WRONG_VIM", `VNF '${p.entry.name}' is a ${p.component} and needs a VIM of type ${want}; '${p.entry.vim}' is ${vimTypes.get(p.entry.vim)}`, { path: `${PROJECT}:vnfs.${p.entry.name}.vim` });
  }
}

/** Credentials become secrets here, the moment they leave the config. */
export function registerVim(entry: VimEntry): KubernetesVim | OpenStackVim {
  const spec: VimSpec = entry.spec;
  const secret = (v: string | undefined) => (v === undefined ? undefined : pulumi.secret(v));
  if (spec.type === "openstack") {
    return new OpenStackVim(entry.name, {
      authUrl: spec.authUrl,
      username: spec.username,
      password: pulumi.secret(spec.password),
      projectName: spec.projectName,
      projectDomainName: spec.projectDomainName,
      userDomainName: spec.userDomainName,
      certVerify: spec.certVerify,
      region: spec.region,
      caCert: secret(spec.caCert),
    });
  }
  return new KubernetesVim(entry.name, {
    authUrl: spec.authUrl,
    bearerToken: secret(spec.bearerToken),
    username: spec.username,
    password: secret(spec.password),
    sslCaCert: spec.sslCaCert === null ? null : pulumi.secret(spec.sslCaCert),
    clientCertificate: secret(spec.clientCertificate),
    clientKey: secret(spec.clientKey),
    projectName: spec.projectName,
    extra: spec.extra,
    renderYamlToDirectory: entry.renderYamlToDirectory,
  });
}

function privateKey(login: SshLogin | undefined): pulumi.Output<string> | undefined {
  return login?.privateKeyFile ? pulumi.secret(readFileSync(login.privateKeyFile, "utf8")) : undefined;
}

function registerVnf(p: PreparedVnf, vims: Map<string, KubernetesVim | OpenStackVim>, renderModes: Set<string>): pulumi.Output<unknown> {
  const { entry } = p;
  if (p.component === "registry-on-host") {
    const host = entry.host!;
    const registry = new PrivateRegistry(entry.name, {
      host: { host: host.address, port: host.port, user: host.user, privateKey: privateKey(host), hostKey: host.hostKey },
      installationParam: entry.installationParam,
      mode: entry.mode,
    });
    return pulumi.output({ component: "private-registry", endpoint: registry.endpoint, connectionInfo: registry.connectionInfo });
  }
  const vim = vims.get(entry.vim!)!;
  const model = p.model!;
  const request = p.request!;
  if (p.component === "container-vnf" && vim instanceof KubernetesVim) {
    const cnf = new ContainerizedVnf(entry.name, {
      vim,
      model,
      flavourId: request.flavourId,
      instantiationLevelId: request.instantiationLevelId,
      additionalParams: request.additionalParams,
      vnfInstanceId: entry.vnfInstanceId,
      manifests: manifestReader(p.pkg!.source),
      scaleLevels: entry.scaleLevels,
      healGeneration: entry.healGeneration,
      // Adoption is checked against a live API server; a rendering VIM has none.
      refuseAdoption: !renderModes.has(entry.vim!),
    });
    return pulumi.output({ component: p.component, vim: entry.vim, vnfInstanceId: entry.vnfInstanceId, namespace: cnf.namespace, vnfcs: cnf.vnfcs, objects: cnf.objects });
  }
  if (vim instanceof OpenStackVim && p.component === "private-registry") {
    const registry = new PrivateRegistry(entry.name, {
      vnf: {
        flavours: model.flavours,
        request,
        provider: vim.provider,
        packageDir: entry.packagePath!,
        sshPrivateKey: privateKey(entry.ssh),
        sshHostKey: entry.ssh?.hostKey,
        healGenerations: entry.healGenerations,
      },
      installationParam: entry.installationParam,
      mode: entry.mode,
    });
    return pulumi.output({ component: p.component, vim: entry.vim, endpoint: registry.endpoint, connectionInfo: registry.connectionInfo, vnfcs: registry.vnf?.vnfcs });
  }
  const vnf = new VmVnf(entry.name, {
    flavours: model.flavours,
    request,
    provider: (vim as OpenStackVim).provider,
    packageDir: entry.packagePath,
    scaleLevels: entry.scaleLevels,
    healGenerations: entry.healGenerations,
    ...(entry.ssh?.cpId ? { ssh: { cpId: entry.ssh.cpId, user: entry.ssh.user, privateKey: privateKey(entry.ssh), hostKey: entry.ssh.hostKey, port: entry.ssh.port } } : {}),
  });
  return pulumi.output({ component: p.component, vim: entry.vim, vnfcs: vnf.vnfcs, scaleLevels: vnf.scaleLevels });
}
