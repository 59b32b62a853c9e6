import js from "@eslint/js";
import nextPlugin from "@next/eslint-plugin-next";
import reactHooks from "eslint-plugin-react-hooks";
import tseslint from "typescript-eslint";

const noDatabaseClient = {
  regex: "(^|/)lib/(db|pg-pool)(\\.ts)?$",
  message: "Pages, routes and components read through a use case in lib/server/<domain>/<verb-noun>.ts, not the database client.",
};

export default tseslint.config(
  { ignores: ["node_modules/**", ".next/**", ".data/**", "dist/**", "test-results/**", "playwright-report/**", "next-env.d.ts", "e2e/client/api-types.ts"] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    plugins: { "@next/next": nextPlugin, "react-hooks": reactHooks },
    rules: {
      ...nextPlugin.configs.recommended.rules,
      ...nextPlugin.configs["core-web-vitals"].rules,
      "react-hooks/rules-of-hooks": "error",
      "react-hooks/exhaustive-deps": "warn",
      "@typescript-eslint/no-unused-vars": ["error", { argsIgnorePattern: "^_", varsIgnorePattern: "^_" }],
      "no-console": "off",
    },
  },
  // The floors of the architecture (ARCHITECTURE.md): probes run in the agent, the CLI and the
  // server alike, so they know nothing of Next, Prisma or the app; pages and components reach
  // the database only through lib/server use cases. lib/lint-floors.test.ts proves both fail.
  {
    files: ["probes/**"],
    rules: {
      "no-restricted-imports": [
        "error",
        {
          patterns: [
            { regex: "^next(/|$)", message: "probes/ runs outside Next (agent, CLI): it must not import next." },
            { regex: "^(@prisma/|\\.prisma/)", message: "probes/ must not import Prisma: the server stores what probes return." },
            {
              regex: "^(@/|(\\.\\./)+)(lib|app|components)(/|$)",
              message: "probes/ must not import lib/, app/ or components/: the server imports probes, never the other way round.",
            },
          ],
        },
      ],
    },
  },
  {
    files: ["app/**"],
    rules: { "no-restricted-imports": ["error", { patterns: [noDatabaseClient] }] },
  },
  // Components are drawn by pages: a form gets its server action as a prop, never from app/.
  {
    files: ["components/**"],
    rules: {
      "no-restricted-imports": [
        "error",
        { patterns: [noDatabaseClient, { regex: "^(@/|(\\.\\./)+)app(/|$)", message: "components/ must not import app/: take the page's server action as a prop." }] },
      ],
    },
  },
  // The API's declarations and the HTTP plumbing sit below the use cases: lib/server imports
  // their schemas, so they must not import lib/server back (the handler, app/api/handle.ts, may).
  {
    files: ["lib/api/**", "lib/http/**"],
    ignores: ["**/*.test.ts"],
    rules: {
      "no-restricted-imports": [
        "error",
        {
          patterns: [
            { regex: "^(@/lib/|(\\.\\./)+)server(/|$)", message: "lib/api and lib/http must not import lib/server: move the schema to lib/api/schemas instead." },
            { regex: "^(@/|(\\.\\./)+)(app|components)(/|$)", message: "lib/api and lib/http must not import app/ or components/." },
          ],
        },
      ],
    },
  },
  // Plain Node scripts (TypeScript files get Node's globals from @types/node).
  { files: ["**/*.mjs"], languageOptions: { globals: { console: "readonly", process: "readonly" } } },
);
