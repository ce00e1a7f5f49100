/**
 * A VNF entry's `hook_parameters`: the `key=value` lines every hook of the VNF reads on stdin. A
 * value is a literal, or a reference to another VNF's stack output (what `pulumi stack output vnfs`
 * shows for it), resolved as a Pulumi output, never copied by hand:
 *
 *   hook_parameters:
 *     greeting: hello
 *     server_address: ${vnfs.k8sr.vnfcs.workerNode-0.ips[0]}
 *     server_port: ${vnfs.nsserver.services.server.ports[0].nodePort}
 *
 * Values are data on stdin, never part of a command line or a script; a value with a line break
 * would be two lines, so it is refused (literals when read, resolved values when resolved).
 */
import type { DiagnosticBag, SourceLocation } from "../translators/diagnostics";
import type { YamlPath } from "../translators/yaml/located-yaml";

type Locate = (p: YamlPath, key?: boolean) => SourceLocation;

/** `${vnfs.<vnf>.<path>}`: a path into another VNF's stack output. */
export interface OutputReference {
  vnf: string;
  path: (string | number)[];
  /** As written, for messages. */
  text: string;
}

export type HookParameter = { value: string } | { ref: OutputReference };

const KEY = /^[A-Za-z_][A-Za-z0-9_]*$/;
const REFERENCE = /^\$\{vnfs\.([^.[\]{}\s]+)((?:\.[^.[\]{}\s]+|\[\d+\])+)\}$/;
const STEP = /\.([^.[\]{}\s]+)|\[(\d+)\]/g;

/** `hook_parameters` of one entry, checked; undefined when absent or wrong throughout. */
export function readHookParameters(raw: unknown, at: Locate, bag: DiagnosticBag): Record<string, HookParameter> | undefined {
  if (raw === undefined) return undefined;
  const key = "hook_parameters";
  if (typeof raw !== "object" || raw === null || Array.isArray(raw)) {
    bag.error("CONFIG_BAD_TYPE", `${key} must map parameter names to values or \${vnfs.<vnf>.<path>} references`, at([key]));
    return undefined;
  }
  const out: Record<string, HookParameter> = {};
  for (const [name, v] of Object.entries(raw)) {
    if (!KEY.test(name)) {
      bag.error(
        "CONFIG_BAD_VALUE",
        `${key}.${name}: a parameter name is letters, digits and _, not starting with a digit (it is the key of a key=value line)`,
        at([key, name], true),
      );
      continue;
    }
    if (typeof v === "number" || typeof v === "boolean") {
      out[name] = { value: String(v) };
      continue;
    }
    if (typeof v !== "string") {
      bag.error("CONFIG_BAD_TYPE", `${key}.${name} must be a string, a number or a \${vnfs.<vnf>.<path>} reference`, at([key, name]));
      continue;
    }
    const ref = parseReference(v);
    if (ref) out[name] = { ref };
    else if (v.includes("${"))
      bag.error(
        "CONFIG_BAD_REFERENCE",
        `${key}.${name}: '${v}' is not a reference: write the whole value as \${vnfs.<vnf>.<path>}, the path of dotted keys and [index]es (e.g. \${vnfs.server.services.web.ports[0].nodePort})`,
        at([key, name]),
      );
    else if (/[\r\n]/.test(v)) bag.error("CONFIG_BAD_VALUE", `${key}.${name} has a line break: hooks read one key=value per line`, at([key, name]));
    else out[name] = { value: v };
  }
  return out;
}

export function parseReference(text: string): OutputReference | undefined {
  const m = REFERENCE.exec(text);
  if (!m) return undefined;
  const path = [...m[2].matchAll(STEP)].map((s) => (s[1] !== undefined ? s[1] : Number(s[2])));
  return { vnf: m[1], path, text };
}

/** The value at `ref.path` of a VNF's stack output, as a line-safe string; a missing step throws, naming what is there. */
export function valueAt(output: unknown, ref: OutputReference, parameter: string): string {
  let v: unknown = output;
  const walked: string[] = [];
  for (const step of ref.path) {
    const here = walked.length ? `vnfs.${ref.vnf}${walked.join("")}` : `vnfs.${ref.vnf}`;
    const next = v !== null && typeof v === "object" ? (v as Record<string | number, unknown>)[step] : undefined;
    if (next === undefined) {
      const has = v !== null && typeof v === "object" ? Object.keys(v).join(", ") || "nothing" : `the value ${JSON.stringify(v)}`;
      throw new Error(`hook_parameters.${parameter}: ${ref.text}: ${here} has no ${typeof step === "number" ? `[${step}]` : `'${step}'`} (it has ${has})`);
    }
    walked.push(typeof step === "number" ? `[${step}]` : `.${step}`);
    v = next;
  }
  if (typeof v !== "string" && typeof v !== "number" && typeof v !== "boolean")
    throw new Error(`hook_parameters.${parameter}: ${ref.text} is ${v === null ? "null" : `a${Array.isArray(v) ? "n array" : "n object"}`}, not a value`);
  const text = String(v);
  if (/[\r\n]/.test(text)) throw new Error(`hook_parameters.${parameter}: ${ref.text} has a line break: hooks read one key=value per line`);
  return text;
}

/** The VNFs an entry's parameters refer to. */
export function referencedVnfs(parameters: Record<string, HookParameter> | undefined): string[] {
  return [...new Set(Object.values(parameters ?? {}).flatMap((p) => ("ref" in p ? [p.ref.vnf] : [])))];
}
