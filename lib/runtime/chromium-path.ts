// The browser the end-to-end suite drives: one answer for playwright.config.ts and the
// `npm test` pre-check, so the check never passes for a browser the suite would not find.
import { accessSync, constants, statSync } from "node:fs";
import path from "node:path";

function isExecutable(file: string): boolean {
  try {
    if (!statSync(file).isFile()) return false;
    accessSync(file, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

/**
 * PLAYWRIGHT_CHROMIUM_PATH when set, else the distribution's chromium on PATH (no browser can be
 * downloaded offline); undefined means Playwright's own browser, as on a laptop with internet.
 */
export function systemChromium(env: NodeJS.ProcessEnv = process.env): string | undefined {
  if (env.PLAYWRIGHT_CHROMIUM_PATH) return env.PLAYWRIGHT_CHROMIUM_PATH;
  for (const dir of (env.PATH ?? "").split(":")) {
    if (!dir || !path.isAbsolute(dir)) continue;
    // Debian names it chromium, Ubuntu chromium-browser.
    for (const name of ["chromium", "chromium-browser"]) {
      const file = path.join(dir, name);
      if (isExecutable(file)) return file;
    }
  }
  return undefined;
}
