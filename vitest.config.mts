import path from "node:path";
import { defineConfig } from "vitest/config";

export default defineConfig({
  resolve: { alias: { "@": path.resolve(import.meta.dirname) } },
  test: {
    include: ["**/*.test.ts", "**/*.test.tsx"],
    exclude: ["node_modules/**", "e2e/**", ".next/**", ".data/**", "dist/**"],
    globalSetup: ["./lib/testing/vitest-global-setup.ts"],
    testTimeout: 30_000,
    hookTimeout: 60_000,
    // Database tests share one fresh database per run; files run in parallel workers.
    pool: "forks",
  },
});
