/** The VNF node's `Vnflcm` interface → LCM hooks (operation → implementation artifact). */
import type { LcmHook } from "../model";
import type { NodeTemplate, Topology } from "../phase4-templates/topology";
import { nodePath } from "../phase4-templates/topology";
import type { PackageSource } from "../phase1-read/package-source";
import type { SemanticContext } from "./context";
import { T } from "./sol001-types";

export interface LcmOperations {
  hooks: LcmHook[];
  /** Operations declared without an implementation. */
  defaults: string[];
}

export function readLcmHooks(vnf: NodeTemplate, topo: Topology, ctx: SemanticContext, source: PackageSource): LcmOperations {
  const hooks: LcmHook[] = [];
  const defaults: string[] = [];
  if (!vnf.type) return { hooks, defaults };
  const ifTypes = ctx.types.interfaces(vnf.type);
  const warned = new Set<string>();
  for (const [name, ops] of vnf.interfaces) {
    const ifType = ifTypes.get(name);
    if (!ifType || !ctx.types.isA(ctx.types.get("interface_types", ifType), T.VNFLCM)) continue;
    for (const [operation, impl] of ops) {
      if (!impl.implementation) {
        defaults.push(operation);
        continue;
      }
      const artifact = vnf.artifacts.get(impl.implementation);
      if (!artifact) continue; // LCM_UNKNOWN_ARTIFACT already reported
      const path = [...nodePath(vnf.name), "artifacts", artifact.name];
      const firstUse = !warned.has(artifact.name);
      warned.add(artifact.name);
      // Artifacts are relative to the file; Tacker samples write `Scripts/x.py` from the root, so
      // accept a path that exists from either place.
      const file = source.read(artifact.resolved) ? artifact.resolved : artifact.file;
      if (firstUse && !source.read(file)) {
        ctx.problems.warning("ARTIFACT_FILE_MISSING", `LCM artifact file \`${artifact.file}\` is not in the package`, topo.file, path);
      }
      if (firstUse && artifact.type !== undefined && artifact.type !== T.PYTHON) {
        ctx.problems.warning("LCM_ARTIFACT_TYPE", `Tacker v2 runs only ${T.PYTHON} Mgmt Drivers; \`${artifact.name}\` is \`${artifact.type}\``, topo.file, [
          ...path,
          "type",
        ]);
      }
      hooks.push({ operation, artifact: artifact.name, file, artifactType: artifact.type ?? "", dependencies: impl.dependencies });
    }
  }
  return { hooks, defaults };
}
