/**
 * @pulumi/pulumi (3.248.0) wraps every promise of a resource's registration in
 * `debuggablePromise`, which formats a stack trace for it (`new Error().stack`) and keeps the
 * string on the promise. The SDK prints those strings only in a promise-leak report with
 * `PULUMI_DEBUG_PROMISE_LEAKS` set. Formatting is the expensive part: Pulumi's runner installs
 * source-map-support, which maps every frame through its source map. A plain capture of ten frames
 * costs about 15 µs, and about 80 µs with the runner's source maps; with no frame it is about 1 µs.
 * Every resource makes dozens of these captures: `npm run bench:program` (issue 23, the runner's
 * source-map-support loaded, idle machine) registers 1,000 VNFCs in 6.5 s with this and 31.8 s
 * without, 2,000 in 9.5 s against 91.7 s.
 *
 * This wraps `debuggablePromise` so that its capture records no frame. Every other stack stays
 * whole (an error of the program, of a provider, of the SDK). With `PULUMI_DEBUG_PROMISE_LEAKS`
 * set, the SDK's own function runs unchanged, stacks and all. pulumi-nfv's entry (index.ts) and
 * the stack program apply it on import, as they do `redactSdkDebugLog`.
 */
import * as debuggable from "@pulumi/pulumi/runtime/debuggable";

// Internal to the SDK: its declarations leave it out.
type DebuggablePromise = <T>(p: Promise<T>, ctx: unknown) => Promise<T>;
const MARK = Symbol.for("pulumi-nfv.sdk-promise-stacks");

/**
 * Replaces `debuggablePromise` on the module object, through which the SDK's runtime calls it
 * (`debuggable_1.debuggablePromise(…)`), by one that lowers `Error.stackTraceLimit` to 0 for the
 * call alone. Idempotent; a no-op with `PULUMI_DEBUG_PROMISE_LEAKS` set.
 */
export function skipSdkPromiseStacks(): void {
  const mod = debuggable as unknown as { debuggablePromise: DebuggablePromise & { [MARK]?: true }; debugPromiseLeaks: boolean };
  if (mod.debugPromiseLeaks || mod.debuggablePromise[MARK]) return;
  const original = mod.debuggablePromise;
  const withoutStack = (<T>(p: Promise<T>, ctx: unknown): Promise<T> => {
    const limit = Error.stackTraceLimit;
    Error.stackTraceLimit = 0;
    try {
      return original(p, ctx);
    } finally {
      Error.stackTraceLimit = limit;
    }
  }) as DebuggablePromise & { [MARK]?: true };
  withoutStack[MARK] = true;
  mod.debuggablePromise = withoutStack;
}
