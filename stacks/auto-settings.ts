/**
 * A VNF's auto-heal and auto-scale policies (Tacker's `isAutohealEnabled` / `isAutoscaleEnabled`
 * with its Prometheus plugin), read with located errors; `nfv serve` acts on an Alertmanager alert
 * only for a VNF whose entry has the policy the alert asks for:
 *
 *   auto_heal:                    # a firing auto_heal alert heals the VNFC it names
 *     cool_down_seconds: 600      # that VNFC's next alert within this long after its heal is dropped
 *   auto_scale:                   # a firing auto_scale alert scales the aspect it names by one step
 *     cool_down_seconds: 600      # per aspect, after its scale
 *     aspects: [worker_aspect]    # the aspects alerts may scale (default: every aspect)
 */
import type { DiagnosticBag, SourceLocation } from "../translators/diagnostics";
import type { YamlPath } from "../translators/yaml/located-yaml";

type Locate = (p: YamlPath, key?: boolean) => SourceLocation;

export interface AutoPolicy {
  /** Seconds after an operation in which alerts for the same VNFC (heal) or aspect (scale) are dropped. */
  coolDownSeconds: number;
  /** auto_scale: the aspects alerts may scale; absent: every aspect. */
  aspects?: string[];
}

export type AutoPolicyKey = "auto_heal" | "auto_scale";

/** Without `cool_down_seconds`: long enough for the alert that triggered an operation to resolve. */
export const DEFAULT_COOL_DOWN_SECONDS = 300;

const isMapping = (v: unknown): v is Record<string, unknown> => typeof v === "object" && v !== null && !Array.isArray(v);

export function readAutoPolicy(raw: unknown, key: AutoPolicyKey, at: Locate, bag: DiagnosticBag): AutoPolicy | undefined {
  if (raw === undefined) return undefined;
  const allowed = key === "auto_scale" ? ["cool_down_seconds", "aspects"] : ["cool_down_seconds"];
  if (!isMapping(raw)) {
    bag.error("CONFIG_BAD_TYPE", `${key} must be a mapping (${allowed.join(", ")}); {} for the defaults`, at([key]));
    return undefined;
  }
  let ok = true;
  for (const k of Object.keys(raw)) {
    if (!allowed.includes(k)) {
      bag.error("CONFIG_UNKNOWN_KEY", `unknown key '${key}.${k}' (expected ${allowed.join(", ")})`, at([key, k], true));
      ok = false;
    }
  }
  const policy: AutoPolicy = { coolDownSeconds: DEFAULT_COOL_DOWN_SECONDS };
  const cool = raw.cool_down_seconds;
  if (cool !== undefined) {
    // `pulumi config set --path` stores numbers as digit strings.
    const n = typeof cool === "number" ? cool : typeof cool === "string" && /^\d+$/.test(cool) ? Number(cool) : NaN;
    if (!Number.isSafeInteger(n) || n < 0) {
      bag.error("CONFIG_BAD_VALUE", `${key}.cool_down_seconds must be a whole number of seconds, 0 or more`, at([key, "cool_down_seconds"]));
      ok = false;
    } else policy.coolDownSeconds = n;
  }
  const aspects = raw.aspects;
  if (aspects !== undefined) {
    if (!Array.isArray(aspects) || aspects.length === 0 || !aspects.every((a) => typeof a === "string" && a !== "")) {
      bag.error("CONFIG_BAD_TYPE", `${key}.aspects must be a list of aspect ids of the VNF's flavour`, at([key, "aspects"]));
      ok = false;
    } else policy.aspects = aspects as string[];
  }
  return ok ? policy : undefined;
}
