/**
 * Two LCM parts of a VM VNF's stack config entry, read with located errors:
 *
 *   hooks:              # Mgmt Driver scripts: LCM operation → local script, run on the VNFCs over `ssh`
 *     instantiate_end: mgmt/hw/configure.sh
 *   change_ext_conn:    # written by `nfv change-ext-conn`
 *     requests: [requests/hw-change.json]  # Tacker's ChangeExtVnfConnectivityRequests, as they are,
 *                                          # applied in order to the instantiate request; one more
 *                                          # request = one more change (its hooks run once)
 *     previous_addresses: {VDU1-0: 10.10.0.21}   # where `change_external_connectivity_start` dials
 *   change_vnfpkg:      # written by `nfv change-vnfpkg` (the new package is `package`)
 *     requests: [requests/v2.json]         # Tacker's ChangeCurrentVnfPkgRequests, oldest first: their
 *                                          # additionalParams apply over the instantiate request's
 *     previous_package: pkgs/v1            # while the change is under way only: the VNFCs in
 *     pending: [VDU1-1]                    # `pending` still run that package's image and flavor
 *
 * The VNFD's own `Vnflcm` hooks name Tacker's Python drivers, which do not run here; `hooks` is
 * how an operator gives each operation a script instead.
 */
import { existsSync } from "node:fs";
import * as path from "node:path";
import { LCM_OPERATIONS, type LcmOperation } from "../components/vnf/plan";
import type { DiagnosticBag, SourceLocation } from "../translators/diagnostics";
import { checkFile } from "../translators/user-file";
import type { YamlPath } from "../translators/yaml/located-yaml";

type Locate = (p: YamlPath, key?: boolean) => SourceLocation;

export interface ExtConnChange {
  /** The ChangeExtVnfConnectivityRequest files (absolute), in the order they were made. */
  requestPaths: string[];
  /** The number of changes made: the change hooks' trigger. */
  generation: number;
  /** SSH address of each VNFC before the change, by VNFC id. */
  previousAddresses: Record<string, string>;
}

export interface PackageChange {
  /** The ChangeCurrentVnfPkgRequest files (absolute), oldest first. */
  requestPaths: string[];
  /** A change under way: the package the `pending` VNFCs still run. */
  previousPackagePath?: string;
  pending: string[];
}

const isMapping = (v: unknown): v is Record<string, unknown> => typeof v === "object" && v !== null && !Array.isArray(v);

/** `hooks`: operation → script path (resolved against the project root; the file must exist). */
export function readHooks(raw: unknown, projectRoot: string, at: Locate, bag: DiagnosticBag): Partial<Record<LcmOperation, string>> | undefined {
  if (raw === undefined) return undefined;
  if (!isMapping(raw)) {
    bag.error("CONFIG_BAD_TYPE", `hooks must map LCM operations (${LCM_OPERATIONS.join(", ")}) to script paths`, at(["hooks"]));
    return undefined;
  }
  const out: Partial<Record<LcmOperation, string>> = {};
  for (const [op, file] of Object.entries(raw)) {
    if (!(LCM_OPERATIONS as readonly string[]).includes(op)) {
      bag.error("CONFIG_UNKNOWN_KEY", `hooks.${op} is not a Vnflcm operation (${LCM_OPERATIONS.join(", ")})`, at(["hooks", op], true));
      continue;
    }
    if (typeof file !== "string") {
      bag.error("CONFIG_BAD_TYPE", `hooks.${op} must be a script path`, at(["hooks", op]));
      continue;
    }
    const resolved = path.resolve(projectRoot, file);
    checkFile(resolved, `hooks.${op}`, at(["hooks", op]), bag);
    // Each script is copied to the VM under its basename: two different ones would overwrite each other.
    const twin = Object.entries(out).find(([, other]) => other !== resolved && path.basename(other) === path.basename(resolved));
    if (twin)
      bag.error(
        "CONFIG_BAD_VALUE",
        `hooks.${op} ${resolved} and hooks.${twin[0]} ${twin[1]} have the same file name: both would be copied to the same file on the VM; rename one`,
        at(["hooks", op]),
      );
    out[op as LcmOperation] = resolved;
  }
  return out;
}

/** `change_ext_conn`, as `nfv change-ext-conn` writes it. */
export function readExtConnChange(raw: unknown, projectRoot: string, at: Locate, bag: DiagnosticBag): ExtConnChange | undefined {
  if (raw === undefined) return undefined;
  const key = "change_ext_conn";
  if (!isMapping(raw)) {
    bag.error("CONFIG_BAD_TYPE", `${key} must be a mapping (requests, previous_addresses)`, at([key]));
    return undefined;
  }
  let ok = true;
  for (const k of Object.keys(raw)) {
    if (!["requests", "previous_addresses"].includes(k)) {
      bag.error("CONFIG_UNKNOWN_KEY", `unknown key '${key}.${k}' (expected requests, previous_addresses)`, at([key, k], true));
      ok = false;
    }
  }
  const requestPaths: string[] = [];
  if (!Array.isArray(raw.requests) || raw.requests.length === 0) {
    bag.error("CONFIG_MISSING_FIELD", `${key}.requests must list the ChangeExtVnfConnectivityRequest files, oldest first`, at([key]));
    ok = false;
  } else {
    raw.requests.forEach((file: unknown, i: number) => {
      if (typeof file !== "string") {
        bag.error("CONFIG_BAD_TYPE", `${key}.requests[${i}] must be a path`, at([key, "requests", i]));
        ok = false;
        return;
      }
      const resolved = path.resolve(projectRoot, file);
      if (checkFile(resolved, `${key}.requests[${i}]`, at([key, "requests", i]), bag)) {
        ok = false;
        return;
      }
      requestPaths.push(resolved);
    });
  }
  const previousAddresses: Record<string, string> = {};
  const prev = raw.previous_addresses ?? {};
  if (!isMapping(prev)) {
    bag.error("CONFIG_BAD_TYPE", `${key}.previous_addresses must map VNFC ids to addresses`, at([key, "previous_addresses"]));
    ok = false;
  } else {
    for (const [id, address] of Object.entries(prev)) {
      if (typeof address === "string" && address !== "") previousAddresses[id] = address;
      else {
        bag.error("CONFIG_BAD_TYPE", `${key}.previous_addresses.${id} must be an address`, at([key, "previous_addresses", id]));
        ok = false;
      }
    }
  }
  return ok ? { requestPaths, generation: requestPaths.length, previousAddresses } : undefined;
}

/** `change_vnfpkg`, as `nfv change-vnfpkg` writes it. */
export function readPackageChange(raw: unknown, projectRoot: string, at: Locate, bag: DiagnosticBag): PackageChange | undefined {
  if (raw === undefined) return undefined;
  const key = "change_vnfpkg";
  if (!isMapping(raw)) {
    bag.error("CONFIG_BAD_TYPE", `${key} must be a mapping (requests, previous_package, pending)`, at([key]));
    return undefined;
  }
  let ok = true;
  for (const k of Object.keys(raw)) {
    if (!["requests", "previous_package", "pending"].includes(k)) {
      bag.error("CONFIG_UNKNOWN_KEY", `unknown key '${key}.${k}' (expected requests, previous_package, pending)`, at([key, k], true));
      ok = false;
    }
  }
  const strings = (k: string, what: string): string[] | undefined => {
    const v = raw[k];
    if (v === undefined) return [];
    if (!Array.isArray(v) || !v.every((x) => typeof x === "string" && x !== "")) {
      bag.error("CONFIG_BAD_TYPE", `${key}.${k} must be a list of ${what}`, at([key, k]));
      return undefined;
    }
    return v as string[];
  };
  const requests = strings("requests", "ChangeCurrentVnfPkgRequest files, oldest first");
  const pending = strings("pending", "VNFC ids");
  if (!requests || !pending) return undefined;
  const requestPaths = requests.map((f) => path.resolve(projectRoot, f));
  requestPaths.forEach((f, i) => {
    if (checkFile(f, `${key}.requests[${i}]`, at([key, "requests", i]), bag)) ok = false;
  });
  let previousPackagePath: string | undefined;
  if (raw.previous_package !== undefined) {
    if (typeof raw.previous_package !== "string") {
      bag.error("CONFIG_BAD_TYPE", `${key}.previous_package must be a path`, at([key, "previous_package"]));
      return undefined;
    }
    previousPackagePath = path.resolve(projectRoot, raw.previous_package);
    if (!existsSync(previousPackagePath)) {
      bag.error("CONFIG_FILE_MISSING", `${key}.previous_package ${previousPackagePath} does not exist`, at([key, "previous_package"]));
      ok = false;
    }
  }
  if (pending.length > 0 && previousPackagePath === undefined) {
    bag.error("CONFIG_MISSING_FIELD", `${key}.pending names VNFCs still on the previous package: give previous_package too`, at([key, "pending"]));
    ok = false;
  }
  return ok ? { requestPaths, pending, ...(previousPackagePath ? { previousPackagePath } : {}) } : undefined;
}
