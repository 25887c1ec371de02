// The page's JavaScript (web/) under ESLint's recommended rules, in `make test` (make lint-js),
// and three more against JavaScript's old traps: == that converts, var's function scope, a
// binding never reassigned left open to it. The page runs in the browser as ES modules: the
// browser's globals, nothing of Node's. The vendored msgpack is someone else's build, joined
// from npm as it is (docs/web.md): not ours to lint.
import js from "@eslint/js";
import globals from "globals";

const ours = {
  ...js.configs.recommended.rules,
  eqeqeq: "error",
  "no-var": "error",
  "prefer-const": "error",
};

export default [
  { ignores: ["web/vendor/**", ".venv/**", "build/**"] },
  { linterOptions: { reportUnusedDisableDirectives: "error" } },
  {
    files: ["web/**/*.mjs"],
    languageOptions: { ecmaVersion: "latest", sourceType: "module", globals: globals.browser },
    rules: ours,
  },
  {
    files: ["eslint.config.mjs"],
    languageOptions: { ecmaVersion: "latest", sourceType: "module", globals: globals.node },
    rules: ours,
  },
];
