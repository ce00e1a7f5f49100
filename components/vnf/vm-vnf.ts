import * as openstack from "@pulumi/openstack";
import * as pulumi from "@pulumi/pulumi";
import type { InstantiateVnfRequest } from "../../translators/tacker/instantiate-request";
import type { Flavour } from "../../translators/tosca/model";
import type { PackageSource } from "../../translators/tosca/phase1-read/package-source";
import { extConnStartCommands, serverStartCommands, wireHooks, type HookCommand, type HookFile, type HookScript, type SshArgs, type VnfcTarget } from "./hooks";
import { planVmVnf, type ServerGroupPolicy, type PlannedPort, type PlannedVnfc, type VmVnfPlan } from "./plan";
import { componentPackageFileOnDisk } from "../package-file";
import { validateHooks } from "./validate-hooks";
import { slug } from "../slug";

/**
 * A VM-based VNF on an OpenStack VIM. `flavours`, `request`, `scaleLevels` and `healGenerations`
 * are plain values, not Inputs: they decide which resources exist, which must be known when the
 * program runs (and they come from files and stack config, which are).
 */
export interface VmVnfArgs {
  /** Every flavour of the VNF model (`translatePackage(dir).model.flavours`); `request.flavourId` picks one. */
  flavours: Flavour[];
  /** The Tacker InstantiateVnfRequest (param file) as `readInstantiateRequest` returns it. */
  request: InstantiateVnfRequest;
  /**
   * The VIM's provider (`OpenStackVim.provider`): every child and lookup uses it, whatever
   * `opts.providers` holds. Without it, they use the `openstack` provider of `opts.providers` (or
   * `opts.provider`, or one a parent passes down), as the children of any component do; with
   * none of these, Pulumi's default provider (the stack's `openstack:*` config).
   */
  provider?: openstack.Provider;
  /** Scale level per aspect (stack config); default: the instantiation level's `scale_info`. */
  scaleLevels?: Record<string, number>;
  /** Heal generation per VNFC id (stack config, raised by `nfv heal` through `planHeal`). */
  healGenerations?: Record<string, number>;
  /**
   * A change of package under way (`nfv change-vnfpkg`): the VNFCs in `pendingVnfcs` keep the
   * image and flavor their VDU has in the previous package's `flavours`; the others take the new.
   */
  previousPackage?: { flavours: Flavour[]; pendingVnfcs: string[] };
  /** Per VNFC id, the changes of package it went through; > 0 runs its `change_current_package_*` hooks (trigger). */
  packageGenerations?: Record<string, number>;
  /** Extra allowed address pairs (VIPs) per CP id; an address may be another resource's output (a VIP port's). */
  allowedAddressPairs?: Record<string, pulumi.Input<string>[]>;
  /**
   * Network ids of `request.extVirtualLinks` by link id, used instead of their `resourceId`: a
   * network made in the same program (an NS virtual link of a `NetworkService`), known only as an
   * output when this component is planned.
   */
  externalNetworkIds?: Record<string, pulumi.Input<string>>;
  /**
   * Resources each VNFC's server waits for, by VNFC id: on a heal the server is replaced only
   * after them (e.g. a Kubernetes node drained and removed from the cluster first).
   */
  serverDependsOn?: Record<string, pulumi.Resource[]>;
  /** Security group ids per CP id; CPs not listed get the project's default group. */
  securityGroupIds?: Record<string, pulumi.Input<string>[]>;
  /** `lookup` (default): Glance image by `sw_image_data.name`. `upload`: the package's artifact (components/package-file.ts). */
  images?: "lookup" | "upload";
  /** The package as read (a directory or a zip); for `images: "upload"`. */
  packageSource?: PackageSource;
  /** Package root directory, when no `packageSource` is given. */
  packageDir?: string;
  /** Nova flavor name per VDU id; default the VNFD's requested flavor, else a flavor sized from `virtual_compute` (needs admin). */
  flavorNames?: Record<string, string>;
  /** Nova key pair name for every server. */
  keyPair?: pulumi.Input<string>;
  /**
   * OpenSSH public key (`ssh-ed25519 AAAA…`): the component makes a Nova key pair `<name>-keypair`
   * from it for every server, so hooks log in with the matching private key. Ignored when `keyPair` is given.
   */
  sshPublicKey?: pulumi.Input<string>;
  /** cloud-init user data per VDU id. */
  userData?: Record<string, pulumi.Input<string>>;
  /** Extra Cinder volumes per VDU, as if the VNFD declared `Vdu.VirtualBlockStorage` (kept across heal). */
  extraStorages?: { id: string; sizeGib: number; vduIds: string[] }[];
  /** A Nova server group per VDU id with this policy, for VDUs no affinity rule of the VNFD names. */
  serverGroupPolicies?: Record<string, ServerGroupPolicy>;
  /** Mgmt Driver hooks: scripts per LCM operation. */
  hooks?: HookScript[];
  /** Files copied to VNFCs before hooks run. */
  files?: HookFile[];
  /** SSH access for hooks; required when `hooks` or `files` are given. */
  ssh?: SshArgs;
  /**
   * The last change of external connectivity (`nfv change-ext-conn`; `request` already has it
   * applied): from generation 1 on, the change hooks run, `_start` on each VNFC's previous address.
   */
  extConnChange?: { generation: number; previousAddresses: Record<string, string> };
}

/** One VNFC in the exported map. */
export interface VnfcInfo {
  vdu: string;
  index: number;
  serverUrn: string;
  serverId: string;
  /** Per CP id: the port and its IPs. */
  ports: Record<string, { portId: string; portUrn: string; ips: string[] }>;
  /** Every fixed IP of the VNFC, in CP order. */
  ips: string[];
  /** Volumes (kept across heal). */
  volumeUrns: string[];
}

export class VmVnf extends pulumi.ComponentResource {
  /** The plan the resources were made from (plain data). */
  readonly plan: VmVnfPlan;
  /** `vnfcId → {vdu, index, serverUrn, ports, ips}`. */
  readonly vnfcs: pulumi.Output<Record<string, VnfcInfo>>;
  readonly servers: Record<string, openstack.compute.Instance>;
  /** Ports keyed `${vnfcId}/${cpId}`. */
  readonly ports: Record<string, openstack.networking.Port>;
  /** Networks the component created, keyed by VL id. */
  readonly networks: Record<string, openstack.networking.Network>;
  /** Hook commands by resource name. */
  readonly hookCommands: Map<string, HookCommand>;
  /** Hook steps `vnfcId:operation` in run order. */
  readonly hookOrder: string[];
  /** Scale level per aspect in effect. */
  readonly scaleLevels: pulumi.Output<Record<string, number>>;

  constructor(name: string, args: VmVnfArgs, opts?: pulumi.ComponentResourceOptions) {
    // Everything is checked before anything, even this component, is registered.
    const plan = planVmVnf(args.flavours, args.request, {
      scaleLevels: args.scaleLevels,
      allowedAddressPairs: args.allowedAddressPairs,
      extraStorages: args.extraStorages,
      serverGroupPolicies: args.serverGroupPolicies,
    });
    validateHooks(name, plan, args);
    super("nfv:vnf:VmVnf", name, {}, opts);
    this.plan = plan;
    // Undefined: Pulumi gives each child and lookup the provider of `opts` or of a parent.
    const provider = args.provider;
    const child = (extra: pulumi.CustomResourceOptions = {}): pulumi.CustomResourceOptions => ({ parent: this, provider, ...extra });
    const invokeOpts: pulumi.InvokeOutputOptions = { parent: this, provider };

    // Networks: internal VLs are created; external ones are referenced.
    this.networks = {};
    const networkIds: Record<string, pulumi.Input<string>> = {};
    const subnetIds: Record<string, pulumi.Input<string>> = {};
    for (const n of plan.networks) {
      if (n.external) {
        networkIds[n.id] =
          args.externalNetworkIds?.[n.id] ??
          (n.resourceName !== undefined ? openstack.networking.getNetworkOutput({ name: n.resourceName }, invokeOpts).id : n.resourceId!);
        continue;
      }
      const net = new openstack.networking.Network(`${name}-${n.id}`, { name: `${name}-${n.id}`, adminStateUp: true }, child());
      const subnet = new openstack.networking.Subnet(
        `${name}-${n.id}-subnet`,
        {
          name: `${name}-${n.id}`,
          networkId: net.id,
          cidr: n.cidr!,
          ipVersion: n.ipVersion,
          enableDhcp: n.dhcpEnabled,
          ...(n.gatewayIp ? { gatewayIp: n.gatewayIp } : {}),
        },
        child(),
      );
      this.networks[n.id] = net;
      networkIds[n.id] = net.id;
      subnetIds[n.id] = subnet.id;
    }

    const serverGroups: Record<string, openstack.compute.ServerGroup> = {};
    for (const g of plan.serverGroups) {
      serverGroups[g.ruleId] = new openstack.compute.ServerGroup(`${name}-${g.ruleId}`, { name: `${name}-${g.ruleId}`, policies: [g.policy] }, child());
    }

    // Images and flavors, one per VDU.
    const imageByName = new Map<string, pulumi.Input<string>>();
    const imageId = (imageName: string, file: string | undefined, vduFlavour: Flavour) => {
      if (imageByName.has(imageName)) return imageByName.get(imageName)!;
      let id: pulumi.Input<string>;
      if (args.images === "upload") {
        const sw =
          vduFlavour.vdus.map((v) => (v.kind === "compute" ? v.swImage : undefined)).find((s) => s?.name === imageName) ??
          vduFlavour.storages.map((s) => s.swImage).find((s) => s?.name === imageName);
        id = new openstack.images.Image(
          `${name}-image-${slug(imageName)}`,
          {
            name: imageName,
            containerFormat: sw?.containerFormat ?? "bare",
            diskFormat: sw?.diskFormat ?? "qcow2",
            localFilePath: imageFileOnDisk(args, file!),
            visibility: "private",
            ...(sw?.minDiskGib !== undefined ? { minDiskGb: sw.minDiskGib } : {}),
            ...(sw?.minRamMib !== undefined ? { minRamMb: sw.minRamMib } : {}),
          },
          child(),
        ).id;
      } else {
        id = openstack.images.getImageOutput({ name: imageName, mostRecent: true }, invokeOpts).id;
      }
      imageByName.set(imageName, id);
      return id;
    };
    const flavour = args.flavours.find((f) => f.id === plan.flavourId)!;
    const refsOf = (vdus: VmVnfPlan["vdus"], vduFlavour: Flavour) => {
      const images: Record<string, pulumi.Input<string>> = {};
      const flavors: Record<string, { flavorName?: pulumi.Input<string>; flavorId?: pulumi.Input<string> }> = {};
      for (const v of vdus) {
        if (v.imageName) images[v.vduId] = imageId(v.imageName, v.imageFile, vduFlavour);
        const named = args.flavorNames?.[v.vduId] ?? v.flavorName;
        if (named) flavors[v.vduId] = { flavorName: named };
        else flavors[v.vduId] = { flavorId: sizedFlavor(v) };
      }
      return { images, flavors };
    };
    // A flavor sized from `virtual_compute`, one per VDU: a change of package may not resize it
    // (ops/change-vnfpkg.ts refuses), since every server of the VDU would be resized at once.
    const sizedFlavors = new Map<string, pulumi.Output<string>>();
    const sizedFlavor = (v: VmVnfPlan["vdus"][number]) => {
      if (!sizedFlavors.has(v.vduId)) {
        const f = new openstack.compute.Flavor(
          `${name}-${v.vduId}-flavor`,
          { name: `${name}-${v.vduId}`, ram: v.memoryMib, vcpus: v.numCpus, disk: v.rootDiskGib, isPublic: false },
          child(),
        );
        sizedFlavors.set(v.vduId, f.id);
      }
      return sizedFlavors.get(v.vduId)!;
    };
    const current = refsOf(plan.vdus, flavour);
    const previous = previousRefs(name, plan, args, refsOf);
    const pending = new Set(args.previousPackage?.pendingVnfcs ?? []);
    const imageOf = (vnfc: PlannedVnfc) => (pending.has(vnfc.id) ? previous!.images : current.images)[vnfc.vduId];
    const flavorOf = (vnfc: PlannedVnfc) => (pending.has(vnfc.id) ? previous!.flavors : current.flavors)[vnfc.vduId];

    const keyPair =
      args.keyPair ??
      (args.sshPublicKey !== undefined
        ? new openstack.compute.Keypair(`${name}-keypair`, { name: `${name}-keypair`, publicKey: args.sshPublicKey }, child()).name
        : undefined);

    // Ports, volumes, heal_start hooks, servers, attachments: per VNFC.
    this.ports = {};
    this.servers = {};
    const targets: VnfcTarget[] = [];
    const info: Record<string, pulumi.Output<VnfcInfo>> = {};
    const portsOf = new Map<string, { cp: PlannedPort; port?: openstack.networking.Port; id: pulumi.Input<string>; ips: pulumi.Output<string[]> }[]>();
    const extConnStarts = extConnStartCommands(this, name, plan.vnfcs, args.hooks ?? [], args.ssh, args.extConnChange);
    for (const vnfc of plan.vnfcs) {
      const start = extConnStarts.get(vnfc.id);
      portsOf.set(
        vnfc.id,
        vnfc.ports.map((p) => this.port(name, vnfc, p, networkIds, subnetIds, args, invokeOpts, (o) => child({ ...o, dependsOn: start ? [start] : [] }))),
      );
    }
    const hostOf = (vnfc: PlannedVnfc) => {
      const wanted = args.ssh ? [args.ssh.cpId].flat() : [];
      const p = wanted.map((cp) => portsOf.get(vnfc.id)!.find((x) => x.cp.cpId === cp)).find((x) => x !== undefined);
      return p ? p.ips.apply((ips) => ips[0]) : pulumi.output("");
    };
    const healGen = (id: string) => args.healGenerations?.[id] ?? 0;
    const packageGen = (id: string) => args.packageGenerations?.[id] ?? 0;
    const preTargets = plan.vnfcs.map((v) => ({
      id: v.id,
      vduId: v.vduId,
      scaledOut: v.scaledOut,
      host: hostOf(v),
      serverId: "",
      dependsOn: [],
      healGeneration: healGen(v.id),
      packageGeneration: packageGen(v.id),
    }));
    const healStarts = serverStartCommands(this, name, preTargets, args.hooks ?? [], args.ssh, "heal_start");
    const packageStarts = serverStartCommands(this, name, preTargets, args.hooks ?? [], args.ssh, "change_current_package_start");

    const vdus = new Map(plan.vdus.map((v) => [v.vduId, v]));
    for (const vnfc of plan.vnfcs) {
      const ports = portsOf.get(vnfc.id)!;
      const volumes = vnfc.volumes.map(
        (vol) =>
          new openstack.blockstorage.Volume(
            `${name}-${vnfc.id}-${vol.storageId}`,
            {
              name: `${name}-${vnfc.id}-${vol.storageId}`,
              size: vol.sizeGib,
              ...(vol.imageName
                ? { imageId: imageId(vol.imageName, flavour.storages.find((s) => s.id === vol.storageId)?.swImage?.artifactFile, flavour) }
                : {}),
            },
            child(),
          ),
      );
      const group = vnfc.serverGroup ? serverGroups[vnfc.serverGroup] : undefined;
      const bootIndex = vnfc.volumes.findIndex((vol) => vol.boot);
      const starts = [healStarts.get(vnfc.id), packageStarts.get(vnfc.id)].filter((c) => c !== undefined);
      // A legacy VNFD's key_name and user_data apply unless the stack gives its own.
      const serverKey = keyPair ?? vdus.get(vnfc.vduId)!.keyName;
      const userData = args.userData?.[vnfc.vduId] ?? vdus.get(vnfc.vduId)!.userData;
      const server = new openstack.compute.Instance(
        `${name}-${vnfc.id}`,
        {
          name: `${name}-${vnfc.id}`,
          ...flavorOf(vnfc),
          ...(imageOf(vnfc) ? { imageId: imageOf(vnfc) } : {}),
          networks: ports.map((p) => ({ port: p.id })),
          // Boot volume: a separate resource (kept across heal), not deleted with the server.
          ...(bootIndex >= 0
            ? { blockDevices: [{ uuid: volumes[bootIndex].id, sourceType: "volume", destinationType: "volume", bootIndex: 0, deleteOnTermination: false }] }
            : {}),
          ...(group ? { schedulerHints: [{ group: group.id }] } : {}),
          ...(serverKey ? { keyPair: serverKey } : {}),
          ...(userData ? { userData } : {}),
          // Ports given at boot are the server's only on loan: Nova unbinds them (preserve_on_delete)
          // and keeps them, with their IPs, when the server is deleted or replaced. No detach first:
          // the provider's detach waits at least 5 s per port (issue 23).
          metadata: { "nfv-vnfc-id": vnfc.id, "nfv-vdu-id": vnfc.vduId, "nfv-vnf": name },
        },
        child({ deleteBeforeReplace: true, dependsOn: [...starts, ...(args.serverDependsOn?.[vnfc.id] ?? [])] }),
      );
      const attaches = volumes
        .filter((_vol, i) => i !== bootIndex)
        .map((vol) => ({ vol, i: volumes.indexOf(vol) }))
        .map(
          ({ vol, i }) =>
            new openstack.compute.VolumeAttach(
              `${name}-${vnfc.id}-${vnfc.volumes[i].storageId}-attach`,
              {
                instanceId: server.id,
                volumeId: vol.id,
              },
              child(),
            ),
        );
      this.servers[vnfc.id] = server;
      targets.push({
        id: vnfc.id,
        vduId: vnfc.vduId,
        scaledOut: vnfc.scaledOut,
        host: hostOf(vnfc),
        serverId: server.id,
        dependsOn: [server, ...attaches],
        healGeneration: healGen(vnfc.id),
        packageGeneration: packageGen(vnfc.id),
        // Only VNFCs that lived through the change run its hooks (not one scaled out since).
        extConnGeneration: args.extConnChange?.previousAddresses[vnfc.id] !== undefined ? args.extConnChange.generation : 0,
        volumeIds: Object.fromEntries(volumes.map((vol, i) => [vnfc.volumes[i].storageId, vol.id])),
      });
      const portInfo = pulumi
        .all(ports.map((p) => pulumi.all([p.id, p.port ? p.port.urn : pulumi.output(""), p.ips])))
        .apply((list) => Object.fromEntries(list.map(([id, urn, ips], i) => [ports[i].cp.cpId, { portId: id, portUrn: urn, ips }])));
      info[vnfc.id] = pulumi
        .all([server.urn, server.id, portInfo, pulumi.all(volumes.map((v) => v.urn))])
        .apply(([serverUrn, serverId, portMap, volumeUrns]) => ({
          vdu: vnfc.vduId,
          index: vnfc.index,
          serverUrn,
          serverId,
          ports: portMap,
          ips: Object.values(portMap).flatMap((p) => p.ips),
          volumeUrns,
        }));
    }
    const wired = wireHooks(this, name, targets, args.hooks ?? [], args.files ?? [], args.ssh);
    this.hookCommands = new Map<string, HookCommand>([
      ...[...extConnStarts.entries()].map(([id, c]) => [`${name}-${id}-change_external_connectivity_start`, c] as [string, HookCommand]),
      ...[...healStarts.entries()].map(([id, c]) => [`${name}-${id}-heal_start`, c] as [string, HookCommand]),
      ...[...packageStarts.entries()].map(([id, c]) => [`${name}-${id}-change_current_package_start`, c] as [string, HookCommand]),
      ...wired.commands,
    ]);
    this.hookOrder = [
      ...[...extConnStarts.keys()].map((id) => `${id}:change_external_connectivity_start`),
      ...[...healStarts.keys()].map((id) => `${id}:heal_start`),
      ...[...packageStarts.keys()].map((id) => `${id}:change_current_package_start`),
      ...wired.order,
    ];
    this.vnfcs = pulumi.all(info);
    this.scaleLevels = pulumi.output(plan.scaleLevels);
    this.registerOutputs({ vnfcs: this.vnfcs, scaleLevels: this.scaleLevels });
  }

  private port(
    name: string,
    vnfc: PlannedVnfc,
    p: PlannedPort,
    networkIds: Record<string, pulumi.Input<string>>,
    subnetIds: Record<string, pulumi.Input<string>>,
    args: VmVnfArgs,
    invokeOpts: pulumi.InvokeOutputOptions,
    child: (o?: pulumi.CustomResourceOptions) => pulumi.CustomResourceOptions,
  ) {
    if (p.linkPortId) {
      const existing = openstack.networking.getPortOutput({ portId: p.linkPortId }, invokeOpts);
      return { cp: p, id: p.linkPortId as pulumi.Input<string>, ips: existing.allFixedIps };
    }
    const subnetId =
      p.subnetId ??
      subnetIds[p.networkId] ??
      (p.fixedAddresses.length > 0 ? openstack.networking.getSubnetOutput({ networkId: networkIds[p.networkId], ipVersion: 4 }, invokeOpts).id : undefined);
    const port = new openstack.networking.Port(
      `${name}-${vnfc.id}-${p.cpId}`,
      {
        name: `${name}-${vnfc.id}-${p.cpId}`,
        networkId: networkIds[p.networkId],
        adminStateUp: true,
        ...(p.fixedAddresses.length > 0
          ? { fixedIps: p.fixedAddresses.map((ipAddress) => ({ subnetId: subnetId!, ipAddress })) }
          : subnetIds[p.networkId]
            ? { fixedIps: [{ subnetId: subnetIds[p.networkId] }] }
            : {}),
        ...(p.macAddress ? { macAddress: p.macAddress } : {}),
        ...(p.allowedAddressPairs.length > 0 ? { allowedAddressPairs: p.allowedAddressPairs.map((ipAddress) => ({ ipAddress })) } : {}),
        ...(args.securityGroupIds?.[p.cpId] ? { securityGroupIds: args.securityGroupIds[p.cpId] } : {}),
        tags: [`nfv-vnfc-id=${vnfc.id}`, `nfv-cp-id=${p.cpId}`],
      },
      child(),
    );
    this.ports[`${vnfc.id}/${p.cpId}`] = port;
    // A fixed address is known before the port exists: hooks can dial it in preview.
    const ips = p.fixedAddresses.length > 0 ? pulumi.output(p.fixedAddresses) : port.allFixedIps.apply((x) => x ?? []);
    return { cp: p, port, id: port.id as pulumi.Input<string>, ips };
  }
}

/**
 * The images and flavors of the previous package, for the VNFCs a change of package has not
 * reached yet: the same VDUs planned from its flavours with the same request.
 */
function previousRefs<R>(name: string, plan: VmVnfPlan, args: VmVnfArgs, refsOf: (vdus: VmVnfPlan["vdus"], f: Flavour) => R): R | undefined {
  if (!args.previousPackage || args.previousPackage.pendingVnfcs.length === 0) return undefined;
  // The previous images would be uploaded from the new package's files.
  if (args.images === "upload") throw new Error(`VmVnf ${name}: a change of package under way needs images: "lookup"`);
  const before = planVmVnf(args.previousPackage.flavours, args.request, { scaleLevels: args.scaleLevels });
  const missing = plan.vdus.filter((v) => !before.vdus.some((b) => b.vduId === v.vduId)).map((v) => v.vduId);
  if (missing.length > 0) throw new Error(`VmVnf ${name}: VDU ${missing.join(", ")} is not in the previous package: a change of package keeps the VDUs`);
  return refsOf(
    before.vdus,
    args.previousPackage.flavours.find((f) => f.id === before.flavourId)!,
  );
}

/** An image artifact's file on disk; validateHooks has checked that there is one. */
function imageFileOnDisk(args: VmVnfArgs, file: string): string {
  const found = componentPackageFileOnDisk(args, file);
  if ("reason" in found) throw new Error(`image file ${file} ${found.reason}`);
  return found.path;
}
