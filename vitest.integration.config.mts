import { defineConfig } from "vitest/config";
import ListedOrder from "./test/integration/sequencer";

const report = process.env.NFV_INTEGRATION_REPORT ?? ".test-results/integration.json";

// Integration tests drive the real Pulumi engine and lab services: one file at a time, long timeouts.
export default defineConfig({
  test: {
    include: ["test/integration/**/*.test.ts"],
    globalSetup: ["test/integration/global-setup.ts"],
    // Every file's secrets are looked for where they must not be (test/integration/lab/canary-watch.ts).
    setupFiles: ["test/integration/lab/canary-setup.ts"],
    sequence: { sequencer: ListedOrder, hooks: "stack" },
    pool: "forks",
    fileParallelism: false,
    testTimeout: 600_000,
    hookTimeout: 600_000,
    // test/run-all runs the files in phases, each with its own report, and beside it the errors of
    // no test (a describe's hooks), which the JSON report leaves out (test/tools/summarize.mjs reads both).
    reporters: [
      "default",
      ["json", { outputFile: report }],
      ["./test/tools/hook-errors-reporter.mjs", { outputFile: report.replace(/\.json$/, ".hook-errors") }],
    ],
  },
});
