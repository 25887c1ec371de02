// The page's JavaScript (web/) under ESLint's recommended rules, in `make test` (make lint-js).
// The page runs in the browser as ES modules: the browser's globals, nothing of Node's. The
// vendored msgpack is someone else's build, joined from npm as it is (docs/web.md): not ours to
// lint.
import js from "@eslint/js";
import globals from "globals";

export default [
  { ignores: ["web/vendor/**", ".venv/**", "build/**"] },
  {
    files: ["web/**/*.mjs"],
    ...js.configs.recommended,
    languageOptions: { ecmaVersion: 2022, sourceType: "module", globals: globals.browser },
  },
  {
    files: ["eslint.config.mjs"],
    ...js.configs.recommended,
    languageOptions: { ecmaVersion: 2022, sourceType: "module", globals: globals.node },
  },
];
