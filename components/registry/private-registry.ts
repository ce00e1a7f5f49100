import * as path from "node:path";
import type * as openstack from "@pulumi/openstack";
import * as pulumi from "@pulumi/pulumi";
import { DiagnosticError } from "../../translators/diagnostics";
import { DEFAULT_REGISTRY_STORAGE_GIB, REGISTRY_STORAGE_ID } from "../../translators/graph/component-resources";
import type { InstantiateVnfRequest } from "../../translators/tacker/instantiate-request";
import type { Flavour } from "../../translators/tosca/model";
import type { PackageSource } from "../../translators/tosca/phase1-read/package-source";
import { isDebianVersion, proxyFileFields } from "../host-files";
import { REMOTE_DIR, wireHooks, type HookCommand, type HookFile, type HookScript } from "../vnf/hooks";
import { planVmVnf } from "../vnf/plan";
import { VmVnf } from "../vnf/vm-vnf";
import { HOST_VNFC, PARAM_KEY, readRegistryInstallation, registryStdin, type RegistryInstallation } from "./params";

/** The install script, `mgmt/registry/install-registry.sh`: beside the sources, and in `dist/` where the build copies it (tools/copy-host-scripts.mjs). */
export const INSTALL_SCRIPT = path.join(__dirname, "../../mgmt/registry/install-registry.sh");
/** Where an `image_path` tarball is copied on the VM. */
export const REMOTE_IMAGE_TARBALL = `${REMOTE_DIR}/registry-image.tar`;
/** Storage id of the registry's Cinder volume inside the VmVnf (the component graph's, which shows it). */
export const STORAGE_ID = REGISTRY_STORAGE_ID;
/** Tacker's Mgmt Driver artifact names whose hooks this component implements. */
const DRIVER_FILES = ["private_registry_mgmt.py"];

/** The registry VNF from the package, on an OpenStack VIM. */
export interface RegistryVnfArgs {
  /** Every flavour of the registry package's model. */
  flavours: Flavour[];
  /** The InstantiateVnfRequest (the seed's `private_registry_param_file.json` as it is). */
  request: InstantiateVnfRequest;
  /**
   * `OpenStackVim.provider`, for the VmVnf and everything in it. Without it, the `openstack`
   * provider of the PrivateRegistry's `opts.providers` (or `opts.provider`), as in `VmVnfArgs.provider`.
   */
  provider?: openstack.Provider;
  /** The package as read (`openPackage(path).source`, a directory or a zip): `image_path` and image upload read through it. */
  packageSource?: PackageSource;
  /** Package root directory, when no `packageSource` is given. */
  packageDir?: string;
  /** `lookup` (default) or `upload` the VDU image. */
  images?: "lookup" | "upload";
  /** SSH private key (preferred over `ssh_password`); secret. */
  sshPrivateKey?: pulumi.Input<string>;
  /** Pinned SSH host key (authorized_keys format). */
  sshHostKey?: pulumi.Input<string>;
  /** Size of the persistent Cinder volume for registry storage, GiB; default 20; 0 = root disk (lost on heal). */
  storageGib?: number;
  /** Heal generation per VNFC id (stack config, from `planHeal`). */
  healGenerations?: Record<string, number>;
  /** Passed to VmVnf. */
  keyPair?: pulumi.Input<string>;
  /** Passed to VmVnf: a Nova key pair made from this OpenSSH public key (the pair of `sshPrivateKey`). */
  sshPublicKey?: pulumi.Input<string>;
  securityGroupIds?: Record<string, pulumi.Input<string>[]>;
  flavorNames?: Record<string, string>;
  userData?: Record<string, pulumi.Input<string>>;
}

/** A host outside OpenStack. */
export interface RegistryHostArgs {
  host: pulumi.Input<string>;
  /** SSH port; default 22. */
  port?: pulumi.Input<number>;
  user: pulumi.Input<string>;
  privateKey?: pulumi.Input<string>;
  password?: pulumi.Input<string>;
  hostKey?: pulumi.Input<string>;
  /** The package `image_path` is a file of (a directory or a zip). */
  packageSource?: PackageSource;
  /** Directory `image_path` is relative to, when no `packageSource` is given. */
  packageDir?: string;
  /**
   * Heal generation of the host's VNFC (`host`), raised by `nfv heal`. The host is not ours to
   * replace, so from 1 on the installation runs again as the `heal_end` hook (as Tacker's registry
   * driver does), with a trigger on this value: it restarts a stopped registry and restores its
   * configuration, keeping the stored images.
   */
  healGeneration?: number;
}

export interface PrivateRegistryArgs {
  /** Deploy the registry package as a VmVnf. Exactly one of `vnf` and `host`. */
  vnf?: RegistryVnfArgs;
  /** Install on an existing host. */
  host?: RegistryHostArgs;
  /** `private_registry_installation_param`; default: `vnf.request.additionalParams.private_registry_installation_param`. */
  installationParam?: Record<string, unknown>;
  /** `container` (default; Docker + registry image, as Tacker) or `native` (Debian's docker-registry, no Docker). */
  mode?: "container" | "native";
  /** Container mode: pinned registry image; default `registry:2.8.3`. */
  registryImage?: string;
  /** Container mode: apt version of `docker.io` to pin. */
  dockerPackageVersion?: string;
  /** Native mode: apt version of `docker-registry` to pin. */
  registryPackageVersion?: string;
  /** Serve TLS with this certificate and key (PEM); secrets. */
  tls?: { certificate: pulumi.Input<string>; privateKey: pulumi.Input<string> };
  /** htpasswd auth; the password is a secret. */
  auth?: { username: pulumi.Input<string>; password: pulumi.Input<string> };
}

/** One item of the Kubernetes cluster's `private_registry_connection_info`, or of K8sClusterArgs.registries. */
export interface RegistryConnectionInfo {
  connection_type: "0" | "1";
  server: string;
  username?: string;
  password?: string;
  /** `/etc/hosts` line, `IP FQDN`. */
  hosts_string?: string;
  /**
   * The CA to trust (PEM), for HTTPS: content, where Tacker's item has a package path
   * (`certificate_path`). A PrivateRegistry gives its own certificate: containerd (Go) trusts a
   * server certificate that is itself in the trusted set, self-signed or not.
   */
  ca_certificate?: string;
}

export class PrivateRegistry extends pulumi.ComponentResource {
  /** `ip:port`. */
  readonly endpoint: pulumi.Output<string>;
  /** Pass unchanged as an item of `private_registry_connection_info`; secret when it carries a password. */
  readonly connectionInfo: pulumi.Output<RegistryConnectionInfo>;
  /** The VmVnf, in `vnf` form. */
  readonly vnf?: VmVnf;
  /** Install commands, in `host` form (in `vnf` form see `vnf.hookCommands`). */
  readonly hostCommands?: Map<string, HookCommand>;
  readonly installation: RegistryInstallation;

  constructor(name: string, args: PrivateRegistryArgs, opts?: pulumi.ComponentResourceOptions) {
    // Everything is checked before anything, even this component, is registered.
    const installation = checkArgs(args);
    super("nfv:registry:PrivateRegistry", name, {}, opts);
    this.installation = installation;
    const mode = args.mode ?? "container";
    const tls = args.tls ? pulumi.all([args.tls.certificate, args.tls.privateKey]) : pulumi.output<[string, string] | undefined>(undefined);
    const auth = args.auth ? pulumi.all([args.auth.username, args.auth.password]) : pulumi.output<[string, string] | undefined>(undefined);
    const storageGib = args.vnf ? (args.vnf.storageGib ?? DEFAULT_REGISTRY_STORAGE_GIB) : 0;
    const b64 = (s: string) => Buffer.from(s).toString("base64");
    const stdin = pulumi.secret(
      pulumi.all([tls, auth]).apply(([t, a]) =>
        registryStdin({
          MODE: mode,
          PORT: String(installation.portNo),
          REGISTRY_IMAGE: mode === "container" ? (args.registryImage ?? "registry:2.8.3") : undefined,
          IMAGE_TARBALL: installation.imageFile && mode === "container" ? REMOTE_IMAGE_TARBALL : undefined,
          DOCKER_PACKAGE_VERSION: args.dockerPackageVersion,
          REGISTRY_PACKAGE_VERSION: args.registryPackageVersion,
          ...proxyFileFields({ ...installation.proxy, noProxy: installation.proxy.noProxy?.join(",") }),
          TLS_CERT_B64: t ? b64(t[0]) : undefined,
          TLS_KEY_B64: t ? b64(t[1]) : undefined,
          AUTH_USER: a?.[0],
          AUTH_PASSWORD: a?.[1],
          STORAGE_VOLUME_ID: storageGib > 0 ? `\${volume:${STORAGE_ID}}` : undefined,
        }),
      ),
    );
    const files: HookFile[] = installation.imageFile && mode === "container" ? [{ source: installation.imageFile, remotePath: REMOTE_IMAGE_TARBALL }] : [];

    let host: pulumi.Output<string>;
    if (args.vnf) {
      const v = args.vnf;
      const flavour = v.flavours.find((f) => f.id === v.request.flavourId);
      // The registry script implements the operations the VNFD gives to Tacker's registry driver.
      const ops = (flavour?.lcmHooks ?? []).filter((h) => DRIVER_FILES.includes(path.posix.basename(h.file))).map((h) => h.operation);
      const hooks: HookScript[] = ops
        .filter((op) => op === "instantiate_end" || op === "heal_end")
        .map((operation) => ({ operation: operation as HookScript["operation"], script: INSTALL_SCRIPT, stdin }));
      const vduIds = flavour?.vdus.map((d) => d.id) ?? [];
      this.vnf = new VmVnf(
        `${name}-vnf`,
        {
          flavours: v.flavours,
          request: v.request,
          provider: v.provider,
          images: v.images,
          packageSource: v.packageSource,
          packageDir: v.packageDir,
          healGenerations: v.healGenerations,
          keyPair: v.keyPair,
          sshPublicKey: v.sshPublicKey,
          securityGroupIds: v.securityGroupIds,
          flavorNames: v.flavorNames,
          userData: v.userData,
          extraStorages: storageGib > 0 ? [{ id: STORAGE_ID, sizeGib: storageGib, vduIds }] : [],
          hooks,
          files,
          ssh: {
            cpId: installation.sshCpName!,
            user: installation.sshUsername,
            ...(v.sshPrivateKey !== undefined ? { privateKey: v.sshPrivateKey } : {}),
            ...(installation.sshPassword !== undefined ? { password: installation.sshPassword } : {}),
            ...(v.sshHostKey !== undefined ? { hostKey: v.sshHostKey } : {}),
          },
        },
        { parent: this },
      );
      const cp = installation.sshCpName!;
      host = this.vnf.vnfcs.apply((m) => Object.values(m).sort((a, b) => a.index - b.index)[0]?.ports[cp]?.ips[0] ?? "");
    } else {
      const h = args.host!;
      host = pulumi.output(h.host);
      const wired = wireHooks(
        this,
        name,
        [{ id: HOST_VNFC, vduId: HOST_VNFC, scaledOut: false, host: h.host, serverId: h.host, dependsOn: [], healGeneration: h.healGeneration ?? 0 }],
        [
          { operation: "instantiate_end", script: INSTALL_SCRIPT, stdin },
          { operation: "heal_end", script: INSTALL_SCRIPT, stdin },
          // The host outlives the stack: destroy stops the registry that up started there.
          { operation: "terminate_end", script: INSTALL_SCRIPT, args: ["remove"], stdin },
        ],
        files,
        {
          cpId: "",
          user: h.user,
          ...(h.port !== undefined ? { port: h.port } : {}),
          ...(h.privateKey !== undefined ? { privateKey: h.privateKey } : {}),
          ...(h.password !== undefined || installation.sshPassword !== undefined ? { password: h.password ?? installation.sshPassword } : {}),
          ...(h.hostKey !== undefined ? { hostKey: h.hostKey } : {}),
        },
      );
      this.hostCommands = wired.commands;
    }
    this.endpoint = pulumi.interpolate`${host}:${installation.portNo}`;
    const info = pulumi.all([this.endpoint, auth, tls]).apply(([server, a, t]) => {
      const rec: RegistryConnectionInfo = { connection_type: t ? "1" : "0", server };
      if (t) rec.ca_certificate = t[0];
      if (a) {
        rec.username = a[0];
        rec.password = a[1];
      }
      return rec;
    });
    this.connectionInfo = args.auth ? pulumi.secret(info) : info;
    this.registerOutputs({ endpoint: this.endpoint, connectionInfo: this.connectionInfo });
  }
}

function checkArgs(args: PrivateRegistryArgs): RegistryInstallation {
  if ((args.vnf === undefined) === (args.host === undefined)) {
    throw new DiagnosticError("invalid PrivateRegistry arguments", [
      { severity: "error", code: "REGISTRY_TARGET", message: "give exactly one of `vnf` (the registry package on OpenStack) and `host` (an existing host)" },
    ]);
  }
  const raw = args.installationParam ?? (args.vnf?.request.additionalParams?.[PARAM_KEY] as unknown);
  const flavour = args.vnf?.flavours.find((f) => f.id === args.vnf!.request.flavourId);
  if (args.vnf && !flavour) {
    throw new DiagnosticError("invalid private registry parameters", [
      {
        severity: "error",
        code: "VNF_UNKNOWN_FLAVOUR",
        path: "flavourId",
        message: `flavourId \`${args.vnf.request.flavourId}\` is not a flavour of the VNFD (flavours: ${args.vnf.flavours.map((f) => f.id).join(", ") || "none"})`,
      },
    ]);
  }
  const { value, bag } = readRegistryInstallation(raw, {
    cpIds: args.vnf ? (flavour?.cps.map((c) => c.id) ?? []) : undefined,
    packageSource: args.vnf?.packageSource ?? args.host?.packageSource,
    packageDir: args.vnf?.packageDir ?? args.host?.packageDir,
    sshUsername: typeof args.host?.user === "string" ? args.host.user : undefined,
  });
  if (args.vnf && value && value.sshPassword === undefined && args.vnf.sshPrivateKey === undefined) {
    bag.error("REGISTRY_SSH_AUTH", "`ssh_password` or `vnf.sshPrivateKey` is required", { path: `additionalParams.${PARAM_KEY}.ssh_password` });
  }
  if (args.host && args.host.privateKey === undefined && args.host.password === undefined && value?.sshPassword === undefined) {
    bag.error("REGISTRY_SSH_AUTH", "`host.privateKey` or a password is required", { path: "host" });
  }
  if (args.mode !== undefined && args.mode !== "container" && args.mode !== "native")
    bag.error("REGISTRY_MODE", `mode must be container or native, got ${String(args.mode)}`, { path: "mode" });
  if (args.registryImage !== undefined && (!args.registryImage.includes(":") || args.registryImage.endsWith(":latest"))) {
    bag.error("REGISTRY_IMAGE", `registryImage ${args.registryImage} must be pinned (name:tag, not latest)`, { path: "registryImage" });
  }
  // Each becomes one `apt-get install` argument: Debian's version grammar, so never an apt option.
  for (const k of ["dockerPackageVersion", "registryPackageVersion"] as const) {
    const v = args[k];
    if (v !== undefined && !isDebianVersion(v)) bag.error("REGISTRY_PACKAGE_VERSION", `${k} is not a Debian package version`, { path: k });
  }
  bag.throwIfErrors("invalid private registry parameters");
  // The VNF's own checks (cpdId, levels, …) too, so that nothing is registered when they fail.
  if (args.vnf) planVmVnf(args.vnf.flavours, args.vnf.request, { extraStorages: [] });
  return value!;
}
