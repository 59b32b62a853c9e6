import path from "node:path";
import { defineConfig, devices } from "@playwright/test";
import { systemChromium } from "./lib/runtime/chromium-path";

const port = Number(process.env.E2E_PORT ?? 3210);
// Per port, so two suites (say, two worktrees) can run side by side.
export const e2eDataDir = path.join(__dirname, ".data", `e2e-${port}`);

// The distribution's chromium where it exists (no browser download is possible offline);
// otherwise Playwright's own browser, as on a developer laptop.
const chromiumPath = systemChromium();

export default defineConfig({
  testDir: "e2e",
  fullyParallel: false,
  workers: 1,
  forbidOnly: !!process.env.CI,
  retries: process.env.CI ? 1 : 0,
  timeout: 60_000,
  reporter: process.env.CI ? [["list"]] : [["list"], ["html", { open: "never" }]],
  use: {
    baseURL: `http://127.0.0.1:${port}`,
    trace: "retain-on-failure",
    screenshot: "only-on-failure",
  },
  projects: [
    {
      name: "chromium",
      use: {
        ...devices["Desktop Chrome"],
        launchOptions: chromiumPath
          ? {
              executablePath: chromiumPath,
              args: [
                "--no-sandbox",
                "--disable-gpu",
                "--disable-background-networking",
                "--disable-component-update",
                "--disable-sync",
                "--no-first-run",
                "--disable-quic",
              ],
            }
          : {},
      },
    },
  ],
  webServer: {
    command: "npx tsx scripts/e2e-server.ts",
    url: `http://127.0.0.1:${port}/api/health`,
    timeout: 240_000,
    reuseExistingServer: false,
    gracefulShutdown: { signal: "SIGTERM", timeout: 15_000 },
    env: { PORT: String(port), PROBEBOOK_DATA_DIR: e2eDataDir },
    stdout: "pipe",
  },
});
