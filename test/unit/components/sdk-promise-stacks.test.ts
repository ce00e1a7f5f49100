/**
 * The SDK's promise wrapper records no stack frame (components/sdk-promise-stacks.ts): the module
 * object the SDK's runtime calls through gets the wrapper; a wrapped promise still settles as the
 * SDK's own would; Error.stackTraceLimit is back as it was after each call; errors keep their stacks.
 */
import { createRequire } from "node:module";
import { expect, it } from "vitest";
import { skipSdkPromiseStacks } from "../../../components/sdk-promise-stacks";

interface Debuggable {
  debuggablePromise: <T>(p: Promise<T>, ctx: unknown) => Promise<T>;
}
// As runtime/resource.js requires it ("./debuggable"): the module object the SDK calls through.
const sdk = createRequire(__filename)("@pulumi/pulumi/runtime/debuggable") as Debuggable;

it("the SDK's debuggablePromise formats no stack frame; results, rejections and other stacks unchanged", async () => {
  const before = sdk.debuggablePromise;
  const withFrames = Promise.resolve(1);
  await before(withFrames, "before");
  expect((withFrames as unknown as { _debugStackTrace: string })._debugStackTrace).toMatch(/\n\s+at /);

  skipSdkPromiseStacks();
  skipSdkPromiseStacks();
  const wrapped = sdk.debuggablePromise;
  expect(wrapped).not.toBe(before);
  const limit = Error.stackTraceLimit;
  const p = Promise.resolve(42);
  await expect(wrapped(p, "resolves")).resolves.toBe(42);
  // "Error", or "Error: " where a prepareStackTrace (vitest's, source-map-support) formats it: no frame.
  expect((p as unknown as { _debugStackTrace: string })._debugStackTrace).toMatch(/^Error:? ?$/);
  await expect(wrapped(Promise.reject(new Error("refused")), "rejects")).rejects.toThrow("refused");
  expect(Error.stackTraceLimit).toBe(limit);
  expect(new Error("a program's error").stack).toMatch(/\n\s+at /);
  // Applied once: a second call does not wrap the wrapper.
  skipSdkPromiseStacks();
  expect(sdk.debuggablePromise).toBe(wrapped);
});
