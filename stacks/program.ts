/**
 * The Pulumi program: stack config in, components out. Everything is validated first
 * (stacks/settings.ts), so an invalid config registers nothing.
 */
import { readFileSync } from "node:fs";
import * as pulumi from "@pulumi/pulumi";
import { ContainerizedVnf } from "../components/cnf";
import { HOST_VNFC, PrivateRegistry } from "../components/registry";
import { KubernetesVim, OpenStackVim, type TackerVimRecord } from "../components/vim";
import { VmVnf } from "../components/vnf";
import { formatDiagnostic } from "../translators/diagnostics";
import { manifestReader } from "../translators/kubernetes/manifests";
import type { VimSpec } from "../translators/tacker/vim-config";
import { findProjectRoot, loadStackFile, PROJECT, type VimEntry } from "./config";
import { loadStackSettings } from "./settings";
import type { PreparedVnf, SshLogin } from "./vnfs";

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
  const settings = await loadStackSettings({ vims: config.getObject("vims"), vnfs: config.getObject("vnfs") }, root, stack, loadStackFile(root, stack));
  settings.bag.throwIfErrors(`invalid configuration for stack '${stack}'`);
  for (const w of settings.bag.warnings()) pulumi.log.warn(formatDiagnostic(w));

  const outputs: StackOutputs = { vims: {}, vnfs: {}, kubeconfigs: {} };
  const vims = new Map<string, KubernetesVim | OpenStackVim>();
  for (const entry of settings.vims) {
    const vim = registerVim(entry);
    vims.set(entry.name, vim);
    outputs.vims[entry.name] = vim.vimRecord;
    if (vim instanceof KubernetesVim) outputs.kubeconfigs[entry.name] = vim.kubeconfig;
  }
  const renderModes = new Set(settings.vims.filter((v) => v.renderYamlToDirectory).map((v) => v.name));
  for (const p of settings.vnfs) outputs.vnfs[p.entry.name] = registerVnf(p, vims, renderModes);
  return outputs;
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
      host: { host: host.address, port: host.port, user: host.user, privateKey: privateKey(host), hostKey: host.hostKey, healGeneration: entry.healGenerations?.[HOST_VNFC] },
      installationParam: entry.installationParam,
      mode: entry.mode,
    });
    return pulumi.output({ component: "private-registry", endpoint: registry.endpoint, connectionInfo: registry.connectionInfo, vnfcs: { [HOST_VNFC]: { address: host.address } } });
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
