/**
 * What `nfv` gives its pulumi processes, seen by the process itself: `nfv preview --stack s` runs
 * with a fake `pulumi` (helpers/fake-pulumi.ts) that writes its environment, waits until `during`
 * has seen it (while the command runs), then fails as for a stack that does not exist (exit 1).
 */
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import * as path from "node:path";
import { expect, vi } from "vitest";
import { main } from "../../../cli/nfv";
import { fakePulumi, NO_SUCH_STACK } from "./fake-pulumi";

const quiet = { out: () => undefined, err: () => undefined };

export async function previewEnv(during: (env: Record<string, string>) => void = () => undefined): Promise<Record<string, string>> {
  const fake = fakePulumi(`env -0 > "$FAKE/env.tmp" && mv "$FAKE/env.tmp" "$FAKE/env"\nuntil [ -e "$FAKE/seen" ]; do sleep 0.02; done\n${NO_SUCH_STACK}`);
  try {
    const running = main(["preview", "--stack", "s"], quiet);
    const envFile = path.join(fake.dir, "env");
    await vi.waitFor(() => expect(existsSync(envFile)).toBe(true), { timeout: 10_000, interval: 20 });
    const env = Object.fromEntries(
      readFileSync(envFile, "utf8")
        .split("\0")
        .filter(Boolean)
        .map((l) => [l.slice(0, l.indexOf("=")), l.slice(l.indexOf("=") + 1)]),
    );
    during(env);
    writeFileSync(path.join(fake.dir, "seen"), "");
    expect(await running).toBe(1);
    return env;
  } finally {
    fake.restore();
  }
}
