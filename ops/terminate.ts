/**
 * What `nfv terminate` takes out of a stack's config: a network service's `network_services`
 * entry with the `vnfs` entries of its constituents (Tacker's NS terminate), or one VNF's entry.
 * The `up` that follows deletes their resources, dependents first, with their delete-time hooks.
 * Decided before anything runs; the command checks that the config left is still valid.
 */
import { DiagnosticError } from "../translators/diagnostics";
import { loadStackSettings, type StackSettings } from "../stacks/settings";
import type { Operation } from "./operations";
import type { RawStackConfig } from "./stack-state";

export interface TerminateArgs {
  /** A network service of the stack's `network_services`. */
  ns?: string;
  /** A VNF of the stack's `vnfs` that no network service holds. */
  vnf?: string;
}

/** The entries a terminate removes. */
export interface TerminateTargets {
  ns?: string;
  vnfs: string[];
}

const fail = (code: string, message: string): never => {
  throw new DiagnosticError("cannot plan the terminate", [{ severity: "error", code, message }]);
};

export function terminateTargets(settings: Pick<StackSettings, "vnfs" | "networkServices">, args: TerminateArgs): TerminateTargets {
  if ((args.ns === undefined) === (args.vnf === undefined)) fail("OP_TERMINATE_WHAT", "name one network service (--ns) or one VNF (--vnf)");
  if (args.ns !== undefined) {
    const ns =
      settings.networkServices.find((n) => n.name === args.ns) ??
      fail(
        "OP_UNKNOWN_NS",
        `network service '${args.ns}' is not in the stack (network services: ${settings.networkServices.map((n) => n.name).join(", ") || "none"})`,
      );
    return { ns: ns.name, vnfs: Object.values(ns.vnfs) };
  }
  const name = args.vnf!;
  if (!settings.vnfs.some((p) => p.entry.name === name))
    fail("OP_UNKNOWN_VNF", `VNF '${name}' is not in the stack (VNFs: ${settings.vnfs.map((p) => p.entry.name).join(", ") || "none"})`);
  const holder = settings.networkServices.find((n) => Object.values(n.vnfs).includes(name));
  if (holder) {
    const id = Object.entries(holder.vnfs).find(([, v]) => v === name)![0];
    fail("OP_NS_CONSTITUENT", `VNF '${name}' is constituent ${id} of network service '${holder.name}': terminate the network service (--ns ${holder.name})`);
  }
  return { vnfs: [name] };
}

export function terminateOperation(targets: TerminateTargets): Operation {
  const keys = [...(targets.ns ? [`network_services.${targets.ns}`] : []), ...targets.vnfs.map((v) => `vnfs.${v}`)];
  return {
    vnf: targets.ns ?? targets.vnfs[0],
    configChanges: keys.map((k) => ({ key: `pulumi-nfv:${k}`, remove: true })),
    replace: [],
    podDeletions: [],
    summary: [
      ...(targets.ns ? [`network service ${targets.ns}: its entry removed`] : []),
      ...targets.vnfs.map((v) => `VNF ${v}: its entry removed, its resources deleted by up`),
    ],
  };
}

/** The raw config as it will be once the targets' entries are removed. */
export function configWithout(raw: RawStackConfig, targets: TerminateTargets): RawStackConfig {
  const without = (value: unknown, names: string[]) =>
    typeof value === "object" && value !== null && !Array.isArray(value)
      ? Object.fromEntries(Object.entries(value).filter(([k]) => !names.includes(k)))
      : value;
  return { ...raw, vnfs: without(raw.vnfs, targets.vnfs), networkServices: without(raw.networkServices, targets.ns ? [targets.ns] : []) };
}

/** Refuses a terminate that would leave the config invalid: another VNF's hook_parameters, a CNF's VIM or a network service naming what goes. */
export async function checkConfigLeft(raw: RawStackConfig, targets: TerminateTargets, projectRoot: string, stack: string): Promise<void> {
  const left = await loadStackSettings(configWithout(raw, targets), projectRoot, stack);
  if (left.bag.hasErrors()) throw new DiagnosticError(`terminating ${targets.ns ?? targets.vnfs[0]} would leave the stack's config invalid`, left.bag.errors());
}
