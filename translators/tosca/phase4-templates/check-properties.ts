/** Property assignments against property definitions, shared by nodes, capabilities, groups and policies. */
import type { PropertyDef } from "../phase3-types/type-system";
import { isMap } from "../phase3-types/type-system";
import { checkValue, functionName, type ValueContext } from "../phase3-types/values";

/**
 * Checks `raw` (a `properties:` map) and returns the effective values: defaults applied and
 * `get_input` replaced by the input's default when it has one. `owner` names the thing for messages.
 * `path` is extended and restored while each property is checked (see `checkValue`).
 * `missingTolerated` names the leniency under which a missing required property is only tolerated.
 */
export function checkProperties(
  raw: unknown,
  defs: Map<string, PropertyDef>,
  ctx: ValueContext,
  path: (string | number)[],
  owner: string,
  missingTolerated?: string,
): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  const given = isMap(raw) ? raw : {};
  if (raw !== undefined && raw !== null && !isMap(raw)) ctx.problems.error("TEMPLATE_SYNTAX", "`properties` must be a map", ctx.file, path);
  for (const key of Object.keys(given)) {
    const value = given[key];
    const def = defs.get(key);
    if (!def) {
      ctx.problems.error("TEMPLATE_UNKNOWN_PROPERTY", `\`${key}\` is not a property of ${owner}`, ctx.file, [...path, key], true);
      continue;
    }
    path.push(key);
    checkValue(value, def, ctx, path);
    path.pop();
    out[key] = resolveInput(value, ctx);
  }
  for (const def of defs.values()) {
    if (def.name in given) continue;
    if (def.default !== undefined) out[def.name] = def.default;
    else if (def.required) {
      const message = `required property \`${def.name}\` of ${owner} is missing`;
      const where = path.length > 0 && isMap(raw) ? path : path.slice(0, -1);
      if (missingTolerated) ctx.problems.tolerated(missingTolerated, "TEMPLATE_MISSING_PROPERTY", message, ctx.file, where);
      else ctx.problems.error("TEMPLATE_MISSING_PROPERTY", message, ctx.file, where);
    }
  }
  return out;
}

function resolveInput(value: unknown, ctx: ValueContext): unknown {
  if (functionName(value) !== "get_input") return value;
  const arg = (value as Record<string, unknown>).get_input;
  const name = Array.isArray(arg) ? arg[0] : arg;
  const resolved = typeof name === "string" ? ctx.inputs?.(name) : undefined;
  return resolved?.value !== undefined ? resolved.value : value;
}
