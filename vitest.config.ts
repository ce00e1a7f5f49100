import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    include: ["test/unit/**/*.test.ts"],
    // Pulumi mocks are process-global state: keep each test file in its own worker.
    pool: "forks",
    testTimeout: 20_000,
  },
});
