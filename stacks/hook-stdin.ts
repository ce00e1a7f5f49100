/**
 * The hooks' stdin of a VNF entry with `hook_parameters` (references.ts reads them), as a Pulumi
 * output: kept apart from the reader so that reading a stack's config (the `nfv` operations) does
 * not load the SDK.
 */
import * as pulumi from "@pulumi/pulumi";
import { valueAt, type HookParameter } from "./references";

/**
 * The hooks' stdin: one `key=value` line per parameter, in the order written, references resolved
 * from `outputs` (the stack's `vnfs` outputs of the VNFs registered before this one). A secret:
 * a referenced value may be one (a registry's password), and stdin is stored as one anyway.
 */
export function hookStdin(parameters: Record<string, HookParameter>, outputs: Record<string, pulumi.Output<unknown>>): pulumi.Output<string> {
  const lines = Object.entries(parameters).map(([name, p]) => {
    if ("value" in p) return pulumi.output(`${name}=${p.value}\n`);
    const output = outputs[p.ref.vnf];
    // Settings refuse, located, a VNF the stack lacks, a cycle and, within a network service, a
    // constituent deployed later; this is the program's own guard of that order.
    if (output === undefined)
      throw new Error(
        `hook_parameters.${name}: ${p.ref.text}: VNF '${p.ref.vnf}' is deployed after this one (its network service's order); refer to VNFs deployed before`,
      );
    return output.apply((o) => `${name}=${valueAt(o, p.ref, name)}\n`);
  });
  return pulumi.secret(pulumi.all(lines).apply((l) => l.join("")));
}
