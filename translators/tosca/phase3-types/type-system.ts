/**
 * Phase 3: every type of every loaded file in one namespace per category, with `derived_from`
 * chains resolved and inherited definitions merged (a derived definition replaces the inherited
 * one of the same name; see leniency L8).
 */
import { isDeepStrictEqual } from "node:util";
import type { YamlPath } from "../../yaml/located-yaml";
import type { ToscaFile } from "../phase2-load/load-documents";
import type { Problems } from "../problems";
import { compileConstraints, type Constraint } from "./constraints";
import { NORMATIVE_FILE, NORMATIVE_TYPES, PRIMITIVE_TYPES } from "./normative-types";
import { scalarKindOf } from "./scalar-units";

export const TYPE_CATEGORIES = [
  "data_types",
  "capability_types",
  "relationship_types",
  "interface_types",
  "artifact_types",
  "node_types",
  "group_types",
  "policy_types",
] as const;
export type TypeCategory = (typeof TYPE_CATEGORIES)[number];

export interface TypeDef {
  name: string;
  category: TypeCategory;
  /** The section the type is written in; not `category` for a type moved by L15. */
  section: TypeCategory;
  file: string;
  raw: Record<string, unknown>;
  parent?: TypeDef;
  /** For a data type derived from a primitive (`derived_from: string`): that primitive. */
  primitive?: string;
}

/** A property, input or entry schema: what a value must look like. */
export interface Schema {
  type: string;
  entrySchema?: Schema;
  constraints: Constraint[];
  /** Where the definition is, for messages. */
  file: string;
  path: YamlPath;
}

export interface PropertyDef extends Schema {
  name: string;
  required: boolean;
  default?: unknown;
}

export interface RequirementDef {
  name: string;
  capability?: string;
  node?: string;
  relationship?: string;
}

/** One entry of a node type's requirement list, as tosca-parser merges them (`requirementEntries`). */
export interface RequirementEntry {
  name: string;
  /** The definition as written (a map, or a capability name). */
  def: unknown;
  /** The type whose `requirements` list holds it. */
  type: TypeDef;
}

const INTERFACE_TYPE_KEYS = new Set(["derived_from", "description", "version", "metadata", "inputs", "operations", "notifications"]);

export class TypeSystem {
  private readonly types = new Map<TypeCategory, Map<string, TypeDef>>(TYPE_CATEGORIES.map((c) => [c, new Map()]));
  private readonly propertyCache = new Map<TypeDef, Map<string, PropertyDef>>();
  private readonly schemaCache = new WeakMap<object, Schema>();
  /** Per-type results of the merges below: node types are asked once per node template. */
  private readonly mergeCache = new Map<string, unknown>();

  constructor(
    files: ToscaFile[],
    private readonly problems: Problems,
  ) {
    for (const category of TYPE_CATEGORIES) {
      for (const [name, raw] of Object.entries(NORMATIVE_TYPES[category] ?? {})) {
        this.types.get(category)!.set(name, { name, category, section: category, file: NORMATIVE_FILE, raw });
      }
    }
    for (const f of files) this.register(f);
    this.moveMisfiledNodeTypes();
    for (const category of TYPE_CATEGORIES) for (const t of this.types.get(category)!.values()) this.resolveParent(t);
    for (const category of TYPE_CATEGORIES) for (const t of this.types.get(category)!.values()) this.checkChain(t);
  }

  get(category: TypeCategory, name: string): TypeDef | undefined {
    return this.types.get(category)!.get(name);
  }

  all(category: TypeCategory): IterableIterator<TypeDef> {
    return this.types.get(category)!.values();
  }

  /** True when `type` is `ancestor` or derives from it. */
  isA(type: TypeDef | undefined, ancestor: string): boolean {
    for (let t = type, n = 0; t && n < 100; t = t.parent, n++) if (t.name === ancestor) return true;
    return false;
  }

  /** Effective property definitions (or capability/relationship/policy/group properties). */
  properties(type: TypeDef): Map<string, PropertyDef> {
    let props = this.propertyCache.get(type);
    if (props) return props;
    props = new Map(type.parent && type.parent !== type ? this.properties(type.parent) : []);
    this.propertyCache.set(type, props);
    const own = type.raw.properties;
    if (isMap(own)) {
      for (const [name, def] of Object.entries(own)) {
        const p = this.propertyDef(name, def, type.file, [type.section, type.name, "properties", name]);
        if (p) props.set(name, p);
      }
    }
    return props;
  }

  /** Effective requirement definitions of a node type, by name. */
  requirements(type: TypeDef): Map<string, RequirementDef> {
    const key = `requirements\0${type.name}`;
    const cached = this.mergeCache.get(key) as Map<string, RequirementDef> | undefined;
    if (cached) return cached;
    const out = new Map<string, RequirementDef>();
    this.mergeCache.set(key, out);
    const chain = this.lineage(type).reverse();
    for (const t of chain) {
      const list = t.raw.requirements;
      if (!Array.isArray(list)) continue;
      for (const entry of list) {
        if (!isMap(entry)) continue;
        for (const [name, def] of Object.entries(entry)) {
          const d = isMap(def) ? def : {};
          out.set(name, { name, capability: str(typeof def === "string" ? def : d.capability), node: str(d.node), relationship: str(d.relationship) });
        }
      }
    }
    return out;
  }

  /**
   * A node type's requirement list as tosca-parser builds it (`NodeType.requirements`, that is
   * `get_value('requirements', parent=True)`): the type's own list as written, then the entries of
   * each ancestor, nearest first, that are not equal to one already in it. Unlike `requirements`,
   * a redefinition does not replace the inherited entry unless both are equal: both are kept.
   */
  requirementEntries(type: TypeDef): RequirementEntry[] {
    const key = `requirementEntries\0${type.name}`;
    const cached = this.mergeCache.get(key) as RequirementEntry[] | undefined;
    if (cached) return cached;
    const list: { entry: unknown; type: TypeDef }[] = [];
    for (const t of this.lineage(type)) {
      const own = t.raw.requirements;
      if (!Array.isArray(own)) continue;
      // An empty list so far is replaced as a whole (tosca-parser's `if value:`), duplicates included.
      if (list.length === 0) list.push(...own.map((entry) => ({ entry, type: t })));
      else for (const entry of own) if (!list.some((x) => isDeepStrictEqual(x.entry, entry))) list.push({ entry, type: t });
    }
    const out: RequirementEntry[] = [];
    for (const { entry, type: t } of list) if (isMap(entry)) for (const [name, def] of Object.entries(entry)) out.push({ name, def, type: t });
    this.mergeCache.set(key, out);
    return out;
  }

  /** Effective capability definitions of a node type: name → capability type name. */
  capabilities(type: TypeDef): Map<string, string | undefined> {
    return this.mergedMap(type, "capabilities", (def) => (typeof def === "string" ? def : isMap(def) ? str(def.type) : undefined));
  }

  /** Effective interface definitions of a node type: name → interface type name. */
  interfaces(type: TypeDef): Map<string, string | undefined> {
    return this.mergedMap(type, "interfaces", (def) => (isMap(def) ? str(def.type) : undefined));
  }

  /** Effective artifact definitions of a node type: name → artifact definition. */
  artifacts(type: TypeDef): Map<string, unknown> {
    return this.mergedMap(type, "artifacts", (def) => def);
  }

  /** Operation names of an interface type, inherited ones included. */
  operations(type: TypeDef): Set<string> {
    const key = `operations\0${type.name}`;
    const cached = this.mergeCache.get(key) as Set<string> | undefined;
    if (cached) return cached;
    const ops = new Set<string>();
    this.mergeCache.set(key, ops);
    for (const t of this.lineage(type)) {
      for (const key of Object.keys(t.raw)) if (!INTERFACE_TYPE_KEYS.has(key)) ops.add(key);
      if (isMap(t.raw.operations)) for (const key of Object.keys(t.raw.operations)) ops.add(key);
    }
    return ops;
  }

  /** A schema for a property/input/entry_schema definition, compiled once per definition object. */
  schema(def: unknown, file: string, path: YamlPath): Schema | undefined {
    if (typeof def === "string") return this.makeSchema({ type: def }, file, path);
    if (!isMap(def)) {
      this.problems.error("TYPE_SYNTAX", "expected a definition map with `type`", file, path);
      return undefined;
    }
    const cached = this.schemaCache.get(def);
    if (cached) return cached;
    const s = this.makeSchema(def, file, path);
    if (s) this.schemaCache.set(def, s);
    return s;
  }

  /** Whether `name` is a value type: a primitive or a `data_types` entry. */
  isValueType(name: string): boolean {
    return PRIMITIVE_TYPES.has(name) || this.types.get("data_types")!.has(name);
  }

  private propertyDef(name: string, def: unknown, file: string, path: YamlPath): PropertyDef | undefined {
    const s = this.schema(def, file, path);
    if (!s || !isMap(def)) return undefined;
    const p: PropertyDef = { ...s, name, required: def.required !== false };
    if ("default" in def) p.default = def.default;
    return p;
  }

  private makeSchema(def: Record<string, unknown>, file: string, path: YamlPath): Schema | undefined {
    const type = def.type;
    if (typeof type !== "string") {
      this.problems.error("TYPE_SYNTAX", "a property definition needs a `type`", file, path);
      return undefined;
    }
    if (!this.isValueType(type)) {
      const message = `unknown data type \`${type}\``;
      // L16: in a type's own definitions (the path starts at its section) tosca-parser resolves a
      // property's data type only when a template gives the property a value; a value given to
      // it here is then refused as an unknown property.
      if ((TYPE_CATEGORIES as readonly unknown[]).includes(path[0]))
        this.problems.tolerated("L16", "TYPE_UNKNOWN", `${message}; the property cannot be given a value`, file, [...path, "type"]);
      else this.problems.error("TYPE_UNKNOWN", message, file, [...path, "type"]);
      return undefined;
    }
    const schema: Schema = {
      type,
      constraints: compileConstraints(def.constraints, scalarKindOf(type), this.problems, file, [...path, "constraints"]),
      file,
      path,
    };
    if (def.entry_schema !== undefined && def.entry_schema !== null) {
      const entry = this.schema(def.entry_schema, file, [...path, "entry_schema"]);
      // Without its entry schema the definition is unusable, as with an unknown type (L16).
      if (!entry) return undefined;
      schema.entrySchema = entry;
    }
    return schema;
  }

  private register(f: ToscaFile): void {
    for (const category of TYPE_CATEGORIES) {
      const section = f.doc[category];
      if (section === undefined || section === null) continue;
      if (!isMap(section)) {
        this.problems.error("TYPE_SYNTAX", `\`${category}\` must be a map`, f.file, [category]);
        continue;
      }
      for (const [name, raw] of Object.entries(section)) {
        const def = raw === null ? {} : raw;
        if (!isMap(def)) {
          this.problems.error("TYPE_SYNTAX", `type \`${name}\` must be a map`, f.file, [category, name]);
          continue;
        }
        const existing = this.types.get(category)!.get(name);
        if (existing && existing.file !== NORMATIVE_FILE) {
          this.problems.error("TYPE_DUPLICATE", `type \`${name}\` is already defined in ${existing.file}`, f.file, [category, name], true);
          continue;
        }
        this.types.get(category)!.set(name, { name, category, section: category, file: f.file, raw: def });
      }
    }
  }

  /**
   * L15: a type written under `node_types` whose `derived_from` names no node type but a type of
   * another category (a data, capability, relationship… type) belongs to that category:
   * tosca-parser keeps every custom type in one dictionary, so Tacker onboards single-file VNFDs
   * that declare their data types under `node_types`. Repeated, as a moved type may be the parent
   * of another. One warning per file, at its first such type: such files move about a hundred.
   */
  private moveMisfiledNodeTypes(): void {
    const nodes = this.types.get("node_types")!;
    const byFile = new Map<string, TypeDef[]>();
    const order = [...nodes.keys()];
    for (let moved = true; moved;) {
      moved = false;
      for (const t of nodes.values()) {
        const parent = t.raw.derived_from;
        if (typeof parent !== "string" || nodes.has(parent)) continue;
        const category = TYPE_CATEGORIES.find(
          (c) => c !== "node_types" && (this.types.get(c)!.has(parent) || (c === "data_types" && PRIMITIVE_TYPES.has(parent))),
        );
        if (!category || this.types.get(category)!.has(t.name)) continue;
        nodes.delete(t.name);
        t.category = category;
        this.types.get(category)!.set(t.name, t);
        byFile.set(t.file, [...(byFile.get(t.file) ?? []), t]);
        moved = true;
      }
    }
    for (const [file, moved] of byFile) {
      moved.sort((a, b) => order.indexOf(a.name) - order.indexOf(b.name));
      const [first, ...rest] = moved;
      const others =
        rest.length > 0
          ? ` and ${rest.length} more (${rest
              .slice(0, 3)
              .map((m) => m.name)
              .join(", ")}${rest.length > 3 ? ", …" : ""})`
          : "";
      this.problems.tolerated(
        "L15",
        "TYPE_WRONG_SECTION",
        `\`${first.name}\`${others} derive from data, capability or other non-node types but are declared under node_types; each is read as a type of its parent's category`,
        file,
        ["node_types", first.name],
        true,
      );
    }
  }

  private resolveParent(t: TypeDef): void {
    const parent = t.raw.derived_from;
    if (parent === undefined || parent === null) return;
    if (typeof parent !== "string") {
      this.problems.error("TYPE_SYNTAX", "`derived_from` must be a type name", t.file, [t.section, t.name, "derived_from"]);
      return;
    }
    if (t.category === "data_types" && PRIMITIVE_TYPES.has(parent)) {
      t.primitive = parent;
      return;
    }
    const p = this.types.get(t.category)!.get(parent);
    if (!p) {
      this.problems.error("TYPE_UNKNOWN_PARENT", `\`${t.name}\` derives from unknown ${t.category.replace("_types", "")} type \`${parent}\``, t.file, [
        t.section,
        t.name,
        "derived_from",
      ]);
      return;
    }
    t.parent = p;
  }

  /** Reports a `derived_from` cycle once, at the type that closes it, and cuts it. */
  private checkChain(t: TypeDef): void {
    const seen: TypeDef[] = [];
    for (let cur: TypeDef | undefined = t; cur; cur = cur.parent) {
      const at = seen.indexOf(cur);
      if (at >= 0) {
        const chain = [...seen.slice(at), cur].map((x) => x.name).join(" → ");
        const last = seen[seen.length - 1];
        this.problems.error("TYPE_DERIVED_CYCLE", `derived_from cycle: ${chain}`, last.file, [last.section, last.name, "derived_from"]);
        last.parent = undefined;
        return;
      }
      seen.push(cur);
    }
    // A data type deriving (maybe indirectly) from a primitive behaves as that primitive.
    if (t.category === "data_types" && !t.primitive) {
      for (let cur = t.parent; cur; cur = cur.parent)
        if (cur.primitive) {
          t.primitive = cur.primitive;
          break;
        }
    }
  }

  /** The type and its ancestors, most derived first. */
  private lineage(type: TypeDef): TypeDef[] {
    const out: TypeDef[] = [];
    for (let t: TypeDef | undefined = type; t && out.length < 100; t = t.parent) out.push(t);
    return out;
  }

  private mergedMap<T>(type: TypeDef, key: string, pick: (def: unknown) => T): Map<string, T> {
    const cacheKey = `${key}\0${type.category}\0${type.name}`;
    const cached = this.mergeCache.get(cacheKey) as Map<string, T> | undefined;
    if (cached) return cached;
    const out = new Map<string, T>();
    this.mergeCache.set(cacheKey, out);
    for (const t of this.lineage(type).reverse()) {
      const section = t.raw[key];
      if (isMap(section)) for (const [name, def] of Object.entries(section)) out.set(name, pick(def));
    }
    return out;
  }
}

export function isMap(v: unknown): v is Record<string, unknown> {
  return v !== null && typeof v === "object" && !Array.isArray(v);
}

function str(v: unknown): string | undefined {
  return typeof v === "string" ? v : undefined;
}
