import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    include: ["test/unit/**/*.test.ts"],
    // Pulumi mocks are process-global state: keep each test file in its own worker.
    pool: "forks",
    globalSetup: ["test/unit/global-setup.ts"],
    testTimeout: 20_000,
    // The JSON report feeds the one-line "N passed, N failed" summary that CI prints.
    reporters: [
      "default",
      ["json", { outputFile: ".test-results/unit.json" }],
      ["./test/tools/hook-errors-reporter.mjs", { outputFile: ".test-results/unit.hook-errors" }],
    ],
  },
});
