/**
 * How an error leaves the Pulumi program. The SDK prints a `pulumi.RunError` as it is; any other
 * error it formats with `util.inspect(err, { colors: true })`. On Node.js 20.19.6 to 20.20.x that
 * call loops in `markNodeModules` (nodejs/node#64011, fixed upstream by #64022 but not in 20.x)
 * on a stack frame under a scoped package with no folder after it, and the SDK's own frames are
 * such frames: its source maps point one folder too high (`node_modules/@pulumi/resource.ts`).
 * The error then appeared only after 60-150 s of garbage collection and gigabytes of memory.
 */
import * as pulumi from "@pulumi/pulumi";
import { DiagnosticError } from "../translators/diagnostics";

/**
 * The error to throw out of the program: a `DiagnosticError` (an invalid config: its message already
 * names file, line and field) as its message alone, anything else with its stack as plain text.
 */
export function asRunError(err: unknown): pulumi.RunError {
  if (pulumi.RunError.isInstance(err)) return err;
  if (err instanceof DiagnosticError) return new pulumi.RunError(err.message);
  if (err instanceof Error) return new pulumi.RunError(err.stack ?? `${err.name}: ${err.message}`);
  return new pulumi.RunError(String(err));
}
