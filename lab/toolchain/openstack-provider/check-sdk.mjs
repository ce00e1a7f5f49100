#!/usr/bin/env node
// Compares the Pulumi schema written by pulumi-tfgen-openstack with the npm SDK @pulumi/openstack
// the project uses, so that a build whose tokens or property names differ from the SDK's is
// caught at build time instead of as a failed `pulumi up`:
//
//   node check-sdk.mjs SCHEMA.json SDK_DIR
//
// Checked: the same resource and function tokens; per resource, the same input (Args), state
// (State) and output (class) property names, with the same required inputs; per function, the
// same argument and result names; per object type, the same property names; everywhere, the same
// shape of each property (string/number/boolean/any, array, map, object type). Exit 1 and one
// line per difference, else one "ok" line.
import { readFileSync, readdirSync, statSync } from "node:fs";
import path from "node:path";

const [schemaFile, sdkDir] = process.argv.slice(2);
if (!schemaFile || !sdkDir) {
  console.error("usage: check-sdk.mjs SCHEMA.json SDK_DIR");
  process.exit(2);
}
const schema = JSON.parse(readFileSync(schemaFile, "utf8"));
const problems = [];
const upper = (s) => s[0].toUpperCase() + s.slice(1);
const problem = (s) => problems.push(s);

// ---- the SDK's .d.ts files ----
const walk = (dir) =>
  readdirSync(dir).flatMap((n) => {
    const p = path.join(dir, n);
    if (statSync(p).isDirectory()) return n === "node_modules" || n === "types" ? [] : walk(p);
    return [p];
  });

// Interfaces/classes of a .d.ts: name -> { prop -> { optional, type } }, props at `indent` + 4.
function blocks(text, headerRe, indent) {
  const out = {};
  const lines = text.split("\n");
  const propRe = new RegExp(`^${" ".repeat(indent + 4)}(?:readonly )?([A-Za-z0-9_$]+)(\\??): (.*)$`);
  for (let i = 0; i < lines.length; i++) {
    const m = headerRe.exec(lines[i]);
    if (!m || !lines[i].startsWith(" ".repeat(indent)) || lines[i][indent] === " ") continue;
    const props = {};
    for (i++; i < lines.length && lines[i] !== " ".repeat(indent) + "}"; i++) {
      const p = propRe.exec(lines[i]);
      if (!p) continue;
      let type = p[3];
      // A type spread over several lines ({ [key: string]: ...; }): join it.
      let depth = (type.match(/[<{(]/g) || []).length - (type.match(/[>})]/g) || []).length;
      while (depth > 0 && i + 1 < lines.length) {
        i++;
        type += " " + lines[i].trim();
        depth = (type.match(/[<{(]/g) || []).length - (type.match(/[>})]/g) || []).length;
      }
      props[p[1]] = { optional: p[2] === "?", type: type.replace(/;$/, "") };
    }
    out[m[1]] = props;
  }
  return out;
}

function tsShape(t) {
  t = t.trim().replace(/;$/, "");
  for (;;) {
    const m = /^pulumi\.(?:Input|Output)<(.*)>$/.exec(t);
    if (!m) break;
    t = m[1].trim();
  }
  t = t.replace(/\s*\|\s*undefined$/, "");
  if (t.endsWith("[]")) return `array<${tsShape(t.slice(0, -2))}>`;
  if (/^\{\s*\[key: string\]:/.test(t)) {
    const v = t.replace(/^\{\s*\[key: string\]:\s*/, "").replace(/;?\s*\}$/, "");
    return `map<${tsShape(v)}>`;
  }
  const ref = /^(?:inputs|outputs)\.[a-z]+\.([A-Za-z0-9]+)$/.exec(t);
  if (ref) return `ref:${ref[1]}`;
  if (/^(?:inputs|outputs)\.([A-Za-z0-9]+)$/.test(t)) return `ref:${t.split(".")[1]}`;
  if (["string", "number", "boolean", "any"].includes(t)) return t;
  return `?${t}`;
}

function schemaShape(p) {
  if (p.$ref) {
    if (p.$ref === "pulumi.json#/Any") return "any";
    if (p.$ref === "pulumi.json#/Json") return "any";
    if (p.$ref.startsWith("pulumi.json#/")) return "?" + p.$ref;
    return "ref:" + upper(p.$ref.split(":").pop()); // the SDK's interface names are Pascal case
  }
  switch (p.type) {
    case "array":
      return `array<${schemaShape(p.items)}>`;
    case "object":
      return `map<${p.additionalProperties ? schemaShape(p.additionalProperties) : "any"}>`;
    case "integer":
    case "number":
      return "number";
    default:
      return p.type;
  }
}

// Compare the property names (and shapes) of a schema map with an SDK block.
function compare(what, schemaProps, sdkProps, { required, checkOptional = false, skip = [] } = {}) {
  if (!sdkProps) {
    problem(`${what}: not in the SDK`);
    return;
  }
  schemaProps = schemaProps || {};
  for (const k of Object.keys(schemaProps)) {
    if (skip.includes(k)) continue;
    if (!sdkProps[k]) {
      problem(`${what}: property ${k} is in the schema, not in the SDK`);
      continue;
    }
    const a = schemaShape(schemaProps[k]);
    const b = tsShape(sdkProps[k].type);
    if (a !== b && !(a === "string" && b.startsWith("?"))) problem(`${what}.${k}: schema ${a}, SDK ${b}`);
    if (checkOptional) {
      const req = (required || []).includes(k);
      if (req === sdkProps[k].optional) problem(`${what}.${k}: required in ${req ? "the schema" : "the SDK"} only`);
    }
  }
  for (const k of Object.keys(sdkProps)) {
    if (!(k in schemaProps) && !skip.includes(k)) problem(`${what}: property ${k} is in the SDK, not in the schema`);
  }
}

const files = walk(sdkDir).filter((f) => f.endsWith(".js"));
const sdkResources = new Map(); // token -> .d.ts text, class name
const sdkFunctions = new Map();
for (const f of files) {
  const js = readFileSync(f, "utf8");
  const dts = f.replace(/\.js$/, ".d.ts");
  const r = /__pulumiType = '([^']+)'/.exec(js);
  if (r && r[1].includes(":")) sdkResources.set(r[1], readFileSync(dts, "utf8"));
  for (const m of js.matchAll(/invoke\("(openstack:[^"]+)"/g)) sdkFunctions.set(m[1], readFileSync(dts, "utf8"));
}
const member = (tok) => tok.split(":").pop();

// ---- tokens ----
const schemaRes = Object.keys(schema.resources || {});
const schemaFns = Object.keys(schema.functions || {});
for (const t of schemaRes) if (!sdkResources.has(t)) problem(`resource ${t}: in the schema, not in the SDK`);
for (const t of sdkResources.keys()) if (!schema.resources[t]) problem(`resource ${t}: in the SDK, not in the schema`);
for (const t of schemaFns) if (!sdkFunctions.has(t)) problem(`function ${t}: in the schema, not in the SDK`);
for (const t of sdkFunctions.keys()) if (!schema.functions[t]) problem(`function ${t}: in the SDK, not in the schema`);

// ---- resources ----
for (const [tok, text] of sdkResources) {
  const r = schema.resources[tok];
  if (!r) continue;
  const name = member(tok);
  const cls = blocks(text, new RegExp(`^export declare class (${name}) extends`), 0)[name];
  const ifs = blocks(text, /^export interface ([A-Za-z0-9]+) \{/, 0);
  // The class also declares static members and its constructor: keep the outputs only.
  const outputs = Object.fromEntries(Object.entries(cls || {}).filter(([, v]) => v.type.startsWith("pulumi.Output<")));
  compare(`${tok} outputs`, r.properties, outputs, { skip: ["id", "urn"] });
  compare(`${tok} Args`, r.inputProperties, ifs[`${name}Args`], { required: r.requiredInputs, checkOptional: true });
  compare(`${tok} State`, r.stateInputs?.properties, ifs[`${name}State`]);
}

// ---- functions ----
for (const [tok, text] of sdkFunctions) {
  const f = schema.functions[tok];
  if (!f) continue;
  const name = upper(member(tok));
  const ifs = blocks(text, /^export interface ([A-Za-z0-9]+) \{/, 0);
  if (f.inputs) {
    compare(`${tok} Args`, f.inputs.properties, ifs[`${name}Args`], { required: f.inputs.required, checkOptional: true });
  } else if (ifs[`${name}Args`]) problem(`${tok}: the SDK has ${name}Args, the schema no inputs`);
  compare(`${tok} Result`, f.outputs?.properties, ifs[`${name}Result`]);
}

// ---- object types ----
const typeBlocks = {};
for (const kind of ["input", "output"]) {
  const text = readFileSync(path.join(sdkDir, "types", `${kind}.d.ts`), "utf8");
  // Split by namespace (module), then read the interfaces of each at indent 4.
  for (const part of text.split(/^export declare namespace /m).slice(1)) {
    const ns = part.slice(0, part.indexOf(" "));
    for (const [n, props] of Object.entries(blocks(part, /^ {4}interface ([A-Za-z0-9]+) \{/, 4))) {
      const key = `openstack:${ns}/${n}:${n}`;
      typeBlocks[key] = { ...(typeBlocks[key] || {}), ...props };
    }
  }
}
// The SDK's names for the schema's types: Pascal case (getPortBinding -> GetPortBinding).
const sdkTypeName = (tok) => {
  const [pkg, mod, name] = tok.split(":");
  return `${pkg}:${mod.split("/")[0]}/${upper(name)}:${upper(name)}`;
};
const schemaTypes = Object.fromEntries(Object.entries(schema.types || {}).map(([k, v]) => [sdkTypeName(k), v]));
// A function's object-typed argument also gets an "...Args" interface (its Input form).
for (const tok of Object.keys(typeBlocks)) {
  const base = tok.replace(/Args$/, "").replace(/Args:/, ":");
  if (tok.endsWith("Args") && schemaTypes[base]) {
    compare(`type ${tok}`, schemaTypes[base].properties, typeBlocks[tok]);
    delete typeBlocks[tok];
  }
}
for (const [tok, t] of Object.entries(schemaTypes)) {
  if (!typeBlocks[tok]) {
    problem(`type ${tok}: in the schema, not in the SDK`);
    continue;
  }
  compare(`type ${tok}`, t.properties, typeBlocks[tok]);
}
for (const tok of Object.keys(typeBlocks)) if (!schemaTypes[tok]) problem(`type ${tok}: in the SDK, not in the schema`);

// ---- provider configuration ----
const provText = readFileSync(path.join(sdkDir, "provider.d.ts"), "utf8");
const provArgs = blocks(provText, /^export interface (ProviderArgs) \{/, 0).ProviderArgs;
compare("provider ProviderArgs", schema.provider?.inputProperties, provArgs, { required: schema.provider?.requiredInputs, checkOptional: true });

if (problems.length) {
  for (const p of problems) console.log(p);
  console.log(`check-sdk: ${problems.length} difference(s) between ${schemaFile} and ${sdkDir}`);
  process.exit(1);
}
console.log(
  `check-sdk: ok: ${schemaRes.length} resources, ${schemaFns.length} functions, ${Object.keys(schema.types || {}).length} types and the provider configuration match ${sdkDir}`,
);
