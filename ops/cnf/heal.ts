/**
 * `nfv heal` on a CNF, planned. Pure: the caller lists the instance's pods through the VIM's
 * credentials and executes the plan.
 *
 * - With VNFC ids (SOL002; a VNFC id is a pod name): delete each pod with
 *   `propagationPolicy: Foreground`; its controller recreates it. A bare Pod is recreated from
 *   its planned object (`recreate`), as Tacker recreates it from the saved spec.
 * - Without ids (SOL003 "entire"): every workload is replaced: bump the component's
 *   `healGeneration` (stack config) and `up`, or `up --target-replace` the listed resources.
 *
 * Codes: CNF_UNKNOWN_VNFC, CNF_HEAL_UNSUPPORTED.
 */
import { DiagnosticBag, type Diagnostic } from "../../translators/diagnostics";
import type { KubeObject } from "../../translators/kubernetes/objects";
import type { CnfPlan, VnfcRef } from "../../translators/kubernetes/plan";
import type { KubeApi, LivePod } from "../../clients/kube-api";

export interface PodDeletion {
  vnfcId: string;
  vduId: string;
  namespace?: string;
  name: string;
  propagationPolicy: "Foreground";
  /** For a bare Pod: the object to create again once the deletion is done. */
  recreate?: KubeObject;
}

export type HealPlan =
  | { mode: "vnfc"; deletions: PodDeletion[]; diagnostics: Diagnostic[] }
  | { mode: "entire"; /** Child-name suffixes of the workloads to replace (`<component>-<key>`). */ replace: string[]; diagnostics: Diagnostic[] };

export function planHeal(plan: CnfPlan, vnfcIds: readonly string[] | undefined, pods: readonly LivePod[]): HealPlan {
  const bag = new DiagnosticBag();
  if (!vnfcIds || vnfcIds.length === 0) {
    const replace = plan.objects.filter((p) => p.origin.vduId !== undefined && WORKLOADS.has(p.object.kind)).map((p) => p.key);
    return { mode: "entire", replace, diagnostics: bag.items };
  }
  const deletions: PodDeletion[] = [];
  for (const id of vnfcIds) {
    const pod = pods.find((p) => p.metadata.name === id);
    const owner = pod?.metadata.ownerReferences?.find((o) => o.controller !== false);
    if (pod && owner && (owner.kind === "Job" || owner.kind === "CronJob")) {
      bag.error("CNF_HEAL_UNSUPPORTED", `pod \`${id}\` belongs to ${owner.kind} \`${owner.name}\`; pods of jobs are not VNFCs`, {
        path: `vnfcInstanceId.${id}`,
      });
      continue;
    }
    const vnfc = pod ? Object.values(plan.vnfcs).find((v) => owns(v, pod)) : undefined;
    if (!pod || !vnfc) {
      bag.error("CNF_UNKNOWN_VNFC", `\`${id}\` is not a pod of this VNF instance (VDUs: ${Object.keys(plan.vnfcs).join(", ")})`, {
        path: `vnfcInstanceId.${id}`,
      });
      continue;
    }
    const d: PodDeletion = { vnfcId: id, vduId: vnfc.vduId, name: id, propagationPolicy: "Foreground" };
    const ns = pod.metadata.namespace ?? vnfc.namespace;
    if (ns) d.namespace = ns;
    if (vnfc.kind === "Pod") {
      const planned = plan.objects.find((p) => p.object.kind === "Pod" && p.object.metadata.name === vnfc.name);
      if (planned) d.recreate = planned.object;
    }
    deletions.push(d);
  }
  return { mode: "vnfc", deletions, diagnostics: bag.items };
}

const WORKLOADS = new Set(["Pod", "Deployment", "ReplicaSet", "StatefulSet", "DaemonSet"]);

/** Whether a live pod is one of the VNFCs of a VDU: the bare Pod itself, or selected by its workload. */
export function owns(v: VnfcRef, pod: LivePod): boolean {
  if (v.namespace && pod.metadata.namespace && v.namespace !== pod.metadata.namespace) return false;
  if (v.kind === "Pod") return pod.metadata.name === v.name;
  const owner = pod.metadata.ownerReferences?.find((o) => o.controller !== false);
  if (owner) {
    // A Deployment's pods are owned by its ReplicaSets, named `<deployment>-<hash>`.
    if (v.kind === "Deployment") return owner.kind === "ReplicaSet" && owner.name.startsWith(`${v.name}-`);
    return owner.kind === v.kind && owner.name === v.name;
  }
  if (!v.labelSelector) return false;
  const labels = pod.metadata.labels ?? {};
  return v.labelSelector.split(",").every((term) => {
    const i = term.indexOf("=");
    return labels[term.slice(0, i)] === term.slice(i + 1);
  });
}

export interface HealRunOptions {
  /** How long to wait for a bare Pod to be gone before creating it again (ms). Default 120000. */
  timeoutMs?: number;
  /** Poll interval (ms). Default 2000. */
  pollMs?: number;
  /** The namespace when the plan leaves it to the VIM (the VIM's `project_name`). */
  defaultNamespace: string;
}

/**
 * Executes a VNFC heal plan: deletes each pod (Foreground); for a bare Pod, waits until it is gone
 * and creates it again from the planned object. Returns the names of the pods acted on. An
 * "entire" plan is not executed here: it is a Pulumi replacement.
 */
export async function runHeal(plan: HealPlan, api: KubeApi, opts: HealRunOptions): Promise<string[]> {
  if (plan.mode !== "vnfc") throw new Error("heal of the entire VNF is a Pulumi replacement (healGeneration), not an API call");
  if (plan.diagnostics.some((d) => d.severity === "error")) throw new Error("the heal plan has errors");
  const done: string[] = [];
  const timeout = opts.timeoutMs ?? 120_000;
  const poll = opts.pollMs ?? 2000;
  for (const d of plan.deletions) {
    const ns = d.namespace ?? opts.defaultNamespace;
    await api.deletePod(ns, d.name, d.propagationPolicy);
    if (d.recreate) {
      const start = Date.now();
      while ((await api.getPod(ns, d.name)) !== undefined) {
        if (Date.now() - start > timeout) throw new Error(`pod ${ns}/${d.name} still exists after ${timeout} ms; not recreated`);
        await new Promise((r) => setTimeout(r, poll));
      }
      await api.createPod(ns, d.recreate);
    }
    done.push(`${ns}/${d.name}`);
  }
  return done;
}
