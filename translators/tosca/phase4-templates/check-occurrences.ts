/**
 * The number of times each node template of the entry service template gives each requirement of
 * its type, checked as tosca-parser 2.13 and later check it (`NodeTemplate.
 * _validate_relationship_occurrences`, run by `ToscaTemplate.__init__` for the entry's
 * `nodetemplates` only), so as today's Tacker refuses a package at onboarding:
 *
 * - every entry of the type's requirement list, ancestors' included (`TypeSystem.
 *   requirementEntries`), with its `occurrences`, `[1, UNBOUNDED]` when it gives none;
 * - counted: the entries of the template's own `requirements` naming it and, when a flavour file
 *   substitutes the template, the keys of that file's `substitution_mappings.requirements` and the
 *   requirements of its first node template of the same type;
 * - a count below the lower bound or above the upper bound is an error.
 *
 * A flavour file substitutes a template (`ToscaTemplate._handle_nested_tosca_templates_with_topology`
 * and `_is_sub_mapped_node`) when it is imported, directly or not, has a `topology_template`, its
 * `substitution_mappings.node_type` is the template's type, and the template has no interface
 * operations of its own; when several do, the last in tosca-parser's import order wins. Flavour
 * files loaded only by L6 are not imported: tosca-parser does not see them.
 */
import type { ToscaFile } from "../phase2-load/load-documents";
import type { Problems } from "../problems";
import { isMap, type RequirementEntry, type TypeSystem } from "../phase3-types/type-system";
import { nodePath, TT, type NodeTemplate, type Topology } from "./topology";

/** tosca-parser's stand-in for `UNBOUNDED` is 9999999999; no count reaches either. */
const UNBOUNDED = Number.POSITIVE_INFINITY;

export function checkRequirementOccurrences(entry: Topology, files: readonly ToscaFile[], types: TypeSystem, problems: Problems): void {
  const rawNodes = isMap(entry.tosca.doc[TT]) ? (entry.tosca.doc[TT] as Record<string, unknown>).node_templates : undefined;
  if (!isMap(rawNodes)) return;
  const flavours = importedTopologies(entry.tosca, files);
  for (const node of entry.nodes.values()) {
    if (!node.type) continue;
    const raw = rawNodes[node.name];
    if (!isMap(raw)) continue;
    let substitute: ToscaFile | undefined;
    if (!hasOwnOperations(raw.interfaces)) for (const f of flavours) if (substitutionNodeType(f) === node.typeName) substitute = f;
    const given = [...requirementMaps(raw.requirements)];
    if (substitute) {
      const mapping = (substitute.doc[TT] as Record<string, unknown>).substitution_mappings as Record<string, unknown>;
      const reqs = mapping.requirements;
      if (Array.isArray(reqs)) given.push(...reqs.filter(isMap));
      else if (isMap(reqs) && Object.keys(reqs).length > 0) given.push(reqs);
      const dfNodes = (substitute.doc[TT] as Record<string, unknown>).node_templates;
      const same = isMap(dfNodes) ? Object.values(dfNodes).find((t) => isMap(t) && t.type === node.typeName) : undefined;
      if (isMap(same)) given.push(...requirementMaps(same.requirements));
    }
    const reported = new Set<string>();
    for (const req of types.requirementEntries(node.type)) {
      const bounds = occurrences(req);
      if (!bounds) continue;
      const count = given.filter((g) => Object.prototype.hasOwnProperty.call(g, req.name)).length;
      if (count >= bounds.min && count <= bounds.max) continue;
      const key = `${req.name}\0${bounds.text}`;
      if (reported.has(key)) continue;
      reported.add(key);
      problems.error("TEMPLATE_REQUIREMENT_OCCURRENCES", message(node, req, bounds, count, substitute?.file), entry.file, nodePath(node.name), true);
    }
  }
}

interface Bounds {
  min: number;
  max: number;
  text: string;
  given: boolean;
}

/**
 * The definition's `occurrences`: `[1, UNBOUNDED]` when it gives none (also for a definition in
 * short notation, a bare capability name, on which tosca-parser fails with a Python exception);
 * undefined, not checked, when tosca-parser could not compare it either (a malformed value).
 */
function occurrences(req: RequirementEntry): Bounds | undefined {
  const occ = isMap(req.def) ? req.def.occurrences : undefined;
  if (occ === undefined) return { min: 1, max: UNBOUNDED, text: "[1, UNBOUNDED]", given: false };
  if (!Array.isArray(occ) || occ.length < 2 || typeof occ[0] !== "number" || (typeof occ[1] !== "number" && occ[1] !== "UNBOUNDED")) return undefined;
  return { min: occ[0], max: occ[1] === "UNBOUNDED" ? UNBOUNDED : occ[1], text: `[${occ[0]}, ${occ[1]}]`, given: true };
}

function message(node: NodeTemplate, req: RequirementEntry, bounds: Bounds, count: number, substitute: string | undefined): string {
  const where = `node type \`${req.type.name}\` (${req.type.file})`;
  const counted = substitute
    ? `the template's own \`requirements\` and, as flavour file \`${substitute}\` substitutes it, that file's \`substitution_mappings.requirements\` and its first \`${node.typeName}\` node template`
    : "the template's own `requirements`";
  const text = [
    `node template \`${node.name}\` gives requirement \`${req.name}\` ${count} time(s), outside its occurrences ${bounds.text}`,
    bounds.given ? ` (in ${where})` : ` (the default: its definition in ${where} gives none)`,
    `; counted: ${counted}.`,
    ` Today's Tacker (tosca-parser ≥ 2.13) refuses this: "Relationship "${req.name}" in template "${node.name}" has a wrong number of occurrences".`,
  ].join("");
  if (count < bounds.min)
    return `${text} Tacker's fix of its own samples: \`occurrences: [ 0, 1 ]\` on \`${req.name}\` in the requirements of \`${req.type.name}\` (or give the requirement ${bounds.min} time(s))`;
  return `${text} Give it at most ${bounds.max} time(s), or widen the definition's \`occurrences\``;
}

/** The single-key maps of a `requirements` list; anything else is reported by checkNode. */
function requirementMaps(raw: unknown): Record<string, unknown>[] {
  return Array.isArray(raw) ? raw.filter(isMap) : [];
}

/** tosca-parser's `len(nodetemplate.interfaces) < 1` is false: the template's own `interfaces` name an operation (or notification). */
function hasOwnOperations(raw: unknown): boolean {
  if (!isMap(raw)) return false;
  return Object.values(raw).some((i) => {
    if (!isMap(i)) return false;
    const ops = "operations" in i ? i.operations : i;
    return (isMap(ops) && Object.keys(ops).length > 0) || (isMap(i.notifications) && Object.keys(i.notifications).length > 0);
  });
}

function substitutionNodeType(f: ToscaFile): unknown {
  const tt = f.doc[TT];
  return isMap(tt) && isMap(tt.substitution_mappings) ? tt.substitution_mappings.node_type : undefined;
}

/**
 * The files imported by the entry, directly or not, that have a `topology_template`, in
 * tosca-parser's order (`_get_all_custom_defs`): the entry's imports in order, then, for each of
 * them in turn, its own imports and theirs the same way; a file counts where it first appears.
 */
function importedTopologies(entry: ToscaFile, files: readonly ToscaFile[]): ToscaFile[] {
  const byName = new Map(files.map((f) => [f.file, f]));
  const order: ToscaFile[] = [];
  const seen = new Set<string>([entry.file]);
  const expanded = new Set<string>();
  const visit = (imports: readonly string[]): void => {
    const level = imports.map((i) => byName.get(i)).filter((f): f is ToscaFile => f !== undefined);
    for (const f of level) {
      if (seen.has(f.file)) continue;
      seen.add(f.file);
      order.push(f);
    }
    for (const f of level) {
      if (expanded.has(f.file) || f.imports.length === 0) continue;
      expanded.add(f.file);
      visit(f.imports);
    }
  };
  expanded.add(entry.file);
  visit(entry.imports);
  return order.filter((f) => {
    const tt = f.doc[TT];
    return isMap(tt) ? Object.keys(tt).length > 0 : Boolean(tt);
  });
}
