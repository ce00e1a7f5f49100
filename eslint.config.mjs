// Lint: the recommended rules of ESLint and typescript-eslint; nothing clever.
import js from "@eslint/js";
import tseslint from "typescript-eslint";

export default tseslint.config({ ignores: ["dist/**", "node_modules/**", "**/*.js", "**/*.mjs"] }, js.configs.recommended, ...tseslint.configs.recommended, {
  rules: {
    "@typescript-eslint/no-unused-vars": ["error", { argsIgnorePattern: "^_" }],
    eqeqeq: ["error", "always", { null: "ignore" }],
  },
});
