/**
 * The label Tacker v2 puts on every object of a VNF instance (LP #2053098): it tells objects of
 * this instance from same-named objects of another, and selects the instance's pods.
 */
import type { DiagnosticBag, SourceLocation } from "../diagnostics";
import { describe, type KubeObject } from "./objects";

export const INSTANCE_LABEL = "tacker_vnf_instance_id";

const VALUE = /^([A-Za-z0-9]([-A-Za-z0-9_.]*[A-Za-z0-9])?)?$/;
export const LABEL_VALUE_RULE = "at most 63 characters of letters, digits, `-`, `_`, `.`";

/** A label value is at most 63 characters of `[A-Za-z0-9_.-]`, starting and ending alphanumeric (or empty). */
export function isLabelValue(v: string): boolean {
  return v.length <= 63 && VALUE.test(v);
}

/** The VNF instance id, which labels every object: a label value, or an error in `bag`. */
export function checkInstanceId(id: unknown, bag: DiagnosticBag): id is string {
  if (typeof id === "string" && id !== "" && isLabelValue(id)) return true;
  bag.error("CNF_BAD_INSTANCE_ID", `vnfInstanceId ${JSON.stringify(id)} cannot be a label value (${LABEL_VALUE_RULE})`, { path: "vnfInstanceId" });
  return false;
}

/**
 * Labels an object with the instance id. An object that already carries another instance's id is
 * refused (Tacker refuses to adopt it), with an error located at `where`.
 */
export function labelWithInstance(o: KubeObject, instanceId: string, bag: DiagnosticBag, where: SourceLocation): void {
  const labels = (o.metadata.labels ??= {});
  const existing = labels[INSTANCE_LABEL];
  if (existing !== undefined && existing !== instanceId) {
    bag.error("CNF_FOREIGN_OBJECT", `${describe(o)} is labelled ${INSTANCE_LABEL}=${existing}, another VNF instance; refusing to take it over`, where);
    return;
  }
  labels[INSTANCE_LABEL] = instanceId;
}

/** A live object as the API server returns it (the fields the adoption check reads). */
export interface LiveObject {
  kind: string;
  metadata: { name: string; namespace?: string; labels?: Record<string, string> };
}

/**
 * Refuses to adopt: for each planned object that already exists on the cluster, the live object
 * must carry this instance's label. Use before an import or a first `up` on a shared namespace.
 */
export function checkAdoption(planned: readonly KubeObject[], live: readonly LiveObject[], instanceId: string, bag: DiagnosticBag): void {
  const byKey = new Map(live.map((l) => [`${l.kind}|${l.metadata.namespace ?? ""}|${l.metadata.name}`, l]));
  for (const p of planned) {
    const l = byKey.get(`${p.kind}|${p.metadata.namespace ?? ""}|${p.metadata.name}`);
    if (!l) continue;
    const owner = l.metadata.labels?.[INSTANCE_LABEL];
    if (owner !== instanceId) {
      bag.error(
        "CNF_FOREIGN_OBJECT",
        `${describe(p)} already exists and ${owner === undefined ? "is not labelled with any VNF instance" : `belongs to VNF instance ${owner}`}; refusing to adopt it`,
        { path: describe(p) },
      );
    }
  }
}
