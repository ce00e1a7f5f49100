/**
 * The Pulumi program: stack config in, components out. Everything is validated first, so an
 * invalid config registers nothing.
 */
import * as pulumi from "@pulumi/pulumi";
import { KubernetesVim, OpenStackVim, type TackerVimRecord } from "../components/vim";
import { formatDiagnostic } from "../translators/diagnostics";
import type { VimSpec } from "../translators/tacker/vim-config";
import { findProjectRoot, loadStackFile, PROJECT, readStackConfig, type VimEntry } from "./config";

export interface StackOutputs {
  /** Every registered VIM's Tacker record, by name. */
  vims: Record<string, pulumi.Output<TackerVimRecord>>;
}

export function deployStack(): StackOutputs {
  const config = new pulumi.Config(PROJECT);
  const root = findProjectRoot();
  const { config: settings, bag } = readStackConfig({ vims: config.getObject("vims") }, root, loadStackFile(root, pulumi.getStack()));
  bag.throwIfErrors(`invalid configuration for stack '${pulumi.getStack()}'`);
  for (const w of bag.warnings()) pulumi.log.warn(formatDiagnostic(w));

  const vims: StackOutputs["vims"] = {};
  for (const entry of settings.vims) vims[entry.name] = registerVim(entry).vimRecord;
  return { vims };
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
