/**
 * `loadVnfPackage(packagePath, request?)`: a VNF package read, validated and planned in one call,
 * the path that `nfv translate` and the stack program take (the translator, the Tacker request
 * reader, the component graph), for programs that use the components themselves. Nothing throws
 * on bad input: every problem is a diagnostic, located at `file:line:column` where it comes from
 * a file (a plan's problem in a package file too, `locate-in-package.ts`).
 */
import { readFileSync } from "node:fs";
import type { Diagnostic } from "./diagnostics";
import { planComponentGraph } from "./graph/to-component-graph";
import { locateInPackage } from "./locate-in-package";
import type { ComponentGraph, ComponentKind } from "./graph/types";
import {
  applyExtConnChange,
  applyPackageChange,
  readChangeExtConnRequest,
  readChangeVnfpkgRequest,
  readInstantiateRequest,
  type InstantiateVnfRequest,
} from "./tacker/instantiate-request";
import type { VnfModel } from "./tosca/model";
import { openPackage, type ReadPackage } from "./tosca/phase1-read/read-package";
import { translateRead } from "./tosca/translate";

export interface LoadVnfPackageOptions {
  /** The flavour to plan; default the request's `flavourId`, else the VNFD's first flavour. */
  flavourId?: string;
  /** What SOL001/SOL004 forbid but Tacker accepts is an error, not a warning (`nfv validate --strict`). */
  strict?: boolean;
  /**
   * Tacker ChangeExtVnfConnectivityRequest files, applied in order to the request (as `nfv
   * change-ext-conn` records them in stack config); only with a request.
   */
  extConnChanges?: string[];
  /**
   * Tacker ChangeCurrentVnfPkgRequest files (`nfv change-vnfpkg`), oldest first: their
   * additionalParams apply over the request's. They touch no link, so they commute with `extConnChanges`.
   */
  packageChanges?: string[];
  /**
   * The VNF instance id `up` gives a containerized VNF (the stack's `vnf_instance_id`): the names
   * Tacker derives from it (a legacy VDU's objects, a Helm release without `helm_release_name`) are
   * then the graph's. Default: the all-zero UUID.
   */
  vnfInstanceId?: string;
}

export interface LoadedVnfPackage {
  /** The package as read, a directory or a zip alike: give `pkg.source` to a component as `packageSource`. */
  pkg: ReadPackage;
  /** The VNF model; absent when the package has an error. */
  model?: VnfModel;
  /** The request with its changes applied; absent when it (or a change) has an error, or none was given. */
  request?: InstantiateVnfRequest;
  /** The component graph of the planned flavour; absent when the model, the request or the flavour is unusable. */
  graph?: ComponentGraph;
  /** The component that deploys the flavour: the graph's root. */
  component?: ComponentKind;
  /** Every problem (package, request, plan), in that order. */
  diagnostics: Diagnostic[];
}

/**
 * Reads the package (a directory, a `.zip`/`.csar` or one VNFD YAML), reads `request` (a path to
 * Tacker's InstantiateVnfRequest file, or the request itself) and plans the component graph of
 * the flavour. A problem of the plan that names no file is located in the request file.
 */
export async function loadVnfPackage(
  packagePath: string,
  request?: string | InstantiateVnfRequest,
  options: LoadVnfPackageOptions = {},
): Promise<LoadedVnfPackage> {
  const pkg = await openPackage(packagePath);
  const { model, diagnostics } = translateRead(pkg, { strict: options.strict });
  const requestFile = typeof request === "string" ? request : undefined;
  const read = typeof request === "string" ? readRequestFile(request, diagnostics) : request;
  const changed = read ? applyChanges(read, options.extConnChanges ?? [], options.packageChanges ?? [], diagnostics) : undefined;
  const loaded: LoadedVnfPackage = { pkg, diagnostics, ...(model ? { model } : {}), ...(changed ? { request: changed } : {}) };
  // A request that was given and is unusable plans nothing: its errors are the answer.
  if (!model || (request !== undefined && !changed)) return loaded;
  const flavourId = options.flavourId ?? changed?.flavourId ?? model.flavours[0]?.id;
  if (flavourId === undefined) return loaded;
  const planned = planComponentGraph(model, flavourId, changed, {
    source: pkg.source,
    ...(options.vnfInstanceId !== undefined ? { vnfInstanceId: options.vnfInstanceId } : {}),
  });
  diagnostics.push(
    ...locateInPackage(planned.diagnostics, pkg.source).map((d) => (d.file === undefined && requestFile !== undefined ? { ...d, file: requestFile } : d)),
  );
  if (!planned.graph) return loaded;
  const root = planned.graph.nodes.find((n) => n.kind === "component");
  return { ...loaded, graph: planned.graph, ...(root?.kind === "component" ? { component: root.component } : {}) };
}

function readRequestFile(file: string, diagnostics: Diagnostic[]): InstantiateVnfRequest | undefined {
  const text = readText(file, diagnostics);
  if (text === undefined) return undefined;
  const read = readInstantiateRequest(text, file);
  diagnostics.push(...read.diagnostics);
  return read.request;
}

function applyChanges(request: InstantiateVnfRequest, extConn: string[], packages: string[], diagnostics: Diagnostic[]): InstantiateVnfRequest | undefined {
  let current = request;
  for (const file of extConn) {
    const text = readText(file, diagnostics);
    if (text === undefined) return undefined;
    const change = readChangeExtConnRequest(text, file);
    diagnostics.push(...change.diagnostics);
    if (!change.request) return undefined;
    current = applyExtConnChange(current, change.request);
  }
  for (const file of packages) {
    const text = readText(file, diagnostics);
    if (text === undefined) return undefined;
    const change = readChangeVnfpkgRequest(text, file);
    diagnostics.push(...change.diagnostics);
    if (!change.request) return undefined;
    current = applyPackageChange(current, change.request);
  }
  return current;
}

/** A file's text, or an error at the file (missing, a directory, not readable). */
function readText(file: string, diagnostics: Diagnostic[]): string | undefined {
  try {
    return readFileSync(file, "utf8");
  } catch (e) {
    diagnostics.push({
      severity: "error",
      code: "REQUEST_UNREADABLE",
      message: `cannot be read: ${(e as NodeJS.ErrnoException).code ?? (e as Error).message}`,
      file,
    });
    return undefined;
  }
}
