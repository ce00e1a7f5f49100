/**
 * A Tacker InstantiateVnfRequest against the flavours of a VNF model: the flavour, the level and the
 * links it names must exist. One code per mistake, for `nfv translate` and every component alike;
 * `path` is where in the request the mistake is.
 */
import { errorAt, type Diagnostic } from "../diagnostics";
import type { InstantiateVnfRequest } from "../tacker/instantiate-request";
import type { Flavour } from "../tosca/model";

/** `flavourId` names no flavour (`fromRequest`: it is the request's). */
export function unknownFlavour(flavours: readonly Flavour[], flavourId: string, fromRequest: boolean): Diagnostic {
  const names = flavours.map((f) => f.id).join(", ") || "none";
  return errorAt(
    "VNF_UNKNOWN_FLAVOUR",
    `flavourId \`${flavourId}\` is not a flavour of the VNFD (flavours: ${names})`,
    fromRequest ? { path: "flavourId" } : {},
  );
}

/** The flavour planned (`nfv translate --flavour`) is not the request's. */
export function flavourMismatch(request: InstantiateVnfRequest, flavourId: string): Diagnostic {
  return errorAt("REQUEST_MISMATCH", `the instantiate request is for flavour \`${request.flavourId}\`, not \`${flavourId}\``, { path: "flavourId" });
}

/** `levelId` names no instantiation level of the flavour. */
export function unknownLevel(flavour: Flavour, levelId: string): Diagnostic {
  const names = flavour.instantiationLevels.map((l) => l.id).join(", ") || "none";
  return errorAt("VNF_UNKNOWN_LEVEL", `instantiationLevelId \`${levelId}\` is not a level of flavour \`${flavour.id}\` (levels: ${names})`, {
    path: "instantiationLevelId",
  });
}

/** Links of the request that name a VL or a CP the flavour does not have. */
export function unknownLinkTargets(flavour: Flavour, request: InstantiateVnfRequest): Diagnostic[] {
  const out: Diagnostic[] = [];
  for (const m of request.extManagedVirtualLinks ?? []) {
    if (!flavour.vls.some((v) => v.id === m.vnfVirtualLinkDescId))
      out.push(
        errorAt("VNF_UNKNOWN_VL", `extManagedVirtualLinks: \`${m.vnfVirtualLinkDescId}\` is not a virtual link of flavour \`${flavour.id}\``, {
          path: "extManagedVirtualLinks",
        }),
      );
  }
  for (const link of request.extVirtualLinks ?? []) {
    for (const ext of link.extCps) {
      if (!flavour.cps.some((c) => c.id === ext.cpdId))
        out.push(
          errorAt(
            "VNF_UNKNOWN_CP",
            `extVirtualLinks[${link.id}]: cpdId \`${ext.cpdId}\` is not a CP of flavour \`${flavour.id}\` (CPs: ${flavour.cps.map((c) => c.id).join(", ")})`,
            { path: `extVirtualLinks.${link.id}.extCps` },
          ),
        );
    }
  }
  return out;
}
