/**
 * The JSON printed by `nfv translate --format json`. Its shape is a contract (documented in
 * translators/tosca/README.md); fields may be added, never renamed or removed.
 */
import type { Diagnostic } from "../translators/diagnostics";
import type { ComponentGraph } from "../translators/graph/types";
import type { VnfModel } from "../translators/tosca/model";
import { diagnosticJson } from "./diagnostics-output";

export function translateJson(model: VnfModel | undefined, graph: ComponentGraph | undefined, diagnostics: Diagnostic[]): unknown {
  return {
    vnf: model
      ? {
          descriptorId: model.vnf.descriptorId,
          descriptorVersion: model.vnf.descriptorVersion,
          provider: model.vnf.provider,
          productName: model.vnf.productName,
          softwareVersion: model.vnf.softwareVersion,
          format: model.format,
        }
      : null,
    flavours: (model?.flavours ?? []).map((f) => ({
      id: f.id,
      description: f.description,
      vdus: f.vdus.map((v) => ({
        id: v.id,
        name: v.name,
        kind: v.kind,
        minInstances: v.minInstances,
        maxInstances: v.maxInstances,
        initialInstances: v.initialInstances,
        instancesByLevel: v.instancesByLevel,
      })),
      cps: f.cps.map((c) => ({ id: c.id, vdu: c.vduId, virtualLink: c.virtualLinkId ?? null, external: c.externalRequirement !== undefined })),
      vls: f.vls.map((v) => ({ id: v.id, cidr: v.cidr ?? null })),
      storages: f.storages.map((s) => ({ id: s.id, sizeGb: s.sizeGib })),
      aspects: f.aspects.map((a) => ({ id: a.id, maxScaleLevel: a.maxScaleLevel })),
      instantiationLevels: f.instantiationLevels.map((l) => ({ id: l.id, default: l.isDefault })),
      lcmHooks: Object.fromEntries(f.lcmHooks.map((h) => [h.operation, h.file])),
    })),
    graph: graph ?? null,
    diagnostics: diagnostics.map(diagnosticJson),
  };
}
