/**
 * The vitest setup file of the integration config: every integration file is watched for its
 * secrets (canary-watch.ts) from its first hook to its last: this setup's afterAll runs after the
 * file's own (vitest runs after-hooks in reverse order), so a secret printed by a teardown counts too.
 */
import { afterAll, beforeAll } from "vitest";
import { startWatch } from "./canary-watch";

let watch: ReturnType<typeof startWatch> | undefined;

// vitest wants the context as an object pattern, though this hook needs only the suite (the file).
// eslint-disable-next-line no-empty-pattern
beforeAll(({}, suite) => {
  const file =
    (suite as { filepath?: string; file?: { filepath?: string } }).filepath ?? (suite as { file?: { filepath?: string } }).file?.filepath ?? "unknown";
  watch = startWatch(file);
});

afterAll(async () => {
  await watch?.finish();
}, 300_000);
