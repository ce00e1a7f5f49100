import { defineConfig } from "vitest/config";

// `npm run test:pack`: the packed package installed into a project of its own (slow: a build, a
// pack and two type-checks), apart from the unit tests of `npm test`.
export default defineConfig({
  test: {
    include: ["test/package/**/*.test.ts"],
    testTimeout: 120_000,
    hookTimeout: 300_000,
  },
});
