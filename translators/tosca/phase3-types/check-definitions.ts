/**
 * Checks every type definition once, used or not: property types and defaults, and the types that
 * capabilities, requirements and interfaces refer to.
 */
import type { Problems } from "../problems";
import { NORMATIVE_FILE } from "./normative-types";
import { isMap, TYPE_CATEGORIES, type TypeCategory, type TypeSystem } from "./type-system";
import { checkValue } from "./values";

export function checkDefinitions(types: TypeSystem, problems: Problems): void {
  for (const category of TYPE_CATEGORIES) {
    for (const t of types.all(category)) {
      if (t.file === NORMATIVE_FILE) continue;
      const ctx = { types, problems, file: t.file };
      for (const def of types.properties(t).values()) {
        if (def.default !== undefined && def.file === t.file && def.path[1] === t.name) checkValue(def.default, def, ctx, [...def.path, "default"]);
      }
      if (category !== "node_types") continue;
      const at = (key: string, name: string) => [category, t.name, key, name];
      const refer = (cat: TypeCategory, name: string | undefined, path: (string | number)[], what: string) => {
        if (name !== undefined && !types.get(cat, name)) problems.error("TYPE_UNKNOWN", `unknown ${what} type \`${name}\``, t.file, path);
      };
      if (isMap(t.raw.capabilities)) {
        for (const [name, def] of Object.entries(t.raw.capabilities))
          refer(
            "capability_types",
            typeof def === "string" ? def : isMap(def) && typeof def.type === "string" ? def.type : undefined,
            [...at("capabilities", name), "type"],
            "capability",
          );
      }
      if (isMap(t.raw.interfaces)) {
        for (const [name, def] of Object.entries(t.raw.interfaces))
          refer("interface_types", isMap(def) && typeof def.type === "string" ? def.type : undefined, [...at("interfaces", name), "type"], "interface");
      }
      if (Array.isArray(t.raw.requirements)) {
        t.raw.requirements.forEach((entry, i) => {
          if (!isMap(entry)) return;
          for (const [name, def] of Object.entries(entry)) {
            if (!isMap(def)) continue;
            const path = [category, t.name, "requirements", i, name];
            refer("capability_types", typeof def.capability === "string" ? def.capability : undefined, [...path, "capability"], "capability");
            refer("node_types", typeof def.node === "string" ? def.node : undefined, [...path, "node"], "node");
            refer("relationship_types", typeof def.relationship === "string" ? def.relationship : undefined, [...path, "relationship"], "relationship");
          }
        });
      }
    }
  }
}
