/**
 * The remote Commands that make and keep the cluster, in the order Pulumi's dependencies impose:
 *
 *   every node: copy scripts → prepare-node → configure-registries
 *   first master: [configure-lb (HA)] → init-master
 *   other masters, one after the other: join-credentials (on its anchor) → join-node (control plane)
 *   workers, in parallel after the masters: join-credentials → join-node
 *   every master (HA): configure-lb with every master, after all joins (re-adds a healed master)
 *   every master, with helm_installation_script_path: the package's script, once it is in the cluster
 *   every worker: a delete-only drain on its anchor (scale-in: before the VM goes away)
 *   every worker in an anti-affinity group: label-node on its anchor (compute host and zone), after its join
 *   heal (generation > 0), before the server is replaced: configure-lb without the node on every
 *   other master (HA), then remove-node on its anchor (drain/delete, etcd member for a master)
 *   whole heal (every server new): all of the above again, init included
 *
 * Join credentials and init outputs are secret Command outputs (stdout); they reach the joining node
 * as a secret stdin; a credential step that fails shows its stderr only (stdoutOnSuccess). Command
 * strings carry nothing but script paths.
 */
import { createHash } from "node:crypto";
import * as path from "node:path";
import * as command from "@pulumi/command";
import * as pulumi from "@pulumi/pulumi";
import { REMOTE_DIR, connectionFor, remoteCommand, type SshArgs } from "../vnf/hooks";
import { proxyFileFields, type ProxySettings } from "../host-files";
import { containerdConfig, registryCredentials } from "./config/containerd";
import { haproxyConfig, FRONTEND_PORT, APISERVER_PORT } from "./config/haproxy";
import { hostsBlock } from "./config/hosts";
import { keepalivedConfig, virtualRouterIdFor } from "./config/keepalived";
import { kubeadmApiVersion, kubeadmInitConfig, kubeadmJoinConfig } from "./config/kubeadm";
import { noProxy } from "./config/no-proxy";
import type { K8sClusterArgs } from "./args";
import type { RegistryConnection } from "./params";
import type { K8sClusterPlan, PlannedNode } from "./plan";
import { b64, parseKeyValues, registryFields, stdinLines, stdoutOnSuccess, type StdinField } from "./stdin";

/** The node scripts, `mgmt/k8s`: beside the sources, and in `dist/` where the build copies them (tools/copy-host-scripts.mjs). */
export const SCRIPTS_DIR = path.join(__dirname, "../../mgmt/k8s");
export const REMOTE_SCRIPTS = `${REMOTE_DIR}/k8s`;
export const REMOTE_CNI = `${REMOTE_SCRIPTS}/cni.yaml`;

export type NodeAddresses = Record<string, { ssh: pulumi.Output<string>; nic: pulumi.Output<string>; serverId: pulumi.Output<string> }>;
type Cmd = command.remote.Command | command.remote.CopyToRemote;

/**
 * How a mgmt/k8s script is run on a node: its command line and, for a credential step (its stdout
 * holds tokens or keys), what keeps that stdout out of the engine's logs, the state and a failed
 * step's error: the line prints stdout only on success (stdoutOnSuccess), the provider logs stderr
 * only, and stdout is a secret output. `dir` is where the scripts are (tests run them locally).
 */
export function scriptStep(
  script: string,
  secretStdout: boolean,
  dir = REMOTE_SCRIPTS,
): { line: string; logging?: "stderr"; additionalSecretOutputs?: string[] } {
  const run = `sudo -n /bin/bash ${dir}/${script}`;
  if (!secretStdout) return { line: run };
  // stderr carries progress only; stdout of credential steps must never reach the logs.
  return { line: stdoutOnSuccess(run), logging: "stderr", additionalSecretOutputs: ["stdout"] };
}

export class NodeCommands {
  /** Every command by resource name, in declaration order. */
  readonly all = new Map<string, Cmd>();
  private readonly masters: PlannedNode[];
  private readonly workers: PlannedNode[];

  constructor(
    private readonly parent: pulumi.ComponentResource,
    private readonly name: string,
    private readonly plan: K8sClusterPlan,
    private readonly args: K8sClusterArgs,
    private readonly addr: NodeAddresses,
    private readonly vip: pulumi.Output<string> | undefined,
    /** Every private registry, those handed over as outputs included (see registries.ts). */
    private readonly registries: pulumi.Output<RegistryConnection[]>,
  ) {
    this.masters = plan.nodes.filter((n) => n.role === "master");
    this.workers = plan.nodes.filter((n) => n.role === "worker");
  }

  /** Heal steps per healed VNFC id: the last one, which its server must wait for. */
  healSteps(): Map<string, command.remote.Command> {
    const out = new Map<string, command.remote.Command>();
    for (const h of this.plan.nodes.filter((n) => n.healGeneration > 0)) {
      const lbs =
        h.role === "master" && this.vip
          ? this.masters
              .filter((m) => m.vnfcId !== h.vnfcId)
              .map((s) => this.run(`${s.vnfcId}-heal-lb-${h.vnfcId}`, s, "configure-lb.sh", this.lbStdin(s, h.vnfcId), { triggers: [h.healGeneration] }))
          : [];
      out.set(
        h.vnfcId,
        this.run(
          `${h.vnfcId}-heal-remove`,
          this.node(h.anchor),
          "remove-node.sh",
          stdinLines([
            ["NODE_NAME", h.name],
            ["ROLE", h.role],
            ["ON_DRAIN_FAILURE", "continue"],
          ]),
          { triggers: [h.healGeneration], dependsOn: lbs },
        ),
      );
    }
    return out;
  }

  /** Everything after the VMs exist; returns the init command (its stdout holds the CA and admin token). */
  lifecycle(servers: Record<string, pulumi.Resource>): command.remote.Command {
    const ready = new Map<string, command.remote.Command>();
    for (const n of this.plan.nodes) {
      // The provider copies a directory into remotePath as remotePath/<its name>, existing or not:
      // mgmt/k8s lands in REMOTE_SCRIPTS.
      const copy = new command.remote.CopyToRemote(
        `${this.name}-${n.vnfcId}-copy-scripts`,
        {
          connection: this.conn(n),
          source: new pulumi.asset.FileArchive(SCRIPTS_DIR),
          remotePath: path.posix.dirname(REMOTE_SCRIPTS),
          triggers: [this.addr[n.vnfcId].serverId],
        },
        { parent: this.parent, dependsOn: [servers[n.vnfcId]] },
      );
      this.all.set(`${this.name}-${n.vnfcId}-copy-scripts`, copy);
      const prepare = this.run(`${n.vnfcId}-prepare`, n, "prepare-node.sh", this.prepareStdin(n), {
        dependsOn: [copy],
        triggers: [this.addr[n.vnfcId].serverId],
      });
      ready.set(
        n.vnfcId,
        this.run(`${n.vnfcId}-registries`, n, "configure-registries.sh", this.registriesStdin(), {
          dependsOn: [prepare],
          triggers: [this.addr[n.vnfcId].serverId],
        }),
      );
    }

    const first = this.node(this.plan.initNode);
    const before: pulumi.Resource[] = [ready.get(first.vnfcId)!];
    if (this.vip)
      before.push(
        this.run(`${first.vnfcId}-lb-bootstrap`, first, "configure-lb.sh", this.lbStdin(first), {
          dependsOn: before.slice(),
          triggers: [this.addr[first.vnfcId].serverId],
        }),
      );
    if (this.args.cniManifest) {
      const n = `${this.name}-${first.vnfcId}-copy-cni`;
      // Tied to the server like every step on a node: a new first master (whole heal) needs it again.
      const cni = new command.remote.CopyToRemote(
        n,
        {
          connection: this.conn(first),
          source: new pulumi.asset.FileAsset(this.args.cniManifest),
          remotePath: REMOTE_CNI,
          triggers: [this.addr[first.vnfcId].serverId],
        },
        { parent: this.parent, dependsOn: [ready.get(first.vnfcId)!] },
      );
      this.all.set(n, cni);
      before.push(cni);
    }
    // Only a whole heal runs init again (every server is new). Not the first server's id: a healed
    // first master joins the survivors, and an init before that join would start a second cluster.
    const wholeHeal = this.args.healGeneration ?? 0;
    const init = this.run("init", first, "init-master.sh", this.initStdin(first), {
      dependsOn: before,
      secretStdout: true,
      ...(wholeHeal > 0 ? { triggers: [wholeHeal] } : {}),
    });

    // Control planes join one at a time (etcd adds one member at a time); workers in parallel after them.
    let last: command.remote.Command = init;
    const masterJoins: command.remote.Command[] = [];
    // The step after which each master is in the cluster.
    const inCluster = new Map<string, command.remote.Command>([[first.vnfcId, init]]);
    for (const m of this.masters.filter((x) => x.bootstrap === "join")) {
      last = this.join(m, [init, last, ready.get(m.vnfcId)!]);
      masterJoins.push(last);
      inCluster.set(m.vnfcId, last);
    }
    for (const w of this.workers) {
      const join = this.join(w, [init, last, ready.get(w.vnfcId)!]);
      if (this.plan.labelWorkers) this.label(w, join);
      // Delete-only: runs when the worker leaves the program (scale-in), before its VM is deleted.
      this.run(
        `${w.vnfcId}-drain`,
        this.node(w.anchor),
        "remove-node.sh",
        stdinLines([
          ["NODE_NAME", w.name],
          ["ROLE", "worker"],
          ["ON_DRAIN_FAILURE", "fail"],
        ]),
        { dependsOn: [join], onDelete: true },
      );
    }
    if (this.vip) {
      // Again after any master is healed or new: every master's backends and its own HAProxy.
      const triggers = [...this.masters.map((m) => m.healGeneration), ...this.masters.map((m) => this.addr[m.vnfcId].serverId)];
      for (const m of this.masters) this.run(`${m.vnfcId}-lb`, m, "configure-lb.sh", this.lbStdin(m), { dependsOn: [init, ...masterJoins], triggers });
    }
    const inst = this.plan.installation;
    if (inst.helmInstallationScriptPath && inst.helmInstallationScript)
      for (const m of this.masters) this.installHelm(m, inst.helmInstallationScriptPath, inst.helmInstallationScript, inCluster.get(m.vnfcId)!);
    return init;
  }

  private join(n: PlannedNode, dependsOn: pulumi.Resource[]): command.remote.Command {
    const triggers = [this.addr[n.vnfcId].serverId, n.healGeneration];
    const creds = this.run(
      `${n.vnfcId}-join-credentials`,
      this.node(n.anchor),
      "join-credentials.sh",
      stdinLines([
        ["ROLE", n.role],
        ["KUBERNETES_VERSION", this.args.versions.kubernetes],
        ["KUBEADM_API_VERSION", kubeadmApiVersion(this.args.versions.kubernetes)],
      ]),
      { dependsOn, triggers, secretStdout: true },
    );
    const stdin = pulumi.all([creds.stdout, this.addr[n.vnfcId].nic, this.endpointHost()]).apply(([out, ip, host]) => {
      const c = parseKeyValues(out);
      const config = kubeadmJoinConfig({
        kubernetesVersion: this.args.versions.kubernetes,
        controlPlaneEndpoint: `${host}:${this.port()}`,
        node: { name: n.name, ip },
        token: c.token,
        caCertHash: c.ca_cert_hash,
        ...(n.role === "master" ? { certificateKey: c.certificate_key } : {}),
      });
      return stdinLines([
        ["ROLE", n.role],
        ["NODE_NAME", n.name],
        ["JOIN_CONFIG_B64", b64(config)],
      ]);
    });
    return this.run(`${n.vnfcId}-join`, n, "join-node.sh", stdin, { dependsOn: [creds], triggers });
  }

  /**
   * Worker `w`'s placement labels, set on its anchor once it has joined: Nova's compute host
   * (Tacker's `CIS-node`) and zone. Again when its server is replaced, or the host differs at an `up`.
   */
  private label(w: PlannedNode, joined: pulumi.Resource): void {
    const serverId = this.addr[w.vnfcId].serverId;
    const stdin = this.args.placement!.placementOf(serverId).apply((p) => {
      if (p.hostIsHash)
        pulumi.log.info(`${w.name}: CIS-node is Nova's hostId (the VIM's user may not see host names): equal exactly for nodes on one host`, this.parent);
      const labels = [`CIS-node=${p.host}`, ...(p.zone ? [`topology.kubernetes.io/zone=${p.zone}`] : [])];
      return stdinLines([
        ["NODE_NAME", w.name],
        ["LABELS", labels.join(" ")],
      ]);
    });
    this.run(`${w.vnfcId}-labels`, this.node(w.anchor), "label-node.sh", stdin, { dependsOn: [joined], triggers: [serverId] });
  }

  private prepareStdin(n: PlannedNode): pulumi.Output<string> {
    const v = this.args.versions;
    return pulumi
      .all([this.nodeIps(), this.vip ?? pulumi.output(undefined), this.addr[n.vnfcId].serverId, this.registries])
      .apply(([ips, vip, serverId, regs]) => {
        const nodes = this.plan.nodes.map((x) => ({ name: x.name, ip: ips[x.vnfcId] }));
        const fields: StdinField[] = [
          ["NODE_NAME", n.name],
          // The script checks it against cloud-init's instance id: never the old server of a replaced node.
          ["INSTANCE_ID", serverId],
          [
            "HOSTS_B64",
            b64(
              hostsBlock(
                nodes,
                regs.flatMap((r) => (r.hostsString ? [r.hostsString] : [])),
              ),
            ),
          ],
          ["KUBERNETES_PACKAGE_VERSION", v.kubernetesPackage],
          ["CONTAINERD_PACKAGE", v.containerdPackageName],
          ["CONTAINERD_PACKAGE_VERSION", v.containerdPackage],
          ["EXTRA_PACKAGES", n.role === "master" && v.etcdClientPackage ? `etcd-client=${v.etcdClientPackage}` : undefined],
          ["APT_SOURCE_B64", this.args.aptSource ? b64(this.args.aptSource) : undefined],
          ...this.proxyFiles(this.proxySettings(ips, vip, regs)),
        ];
        return stdinLines(fields);
      });
  }

  /** The user's proxy and a NO_PROXY made from the cluster (nodes, VIP, CIDRs, registries); none without a proxy. */
  private proxySettings(ips: Record<string, string>, vip: string | undefined, regs: RegistryConnection[]): ProxySettings | undefined {
    const inst = this.plan.installation;
    if (!inst.proxy) return undefined;
    return {
      httpProxy: inst.proxy.httpProxy,
      httpsProxy: inst.proxy.httpsProxy,
      noProxy: noProxy({
        user: inst.proxy.noProxy,
        nodeIps: this.plan.nodes.map((x) => ips[x.vnfcId]),
        nodeNames: this.plan.nodes.map((x) => x.name),
        vip,
        podCidr: inst.master.podCidr,
        serviceCidr: inst.master.serviceCidr,
        k8sNodeCidr: inst.proxy.k8sNodeCidr,
        registryServers: regs.map((r) => r.server),
      }),
    };
  }

  /** prepare-node's proxy: apt.conf and the containerd/kubelet drop-in, written here (escaped), sent as content. */
  private proxyFiles(p: ProxySettings | undefined): StdinField[] {
    return p ? Object.entries(proxyFileFields(p)) : [];
  }

  /** install-helm's environment: exported by the script as values, never parsed. */
  private proxyEnv(p: ProxySettings | undefined): StdinField[] {
    return p
      ? [
          ["HTTP_PROXY", p.httpProxy],
          ["HTTPS_PROXY", p.httpsProxy],
          ["NO_PROXY", p.noProxy],
        ]
      : [];
  }

  /**
   * The package's Helm installation script on master `m`, once it is in the cluster (`after`):
   * copied next to the mgmt scripts and run by install-helm.sh. Again on a new server (heal) and
   * when the script changes.
   */
  private installHelm(m: PlannedNode, script: string, content: Buffer, after: pulumi.Resource): void {
    const remote = `${REMOTE_SCRIPTS}/package-${path.basename(script)}`;
    const serverId = this.addr[m.vnfcId].serverId;
    const n = `${this.name}-${m.vnfcId}-copy-helm-script`;
    const copy = new command.remote.CopyToRemote(
      n,
      { connection: this.conn(m), source: new pulumi.asset.StringAsset(content.toString("utf8")), remotePath: remote, triggers: [serverId] },
      { parent: this.parent, dependsOn: [after] },
    );
    this.all.set(n, copy);
    const digest = createHash("sha256").update(content).digest("hex");
    const stdin = pulumi
      .all([this.nodeIps(), this.vip ?? pulumi.output(undefined), this.registries])
      .apply(([ips, vip, regs]) => stdinLines([["SCRIPT", remote], ...this.proxyEnv(this.proxySettings(ips, vip, regs))]));
    this.run(`${m.vnfcId}-helm`, m, "install-helm.sh", stdin, { dependsOn: [copy], triggers: [serverId, digest] });
  }

  private registriesStdin(): pulumi.Output<string> {
    return this.registries.apply((regs) =>
      stdinLines([
        ["CONTAINERD_CONFIG_B64", b64(containerdConfig({ sandboxImage: this.args.sandboxImage }))],
        ...registryFields(regs),
        ["REGISTRY_AUTH_B64", regs.length > 0 ? b64(registryCredentials(regs)) : undefined],
      ]),
    );
  }

  /** configure-lb's stdin for master `m`: every master as a backend, except `without` (heal). */
  private lbStdin(m: PlannedNode, without?: string): pulumi.Output<string> {
    const v = this.args.versions;
    return pulumi.all([this.nodeIps(), this.vip!]).apply(([ips, vip]) => {
      const backends = this.masters.filter((x) => x.vnfcId !== without).map((x) => ({ name: x.name, ip: ips[x.vnfcId] }));
      const keepalived = keepalivedConfig({
        nodeName: m.name,
        nodeIp: ips[m.vnfcId],
        peerIps: this.masters.filter((x) => x.vnfcId !== m.vnfcId).map((x) => ips[x.vnfcId]),
        vip,
        index: m.index,
        virtualRouterId: virtualRouterIdFor(this.name),
      });
      return stdinLines([
        ["NODE_IP", ips[m.vnfcId]],
        ["HAPROXY_CFG_B64", b64(haproxyConfig(backends))],
        ["KEEPALIVED_CONF_B64", b64(keepalived)],
        ["HAPROXY_PACKAGE_VERSION", v.haproxyPackage],
        ["KEEPALIVED_PACKAGE_VERSION", v.keepalivedPackage],
      ]);
    });
  }

  private initStdin(first: PlannedNode): pulumi.Output<string> {
    const inst = this.plan.installation;
    return pulumi.all([this.nodeIps(), this.endpointHost(), this.args.floatingIp ?? pulumi.output(undefined)]).apply(([ips, host, fip]) => {
      const sans = [host, ...this.masters.map((m) => ips[m.vnfcId]), ...(fip ? [fip] : [])];
      const config = kubeadmInitConfig({
        kubernetesVersion: this.args.versions.kubernetes,
        clusterName: this.name,
        controlPlaneEndpoint: `${host}:${this.port()}`,
        node: { name: first.name, ip: ips[first.vnfcId] },
        podCidr: inst.master.podCidr,
        serviceCidr: inst.master.serviceCidr,
        certSans: sans,
        ...(this.args.imageRepository ? { imageRepository: this.args.imageRepository } : {}),
        ...(this.args.kubeProxyConntrackMaxPerCore !== undefined ? { kubeProxyConntrackMaxPerCore: this.args.kubeProxyConntrackMaxPerCore } : {}),
      });
      return stdinLines([
        ["KUBEADM_CONFIG_B64", b64(config)],
        ["CNI_MANIFEST", this.args.cniManifest ? REMOTE_CNI : undefined],
      ]);
    });
  }

  /** The address inside the cluster: the VIP (HA), else the first master. */
  private endpointHost(): pulumi.Output<string> {
    return this.vip ?? this.addr[this.plan.initNode].nic;
  }

  private port(): number {
    return this.vip ? FRONTEND_PORT : APISERVER_PORT;
  }

  private nodeIps(): pulumi.Output<Record<string, string>> {
    return pulumi.all(Object.fromEntries(this.plan.nodes.map((n) => [n.vnfcId, this.addr[n.vnfcId].nic])));
  }

  private node(vnfcId: string): PlannedNode {
    return this.plan.nodes.find((n) => n.vnfcId === vnfcId)!;
  }

  private conn(n: PlannedNode): command.types.input.remote.ConnectionArgs {
    const p = n.role === "master" ? this.plan.installation.master : this.plan.installation.worker;
    const ssh: SshArgs = {
      cpId: p.sshCpName,
      user: p.username,
      ...(this.args.sshPrivateKey !== undefined ? { privateKey: this.args.sshPrivateKey } : {}),
      ...(p.password !== undefined ? { password: p.password } : {}),
      ...(this.args.sshHostKey !== undefined ? { hostKey: this.args.sshHostKey } : {}),
    };
    return connectionFor(ssh, this.addr[n.vnfcId].ssh);
  }

  /** A script run over SSH on node `on`; stdin always secret; `secretStdout` for credentials. */
  private run(
    step: string,
    on: PlannedNode,
    script: string,
    stdin: pulumi.Input<string>,
    o: { dependsOn?: pulumi.Resource[]; triggers?: unknown[]; secretStdout?: boolean; onDelete?: boolean },
  ): command.remote.Command {
    const n = `${this.name}-${step}`;
    const shape = scriptStep(script, o.secretStdout === true);
    const c = remoteCommand(
      n,
      {
        connection: this.conn(on),
        ...(o.onDelete ? { delete: shape.line } : { create: shape.line }),
        stdin: pulumi.secret(stdin),
        ...(o.triggers ? { triggers: o.triggers } : {}),
        ...(shape.logging ? { logging: shape.logging } : {}),
      },
      {
        parent: this.parent,
        dependsOn: [...new Set(o.dependsOn ?? [])],
        ...(shape.additionalSecretOutputs ? { additionalSecretOutputs: shape.additionalSecretOutputs } : {}),
      },
    );
    this.all.set(n, c);
    return c;
  }
}
