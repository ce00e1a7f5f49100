/**
 * The stack's own settings, read from `Pulumi.<stack>.yaml` and checked before anything is
 * registered: one error lists every problem, located in the stack file or the VIM file it names.
 */
import { existsSync, readFileSync } from "node:fs";
import * as path from "node:path";
import { DiagnosticBag, formatPath, type SourceLocation } from "../translators/diagnostics";
import { parseVimConfig, vimSpecFromObject, type Locator, type VimSpec } from "../translators/tacker/vim-config";
import { checkFile } from "../translators/user-file";
import { parseYaml, type LocatedDocument, type YamlPath } from "../translators/yaml/located-yaml";

export const PROJECT = "pulumi-nfv";

export interface VimEntry {
  /** The VIM's name: its key under `vims`. */
  name: string;
  type: VimSpec["type"];
  /** Tacker's vim-config.yaml fields; absent for a VIM read from another stack. */
  spec?: VimSpec;
  /** A Kubernetes VIM that another stack exports (`kubeconfigs.<vim>`), read by a StackReference. */
  stackReference?: StackReferenceVim;
  /** Kubernetes only: render manifests into this directory instead of calling the API server. */
  renderYamlToDirectory?: string;
}

export interface StackReferenceVim {
  /** The stack that exports the VIM: `<organization>/<project>/<stack>`, or its short forms. */
  stack: string;
  /** The VIM's name in that stack (a key of its `kubeconfigs` output). */
  vim: string;
}

export interface StackConfig {
  vims: VimEntry[];
}

/**
 * Checks the raw `pulumi-nfv:*` values. `stackFile` (the parsed Pulumi.<stack>.yaml, if found) only
 * serves to give positions; `projectRoot` anchors relative `file:` paths.
 */
export function readStackConfig(raw: { vims?: unknown }, projectRoot: string, stackFile?: LocatedDocument): { config: StackConfig; bag: DiagnosticBag } {
  const bag = new DiagnosticBag();
  const inStack = stackLocator("vims", stackFile);
  const vims: VimEntry[] = [];
  const rawVims = raw.vims ?? {};
  if (typeof rawVims !== "object" || rawVims === null || Array.isArray(rawVims)) {
    bag.error("CONFIG_BAD_TYPE", "vims must be a mapping of VIM name to VIM config", inStack([]));
    return { config: { vims }, bag };
  }
  for (const [name, value] of Object.entries(rawVims as Record<string, unknown>)) {
    const entry = vimEntry(name, value, projectRoot, inStack, bag);
    if (entry) vims.push(entry);
  }
  return { config: { vims }, bag };
}

function vimEntry(
  name: string,
  value: unknown,
  projectRoot: string,
  inStack: (p: YamlPath, key?: boolean) => SourceLocation,
  bag: DiagnosticBag,
): VimEntry | undefined {
  if (typeof value !== "object" || value === null || Array.isArray(value)) {
    bag.error("CONFIG_BAD_TYPE", `VIM '${name}' must be a mapping (vim-config.yaml keys, or file:)`, inStack([name]));
    return undefined;
  }
  if ("stack_reference" in value) return referencedVim(name, value as Record<string, unknown>, inStack, bag);
  // `file` and `render_yaml_to_directory` are ours; every other key is Tacker's vim-config.yaml.
  const { file, render_yaml_to_directory: render, ...tacker } = value as Record<string, unknown>;
  if (render !== undefined && typeof render !== "string") {
    bag.error("CONFIG_BAD_TYPE", "render_yaml_to_directory must be a path", inStack([name, "render_yaml_to_directory"]));
  }

  let spec: VimSpec | undefined;
  if (file !== undefined) {
    if (typeof file !== "string") {
      bag.error("CONFIG_BAD_TYPE", "file must be the path of a vim-config.yaml", inStack([name, "file"]));
      return undefined;
    }
    for (const key of Object.keys(tacker)) {
      bag.error("CONFIG_MIXED_VIM", `'${key}' is set inline while 'file' names a vim-config.yaml; use one or the other`, inStack([name, key], true));
    }
    spec = vimFromFile(path.resolve(projectRoot, file), bag, inStack([name, "file"]));
  } else {
    const locate: Locator = (p, key) => inStack([name, ...p], key);
    spec = vimSpecFromObject(tacker, locate, bag);
  }
  if (!spec) return undefined;
  if (render !== undefined && spec.type !== "kubernetes") {
    bag.error("CONFIG_BAD_TYPE", "render_yaml_to_directory applies to Kubernetes VIMs only", inStack([name, "render_yaml_to_directory"]));
    return undefined;
  }
  return { name, type: spec.type, spec, ...(typeof render === "string" ? { renderYamlToDirectory: path.resolve(projectRoot, render) } : {}) };
}

/** The message for a `vim` that names no VIM of the stack. */
export function notAVimOfTheStack(vim: string, vimTypes: ReadonlyMap<string, string>): string {
  return `vim '${vim}' is not one of the stack's vims (${[...vimTypes.keys()].join(", ") || "none"})`;
}

/**
 * Reports a `vim` that must name a VIM of type `want` (`runsOn` says why) but names none, or one of
 * another type. A refused VIM has its own error: naming it is not a second one.
 */
export function checkVimType(
  vim: string,
  want: string,
  runsOn: string,
  vimTypes: ReadonlyMap<string, string>,
  refusedVims: ReadonlySet<string>,
  where: SourceLocation,
  bag: DiagnosticBag,
): void {
  if (refusedVims.has(vim) || vimTypes.get(vim) === want) return;
  if (vimTypes.has(vim)) bag.error("CONFIG_WRONG_VIM", `vim '${vim}' is of type ${vimTypes.get(vim)}; ${runsOn}`, where);
  else bag.error("CONFIG_UNKNOWN_VIM", notAVimOfTheStack(vim, vimTypes), where);
}

/** Pulumi's stack name forms: `stack`, `project/stack`, `organization/project/stack`. */
const STACK_NAME = /^(?:[A-Za-z0-9_.-]+\/){0,2}[A-Za-z0-9_.-]+$/;

/**
 * `stack_reference` (+ `vim`): a Kubernetes VIM made or registered by another stack, such as the
 * VIM of a cluster stack, read from that stack's outputs; its credentials stay secrets on the way.
 */
function referencedVim(
  name: string,
  value: Record<string, unknown>,
  inStack: (p: YamlPath, key?: boolean) => SourceLocation,
  bag: DiagnosticBag,
): VimEntry | undefined {
  const { stack_reference: stack, vim = name, ...rest } = value;
  for (const key of Object.keys(rest)) {
    bag.error(
      "CONFIG_MIXED_VIM",
      `'${key}' is set while 'stack_reference' reads the VIM from another stack; a referenced VIM takes only stack_reference and vim`,
      inStack([name, key], true),
    );
  }
  let ok = Object.keys(rest).length === 0;
  if (typeof stack !== "string" || !STACK_NAME.test(stack)) {
    bag.error("CONFIG_BAD_VALUE", "stack_reference must name a stack: <organization>/<project>/<stack>", inStack([name, "stack_reference"]));
    ok = false;
  }
  if (typeof vim !== "string" || vim === "") {
    bag.error("CONFIG_BAD_TYPE", "vim must be the VIM's name in the referenced stack", inStack([name, "vim"]));
    ok = false;
  }
  return ok ? { name, type: "kubernetes", stackReference: { stack: stack as string, vim: vim as string } } : undefined;
}

function vimFromFile(file: string, bag: DiagnosticBag, from: SourceLocation): VimSpec | undefined {
  if (checkFile(file, "vim-config file", from, bag)) return undefined;
  try {
    const { spec, bag: fileBag } = parseVimConfig(readFileSync(file, "utf8"), file);
    bag.add(...fileBag.items);
    return spec;
  } catch (err) {
    const diagnostics = (err as { diagnostics?: DiagnosticBag["items"] }).diagnostics;
    if (!diagnostics) throw err;
    bag.add(...diagnostics);
    return undefined;
  }
}

/**
 * Where a path under `pulumi-nfv:<key>` is: its line in Pulumi.<stack>.yaml when the file is
 * known, and always the config path (`pulumi-nfv:vims.edge.auth_url`).
 */
export function stackLocator(key: string, stackFile?: LocatedDocument): (p: YamlPath, atKey?: boolean) => SourceLocation {
  return (p, atKey = false) => {
    const full = ["config", `${PROJECT}:${key}`, ...p];
    const where = stackFile ? (atKey ? stackFile.keyLocation(full) : stackFile.location(full)) : {};
    return { ...where, path: `${PROJECT}:${formatPath([key, ...p])}` };
  };
}

/** The stack's settings file, parsed for positions only; undefined when absent or unreadable. */
export function loadStackFile(projectRoot: string, stack: string): LocatedDocument | undefined {
  const file = path.join(projectRoot, "stacks", `Pulumi.${stack}.yaml`);
  if (!existsSync(file)) return undefined;
  return parseYaml(readFileSync(file, "utf8"), path.relative(process.cwd(), file) || file).documents[0];
}

/** The directory holding Pulumi.yaml, found upwards from this file. */
export function findProjectRoot(start = __dirname): string {
  let dir = start;
  while (!existsSync(path.join(dir, "Pulumi.yaml"))) {
    const parent = path.dirname(dir);
    if (parent === dir) throw new Error(`Pulumi.yaml not found above ${start}`);
    dir = parent;
  }
  return dir;
}
