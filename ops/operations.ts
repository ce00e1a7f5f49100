/**
 * What `nfv scale` and `nfv heal` will do to a stack, decided before anything runs: the stack
 * config values to write, the URNs to replace, the pods to delete. Pure: the commands do the I/O.
 */
import { planHeal as planCnfHeal, planScale as planCnfScale, type LivePod, type PodDeletion } from "./cnf";
import { planHeal as planVmHeal, planScale as planVmScale, type HealVnfc } from "./vm";
import { HOST_VNFC } from "../components/registry/params";
import { DiagnosticError } from "../translators/diagnostics";
import { planCnf } from "../translators/kubernetes/plan";
import { manifestReader } from "../translators/kubernetes/manifests";
import type { PreparedVnf } from "../stacks/vnfs";

/** One `pulumi config set --path` to make, or with `remove`, one `config rm --path`. */
export interface ConfigChange {
  key: string;
  value?: string;
  remove?: true;
}

export interface Operation {
  vnf: string;
  configChanges: ConfigChange[];
  /** URNs for `up --replace` (VM heal: servers only). */
  replace: string[];
  /** CNF heal of listed pods: deleted through the Kubernetes API, no `up` needed. */
  podDeletions: PodDeletion[];
  /** Human summary, one line each. */
  summary: string[];
}

const fail = (code: string, message: string): never => {
  throw new DiagnosticError("cannot plan the operation", [{ severity: "error", code, message }]);
};

/** The VNF named by `--vnf`, or the only one that fits. */
function pick(prepared: PreparedVnf[], name: string | undefined, fits: (p: PreparedVnf) => boolean, what: string): PreparedVnf {
  if (name !== undefined) {
    return (
      prepared.find((p) => p.entry.name === name) ??
      fail("OP_UNKNOWN_VNF", `VNF '${name}' is not in the stack (VNFs: ${prepared.map((p) => p.entry.name).join(", ") || "none"})`)
    );
  }
  const candidates = prepared.filter(fits);
  if (candidates.length !== 1) {
    fail(
      "OP_WHICH_VNF",
      candidates.length === 0 ? `no VNF of the stack has ${what}` : `several VNFs have ${what} (${candidates.map((p) => p.entry.name).join(", ")}); pass --vnf`,
    );
  }
  return candidates[0];
}

const configKey = (vnf: string, ...path: string[]) => `pulumi-nfv:vnfs.${vnf}.${path.join(".")}`;

export interface ScaleArgs {
  vnf?: string;
  aspectId: string;
  steps: number;
  type: "out" | "in";
}

export function planScaleOperation(prepared: PreparedVnf[], args: ScaleArgs): Operation {
  const hasAspect = (p: PreparedVnf) => !!p.model?.flavours.find((f) => f.id === p.request?.flavourId)?.aspects.some((a) => a.id === args.aspectId);
  const p = pick(prepared, args.vnf, hasAspect, `aspect '${args.aspectId}'`);
  if (!p.model || !p.request) return fail("OP_NOT_SCALABLE", `VNF '${p.entry.name}' (${p.component}) has no scaling aspects`);
  const current = p.entry.scaleLevels ?? {};
  let levels: Record<string, number>;
  const summary: string[] = [];
  const forget: ConfigChange[] = [];
  if (p.component === "container-vnf") {
    const cnfPlan = planCnf({
      model: p.model,
      flavourId: p.request.flavourId,
      instantiationLevelId: p.request.instantiationLevelId,
      additionalParams: p.request.additionalParams,
      vnfInstanceId: p.entry.vnfInstanceId,
      manifests: manifestReader(p.pkg!.source),
      charts: p.pkg!.source,
      scaleLevels: current,
    });
    const scale = planCnfScale({
      model: p.model,
      flavourId: p.request.flavourId,
      instantiationLevelId: p.request.instantiationLevelId,
      scaleLevels: current,
      plan: cnfPlan,
      request: { aspectId: args.aspectId, type: args.type === "out" ? "SCALE_OUT" : "SCALE_IN", numberOfSteps: args.steps },
    });
    const errors = scale.diagnostics.filter((d) => d.severity === "error");
    if (errors.length > 0) throw new DiagnosticError("cannot plan the scale", errors);
    levels = scale.scaleLevels;
    for (const c of scale.changes) summary.push(`${c.kind} ${c.name}: replicas ${c.from} → ${c.to}`);
  } else {
    const flavour = p.model.flavours.find((f) => f.id === p.request!.flavourId)!;
    const scale = planVmScale({
      flavour,
      currentLevels: current,
      instantiationLevelId: p.request.instantiationLevelId,
      aspectId: args.aspectId,
      steps: args.steps,
      type: args.type,
    });
    levels = scale.scaleLevels;
    summary.push(`aspect ${args.aspectId}: scale level ${scale.from} → ${scale.to}`);
    for (const id of scale.added) summary.push(`+ VNFC ${id}`);
    for (const id of scale.removed) summary.push(`- VNFC ${id}`);
    // A removed VNFC leaves the last change of external connectivity: added again later, it
    // never lived through that change, so no change hook may run on it.
    for (const id of scale.removed) {
      if (p.entry.extConnChange?.previousAddresses[id] !== undefined)
        forget.push({ key: configKey(p.entry.name, "change_ext_conn", "previous_addresses", id), remove: true });
    }
  }
  return {
    vnf: p.entry.name,
    configChanges: [
      ...Object.entries(levels).map(([aspect, level]) => ({ key: configKey(p.entry.name, "scale_levels", aspect), value: String(level) })),
      ...forget,
    ],
    replace: [],
    podDeletions: [],
    summary,
  };
}

export interface HealArgs {
  vnf?: string;
  /** VNFC ids (VM VNFs: `<vdu>-<index>`; CNFs: pod names); empty: the whole VNF. */
  vnfcIds: string[];
}

/** What the deployed stack says about a VNF (its `vnfs.<name>` output). */
export interface DeployedVnf {
  vnfcs?: Record<string, unknown>;
}

export function planHealOperation(prepared: PreparedVnf[], deployed: Record<string, DeployedVnf>, args: HealArgs, livePods: LivePod[] = []): Operation {
  const p = pick(prepared, args.vnf, () => true, "VNFCs");
  const name = p.entry.name;
  if (p.component === "registry-on-host") {
    // One VNFC, the host, which is not ours to replace: heal runs the installation again.
    const unknown = args.vnfcIds.filter((id) => id !== HOST_VNFC);
    if (unknown.length > 0) fail("HEAL_UNKNOWN_VNFC", `VNFC \`${unknown[0]}\` does not exist (VNFCs: ${HOST_VNFC})`);
    const next = (p.entry.healGenerations?.[HOST_VNFC] ?? 0) + 1;
    return {
      vnf: name,
      configChanges: [{ key: configKey(name, "heal_generations", HOST_VNFC), value: String(next) }],
      replace: [],
      podDeletions: [],
      summary: [`heal_end on ${HOST_VNFC}: the registry installed again on the existing host (heal generation ${next})`],
    };
  }
  if (p.component === "container-vnf") {
    if (args.vnfcIds.length === 0) {
      const next = (p.entry.healGeneration ?? 0) + 1;
      return {
        vnf: name,
        configChanges: [{ key: configKey(name, "heal_generation"), value: String(next) }],
        replace: [],
        podDeletions: [],
        summary: [`every workload replaced (heal generation ${next})`],
      };
    }
    const cnfPlan = planCnf({
      model: p.model!,
      flavourId: p.request!.flavourId,
      instantiationLevelId: p.request!.instantiationLevelId,
      additionalParams: p.request!.additionalParams,
      vnfInstanceId: p.entry.vnfInstanceId,
      manifests: manifestReader(p.pkg!.source),
      charts: p.pkg!.source,
      scaleLevels: p.entry.scaleLevels,
    });
    const heal = planCnfHeal(cnfPlan, args.vnfcIds, livePods);
    const errors = heal.diagnostics.filter((d) => d.severity === "error");
    if (errors.length > 0) throw new DiagnosticError("cannot plan the heal", errors);
    const deletions = heal.mode === "vnfc" ? heal.deletions : [];
    return {
      vnf: name,
      configChanges: [],
      replace: [],
      podDeletions: deletions,
      summary: deletions.map((d) => `pod ${d.namespace ?? ""}/${d.name} deleted${d.recreate ? " and created again" : ""}`),
    };
  }
  const vnfcs = (deployed[name]?.vnfcs ?? {}) as Record<string, HealVnfc>;
  if (p.component === "kubernetes-cluster" && args.vnfcIds.length === 0) return planWholeClusterHeal(p, vnfcs);
  const flavour = p.model!.flavours.find((f) => f.id === p.request!.flavourId)!;
  const heal = planVmHeal({ vnfcs, vnfcIds: args.vnfcIds, healGenerations: p.entry.healGenerations, hookOperations: flavour.lcmHooks.map((h) => h.operation) });
  return {
    vnf: name,
    configChanges: heal.vnfcIds.map((id) => ({ key: configKey(name, "heal_generations", id), value: String(heal.healGenerations[id]) })),
    replace: heal.replace,
    podDeletions: [],
    summary: [...heal.vnfcIds.map((id) => `server of VNFC ${id} replaced; ports and volumes kept`), ...heal.hooks.map((h) => `${h.operation} on ${h.vnfcId}`)],
  };
}

/**
 * Heal of a whole cluster, as Tacker's heal of the entire VNF: every server replaced (ports and
 * volumes kept) and the cluster made again on them. Healing all masters one by one would leave no
 * survivor to join, so the per-VNFC heal counters go (the first master runs `kubeadm init` again)
 * and the cluster's own counter goes up.
 */
function planWholeClusterHeal(p: PreparedVnf, vnfcs: Record<string, HealVnfc>): Operation {
  const name = p.entry.name;
  const heal = planVmHeal({ vnfcs, vnfcIds: [] });
  const next = (p.entry.healGeneration ?? 0) + 1;
  // One key at a time: `--preview` writes each value back on its own.
  const forget: ConfigChange[] = Object.keys(p.entry.healGenerations ?? {}).map((id) => ({ key: configKey(name, "heal_generations", id), remove: true }));
  return {
    vnf: name,
    configChanges: [{ key: configKey(name, "heal_generation"), value: String(next) }, ...forget],
    replace: heal.replace,
    podDeletions: [],
    summary: [
      `every server replaced (${heal.vnfcIds.join(", ")}); ports and volumes kept`,
      `the cluster made again on them: kubeadm init on the first master, every other node joins (heal generation ${next})`,
    ],
  };
}
