/**
 * A legacy VNFD's `substitution_mappings`, which Tacker's legacy NSD uses (doc/source/user/
 * nsd_usage_guide): `node_type` is the type an NSD's VNF node has, and each requirement
 * `name: [CP, virtualLink]` exposes a CP whose network the NSD's VL gives. Capabilities (VNFFG
 * forwarders) are not read: pulumi-nfv deploys no forwarding graph.
 */
import type { Cp, ExternalLink } from "../model";
import type { ToscaFile } from "../phase2-load/load-documents";
import { isMap } from "../phase3-types/type-system";
import type { Problems } from "../problems";

const AT = ["topology_template", "substitution_mappings"];

export function readLegacySubstitution(f: ToscaFile, cps: Cp[], problems: Problems): { nodeType?: string; externalLinks: ExternalLink[] } {
  const topo = f.doc.topology_template;
  const raw = isMap(topo) ? topo.substitution_mappings : undefined;
  if (raw === undefined) return { externalLinks: [] };
  if (!isMap(raw) || typeof raw.node_type !== "string") {
    problems.error("LEGACY_BAD_SUBSTITUTION", "substitution_mappings needs `node_type`: the type of the NSD's VNF node that stands for this VNFD", f.file, AT);
    return { externalLinks: [] };
  }
  const externalLinks: ExternalLink[] = [];
  const requirements = raw.requirements ?? {};
  if (!isMap(requirements))
    problems.error("LEGACY_BAD_SUBSTITUTION", "substitution_mappings.requirements maps a name to [CP, virtualLink]", f.file, [...AT, "requirements"]);
  else
    for (const [name, target] of Object.entries(requirements)) {
      const at = [...AT, "requirements", name];
      if (!Array.isArray(target) || target.length !== 2 || typeof target[0] !== "string" || target[1] !== "virtualLink")
        problems.error("LEGACY_BAD_SUBSTITUTION", `requirement \`${name}\` must be [CP, virtualLink]: the CP whose network the NSD's VL gives`, f.file, at);
      else if (!cps.some((c) => c.id === target[0]))
        problems.error("TEMPLATE_DANGLING_REQUIREMENT", `requirement \`${name}\` names \`${target[0]}\`, which is not a CP of this VNFD`, f.file, at);
      else externalLinks.push({ name, cpId: target[0], requirement: "virtualLink" });
    }
  return { nodeType: raw.node_type, externalLinks };
}
