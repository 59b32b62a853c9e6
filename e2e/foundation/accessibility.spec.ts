// Issue 33 item 8: axe on the main pages in both themes (no serious or critical finding), and the
// theme toggle: a choice overrides the browser's preference, before first paint and after a reload.
import fs from "node:fs";
import path from "node:path";
import AxeBuilder from "@axe-core/playwright";
import type { Page } from "@playwright/test";
import { expect, test } from "../fixtures";
import { apiTokenFor, bearer, createUser, registerFakeAgent, signIn } from "../helpers";

const iozone = fs.readFileSync(path.join(__dirname, "..", "probes", "iozone-auto-64m.txt"), "utf8");
let admin = { email: "", password: "" };
let pages: string[] = [];

test.beforeAll(async ({ request }) => {
  const token = await apiTokenFor("operator");
  await registerFakeAgent(request, token, "a11y");
  const runIds: string[] = [];
  for (const hostLabel of ["a11y-vm-1", "a11y-vm-2"]) {
    const r = await request.post("/api/runs/import", { headers: bearer(token), data: { probe: "iozone", output: iozone, hostLabel } });
    expect(r.status(), await r.text()).toBe(201);
    runIds.push(((await r.json()) as { id: string }).id);
  }
  admin = await createUser("admin");
  pages = [
    "/",
    "/guides",
    "/guides/ext2-ext3-ext4-iozone",
    "/tunables",
    "/hosts",
    "/runs",
    `/runs/${runIds[0]}`,
    `/compare?runs=${runIds.join(",")}`,
    "/experiments",
    "/schedules",
    "/import",
    "/api-docs",
    "/admin/users",
  ];
});

/** axe's serious and critical findings on the page as it is now, one line per element. */
async function seriousFindings(page: Page): Promise<string[]> {
  const { violations } = await new AxeBuilder({ page }).analyze();
  return violations
    .filter((v) => v.impact === "serious" || v.impact === "critical")
    .flatMap((v) => v.nodes.map((n) => `${v.id} (${v.impact}) at ${n.target.join(" ")}: ${n.failureSummary?.replace(/\s+/g, " ") ?? v.help}`));
}

// The body's computed background, --bg of each theme (computed, so the minifier's spelling does not matter).
const DARK_BG = "rgb(15, 20, 25)";
const LIGHT_BG = "rgb(255, 255, 255)";
const pageBackground = (page: Page) => page.evaluate(() => getComputedStyle(document.body).backgroundColor);

/** Contrast needs the page drawn: the heading, the charts measured, no request in flight. */
async function visit(page: Page, url: string) {
  await page.goto(url);
  await page.locator("main h1").first().waitFor();
  await page.waitForLoadState("networkidle", { timeout: 10_000 }).catch(() => {});
}

for (const colorScheme of ["dark", "light"] as const) {
  test.describe(`${colorScheme} theme`, () => {
    test.use({ colorScheme });

    test(`the main pages have no serious or critical axe finding (${colorScheme})`, async ({ page }) => {
      test.setTimeout(240_000);
      const found: string[] = [];
      await visit(page, "/sign-in");
      found.push(...(await seriousFindings(page)).map((f) => `/sign-in: ${f}`));
      await signIn(page, admin.email, admin.password);
      for (const url of pages) {
        await visit(page, url);
        expect(await pageBackground(page), `${url} is drawn in the ${colorScheme} theme`).toBe(colorScheme === "dark" ? DARK_BG : LIGHT_BG);
        found.push(...(await seriousFindings(page)).map((f) => `${url}: ${f}`));
      }
      expect(found, found.join("\n")).toEqual([]);
    });
  });
}

test.describe("theme toggle", () => {
  test.use({ colorScheme: "dark" });

  test("choosing Light on a dark-preferring browser switches the colours and survives a reload", async ({ page }) => {
    const bg = () => pageBackground(page);
    const scheme = () => page.evaluate(() => getComputedStyle(document.documentElement).colorScheme);
    await page.goto("/guides");
    const toggle = page.getByRole("combobox", { name: "Theme" });
    await expect(toggle).toHaveValue("system");
    expect(await bg()).toBe(DARK_BG);

    // By keyboard: focus the select and pick Light.
    await toggle.focus();
    await toggle.selectOption("light");
    await expect(page.locator("html")).toHaveAttribute("data-theme", "light");
    expect(await bg()).toBe(LIGHT_BG);
    expect(await scheme()).toBe("light");

    // A reload paints light from the first frame: the attribute is there before any React code runs.
    await page.reload({ waitUntil: "commit" });
    await page.waitForSelector("body");
    expect(await page.evaluate(() => document.documentElement.getAttribute("data-theme"))).toBe("light");
    await expect(toggle).toHaveValue("light");
    expect(await bg()).toBe(LIGHT_BG);

    // System again follows the browser (dark here).
    await toggle.selectOption("system");
    await expect(page.locator("html")).not.toHaveAttribute("data-theme");
    expect(await bg()).toBe(DARK_BG);
    await page.reload();
    await expect(toggle).toHaveValue("system");
    expect(await bg()).toBe(DARK_BG);
  });
});
