/**
 * The `network_services` part of a stack config: NS packages (SOL007) whose constituents are VNF
 * entries of the same stack, each on the VIM its entry names:
 *
 *   network_services:
 *     hybrid:
 *       package: examples/hybrid-ns/packages/ns   # the NS package (directory or zip)
 *       flavour: simple                            # optional: the NSD's first NS flavour
 *       level: ...                                 # optional: the flavour's default level
 *       vnfs: {client: nsclient, server: nsserver} # NSD VNF node → VNF entry of `vnfs`
 *       links: {service_link: <network id>}        # optional: an existing network for an NS
 *                                                  # virtual link (nothing is made for it)
 *
 * The entries stay what they are (`nfv heal --vnf nsclient` and `nfv scale` work on them as on any
 * VNF); the NS adds the NSD's checks (descriptor ids, flavours, VIM kinds, links, dependencies), the
 * deployment order and the links. Checked first, every problem located.
 */
import { existsSync } from "node:fs";
import * as path from "node:path";
import type { DiagnosticBag, SourceLocation } from "../translators/diagnostics";
import { planNsPackage } from "../translators/load-ns-package";
import type { Constituent, NsPlan } from "../translators/ns/plan-ns";
import type { YamlPath } from "../translators/yaml/located-yaml";
import { isMapping, type PreparedVnf } from "./vnfs";

type Locate = (p: YamlPath, key?: boolean) => SourceLocation;

export interface NsEntry {
  name: string;
  packagePath: string;
  flavourId?: string;
  levelId?: string;
  /** NSD VNF node id → the name of its VNF entry. */
  vnfs: Record<string, string>;
  /** NS virtual link id → an existing network's id. */
  links: Record<string, string>;
  /** Set by planNsEntries when the NS and its constituents fit. */
  plan?: NsPlan;
}

const KEYS = ["package", "flavour", "level", "vnfs", "links"];
/** The constituents a NetworkService deploys. */
const DEPLOYABLE = new Set(["vm-vnf", "container-vnf"]);

/** Structural checks of `network_services` (sync): keys, the package, VNF entries that exist and belong to one NS only. */
export function readNsEntries(raw: unknown, projectRoot: string, vnfNames: ReadonlySet<string>, locate: Locate, bag: DiagnosticBag): NsEntry[] {
  if (raw === undefined) return [];
  if (!isMapping(raw)) {
    bag.error("CONFIG_BAD_TYPE", "network_services must be a mapping of NS name to its settings", locate([]));
    return [];
  }
  const entries: NsEntry[] = [];
  const owner = new Map<string, string>();
  for (const [name, value] of Object.entries(raw)) {
    const at = (p: YamlPath, key?: boolean) => locate([name, ...p], key);
    if (!isMapping(value)) {
      bag.error("CONFIG_BAD_TYPE", `network service '${name}' must be a mapping (package, vnfs, ...)`, at([]));
      continue;
    }
    for (const key of Object.keys(value)) {
      if (!KEYS.includes(key)) bag.error("CONFIG_UNKNOWN_KEY", `unknown key '${key}' (expected one of ${KEYS.join(", ")})`, at([key], true));
    }
    const text = (key: string): string | undefined => {
      const v = value[key];
      if (v === undefined || (typeof v === "string" && v !== "")) return v;
      bag.error("CONFIG_BAD_TYPE", `${key} must be a non-empty string`, at([key]));
      return undefined;
    };
    const pkg = text("package");
    if (value.package === undefined) bag.error("CONFIG_MISSING_FIELD", "package is required (an NS package directory or zip)", at([], true));
    const packagePath = pkg === undefined ? undefined : path.resolve(projectRoot, pkg);
    if (packagePath && !existsSync(packagePath)) bag.error("CONFIG_FILE_MISSING", `package ${packagePath} does not exist`, at(["package"]));
    const vnfs = names(value.vnfs, "vnfs", at, bag);
    if (value.vnfs === undefined)
      bag.error("CONFIG_MISSING_FIELD", "vnfs is required: each VNF node of the NSD → the VNF entry (under vnfs) that deploys it", at([], true));
    for (const [id, vnf] of Object.entries(vnfs ?? {})) {
      if (!vnfNames.has(vnf))
        bag.error("CONFIG_UNKNOWN_VNF", `vnfs.${id}: '${vnf}' is not a VNF of this stack (${[...vnfNames].join(", ") || "none"})`, at(["vnfs", id]));
      else if (owner.has(vnf)) bag.error("CONFIG_BAD_VALUE", `vnfs.${id}: VNF '${vnf}' is already a constituent of ${owner.get(vnf)}`, at(["vnfs", id]));
      else owner.set(vnf, `network service '${name}' (vnfs.${id})`);
    }
    const links = names(value.links, "links", at, bag) ?? {};
    const flavourId = text("flavour");
    const levelId = text("level");
    if (packagePath && vnfs) entries.push({ name, packagePath, vnfs, links, ...(flavourId ? { flavourId } : {}), ...(levelId ? { levelId } : {}) });
  }
  return entries;
}

/** A mapping of ids to non-empty strings. */
function names(raw: unknown, key: string, at: Locate, bag: DiagnosticBag): Record<string, string> | undefined {
  if (raw === undefined) return undefined;
  if (!isMapping(raw)) {
    bag.error("CONFIG_BAD_TYPE", `${key} must be a mapping`, at([key]));
    return undefined;
  }
  const out: Record<string, string> = {};
  for (const [id, v] of Object.entries(raw)) {
    if (typeof v === "string" && v !== "") out[id] = v;
    else bag.error("CONFIG_BAD_TYPE", `${key}.${id} must be a non-empty string`, at([key, id]));
  }
  return out;
}

/**
 * Each NS read and planned with its constituents as their entries prepared them (the package
 * read once): the NSD's problems located in the NS package, a constituent the NS cannot deploy at
 * its `vnfs` key. Sets `plan` on the entries that fit.
 */
export async function planNsEntries(
  entries: NsEntry[],
  prepared: PreparedVnf[],
  vimTypes: ReadonlyMap<string, string>,
  locate: Locate,
  locateVnfs: Locate,
  bag: DiagnosticBag,
): Promise<void> {
  for (const entry of entries) {
    const constituents: Record<string, Constituent> = {};
    let usable = true;
    for (const [id, vnf] of Object.entries(entry.vnfs)) {
      const p = prepared.find((x) => x.entry.name === vnf);
      if (!p?.model || !p.entry.vim) {
        // Its own problems are reported already (or it is a registry on a host, below).
        usable = false;
        if (p?.component === "registry-on-host")
          bag.error("CONFIG_BAD_VALUE", `vnfs.${id}: '${vnf}' is a registry on an existing host, not a VNF an NS deploys`, locate([entry.name, "vnfs", id]));
        continue;
      }
      if (!DEPLOYABLE.has(p.component)) {
        bag.error("CONFIG_BAD_VALUE", `vnfs.${id}: '${vnf}' is a ${p.component}; a network service deploys VM VNFs and CNFs`, locate([entry.name, "vnfs", id]));
        usable = false;
        continue;
      }
      const vimKind = vimTypes.get(p.entry.vim);
      constituents[id] = { model: p.model, component: p.component as Constituent["component"], vimKind: vimKind === "kubernetes" ? "kubernetes" : "openstack" };
    }
    if (!usable) continue;
    const planned = await planNsPackage(entry.packagePath, constituents, { flavourId: entry.flavourId, levelId: entry.levelId });
    bag.add(...planned.diagnostics);
    if (!planned.plan) continue;
    for (const id of Object.keys(entry.links)) {
      if (!planned.plan.virtualLinks.some((l) => l.id === id))
        bag.error(
          "CONFIG_BAD_VALUE",
          `links.${id}: the NS flavour ${planned.plan.flavourId} has no virtual link '${id}' that a constituent joins (${planned.plan.virtualLinks.map((l) => l.id).join(", ") || "none"})`,
          locate([entry.name, "links", id], true),
        );
    }
    checkReferenceOrder(entry, planned.plan, prepared, locateVnfs, bag);
    entry.plan = planned.plan;
  }
}

/** Within an NS, a constituent's hook_parameters may only name constituents deployed before it (the NSD's order). */
function checkReferenceOrder(entry: NsEntry, plan: NsPlan, prepared: PreparedVnf[], locateVnfs: Locate, bag: DiagnosticBag): void {
  const order = plan.vnfs.map((v) => entry.vnfs[v.id]);
  order.forEach((vnf, i) => {
    const params = prepared.find((p) => p.entry.name === vnf)?.entry.hookParameters ?? {};
    for (const [key, param] of Object.entries(params)) {
      if (!("ref" in param) || order.indexOf(param.ref.vnf) <= i) continue;
      bag.error(
        "CONFIG_BAD_REFERENCE",
        `hook_parameters.${key}: ${param.ref.text}: '${param.ref.vnf}' is deployed after '${vnf}' in network service '${entry.name}' (the NSD's order: ${order.join(", ")})`,
        locateVnfs([vnf, "hook_parameters", key]),
      );
    }
  });
}
