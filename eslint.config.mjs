import js from "@eslint/js";
import nextPlugin from "@next/eslint-plugin-next";
import reactHooks from "eslint-plugin-react-hooks";
import tseslint from "typescript-eslint";

const noDatabaseClient = {
  regex: "(^|/)lib/(db|pg-pool)(\\.ts)?$",
  message: "Pages, routes and components read through a use case in lib/server/<domain>/<verb-noun>.ts, not the database client.",
};
const noInstance = {
  regex: "(^|/)lib/instance(/|$)",
  message: "lib/instance/ is the app instance's machinery (timers, the LISTEN connection, workers): pages, routes and components reach it through a use case in lib/server/.",
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
  // the database and the instance's machinery only through lib/server use cases.
  // lib/lint-floors.test.ts proves each floor fails.
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
    rules: { "no-restricted-imports": ["error", { patterns: [noDatabaseClient, noInstance] }] },
  },
  // Components are drawn by pages: a form gets its server action as a prop, never from app/.
  {
    files: ["components/**"],
    rules: {
      "no-restricted-imports": [
        "error",
        { patterns: [noDatabaseClient, noInstance, { regex: "^(@/|(\\.\\./)+)app(/|$)", message: "components/ must not import app/: take the page's server action as a prop." }] },
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
  // The instance's machinery sits below the use cases that drive it: it knows no use case, page
  // or route (the upkeep it runs is handed to startInstance by instrumentation.ts).
  {
    files: ["lib/instance/**"],
    rules: {
      "no-restricted-imports": [
        "error",
        {
          patterns: [
            {
              regex: "^(@/|(\\.\\./)+)(lib/)?(server|app|components)(/|$)",
              message: "lib/instance/ must not import lib/server/, app/ or components/: use cases call the instance, never the other way round.",
            },
          ],
        },
      ],
    },
  },
  // Plain Node scripts (TypeScript files get Node's globals from @types/node).
  { files: ["**/*.mjs"], languageOptions: { globals: { console: "readonly", process: "readonly" } } },
);
