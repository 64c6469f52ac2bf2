// Lint warnings are errors (`--max-warnings 0`); generated code is a build product.
import js from "@eslint/js";
import tseslint from "typescript-eslint";

export default tseslint.config(
  { ignores: ["gen/**", "node_modules/**", ".cpb/**", ".tap/**", "coverage/**", "dist/**", ".cache/**"] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    rules: {
      "@typescript-eslint/no-unused-vars": ["error", { argsIgnorePattern: "^_" }],
      "@typescript-eslint/consistent-type-imports": "error",
    },
  },
);
