/**
 * `planHeal`: which URNs `nfv heal` replaces, which hooks run, which config changes. Pure.
 *
 * Heal is a targeted replace: the servers of the chosen VNFCs (or every server, for a whole heal)
 * are replaced; their ports (and so their IPs) and volumes are kept. Hooks: each healed VNFC's heal
 * generation (stack config `healGenerations`) goes up by one, which makes `VmVnf` register
 * `heal_start` (before the server is replaced, on the old server) and `heal_end` (on the new one).
 */
import { DiagnosticError, type Diagnostic } from "../../translators/diagnostics";

/** The part of the VNFC map (`VmVnf.vnfcs` stack output) heal needs. */
export interface HealVnfc {
  vdu: string;
  index: number;
  serverUrn: string;
  ports: Record<string, { portUrn: string }>;
  volumeUrns: string[];
}

export interface HealRequest {
  /** The VNFC map as exported by the stack. */
  vnfcs: Record<string, HealVnfc>;
  /** VNFC ids to heal (SOL002 `vnfcInstanceId`); empty or absent: heal the whole VNF. */
  vnfcIds?: string[];
  /** Current heal generation per VNFC (stack config); absent entries are 0. */
  healGenerations?: Record<string, number>;
  /** LCM operations that have a hook (e.g. `plan.lcmOperations` or the hook list). */
  hookOperations?: string[];
}

export interface HealPlan {
  kind: "vnfc" | "whole";
  /** VNFC ids healed, sorted. */
  vnfcIds: string[];
  /** URNs to pass to `pulumi up --replace`: servers only. */
  replace: string[];
  /** URNs that must survive: ports and volumes of the healed VNFCs. */
  keep: string[];
  /** Hooks that run, in order: every `heal_start`, then every `heal_end`. */
  hooks: { vnfcId: string; operation: "heal_start" | "heal_end" }[];
  /** New stack config value for `healGenerations`. */
  healGenerations: Record<string, number>;
  /** URNs of the hook commands the next `up` creates or replaces, in `hooks` order (derived from the server URNs). */
  hookUrns: string[];
}

/** `VmVnf` names a VNFC's hook command `<server name>-<operation>`, next to the server. */
export function hookUrn(serverUrn: string, operation: string): string {
  // urn:pulumi:<stack>::<project>::<parent types $ separated>$<type>::<name>
  const [head, project, qualifiedType, ...name] = serverUrn.split("::");
  const parents = qualifiedType.includes("$") ? qualifiedType.slice(0, qualifiedType.lastIndexOf("$") + 1) : "";
  return `${head}::${project}::${parents}command:remote:Command::${name.join("::")}-${operation}`;
}

export function planHeal(req: HealRequest): HealPlan {
  const known = Object.keys(req.vnfcs).sort();
  const asked = [...new Set(req.vnfcIds ?? [])];
  const problems: Diagnostic[] = asked
    .filter((id) => !req.vnfcs[id])
    .map((id) => ({
      severity: "error" as const,
      code: "HEAL_UNKNOWN_VNFC",
      message: `VNFC \`${id}\` does not exist (VNFCs: ${known.join(", ") || "none"})`,
    }));
  if (known.length === 0) problems.push({ severity: "error", code: "HEAL_NO_VNFC", message: "the VNF has no VNFC to heal" });
  if (problems.length > 0) throw new DiagnosticError("cannot plan heal", problems);
  const whole = asked.length === 0;
  const ids = whole ? known : asked.sort();
  const ops = new Set(req.hookOperations ?? []);
  const healGenerations: Record<string, number> = { ...(req.healGenerations ?? {}) };
  for (const id of ids) healGenerations[id] = (healGenerations[id] ?? 0) + 1;
  const hooks = [
    ...(ops.has("heal_start") ? ids.map((vnfcId) => ({ vnfcId, operation: "heal_start" as const })) : []),
    ...(ops.has("heal_end") ? ids.map((vnfcId) => ({ vnfcId, operation: "heal_end" as const })) : []),
  ];
  return {
    kind: whole ? "whole" : "vnfc",
    vnfcIds: ids,
    replace: ids.map((id) => req.vnfcs[id].serverUrn),
    keep: ids.flatMap((id) => [
      ...Object.values(req.vnfcs[id].ports)
        .map((p) => p.portUrn)
        .filter((u) => u !== ""),
      ...req.vnfcs[id].volumeUrns,
    ]),
    hooks,
    healGenerations,
    hookUrns: hooks.map((h) => hookUrn(req.vnfcs[h.vnfcId].serverUrn, h.operation)),
  };
}
