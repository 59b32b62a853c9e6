import { expect, test } from "../fixtures";
import { apiTokenFor, bearer, signInAs } from "../helpers";

// Small things of the app's everyday pages: the 404, gone share links, reference runs' dates,
// the add-host commands, the note limit and the API docs' width.
test.describe.configure({ timeout: 120_000 });

const bodyBackground = (page: import("@playwright/test").Page) => page.evaluate(() => getComputedStyle(document.body).backgroundColor);

test("a missing page and a missing run are the app's own 404: its layout and background, a heading, links on", async ({ page }) => {
  await signInAs(page, "viewer");
  await page.goto("/");
  const appBackground = await bodyBackground(page);
  for (const url of ["/no-such-page-here", "/runs/00000000-0000-4000-8000-000000000000"]) {
    const r = await page.goto(url);
    expect(r?.status(), url).toBe(404);
    await expect(page.getByRole("heading", { level: 1, name: "Page not found" })).toBeVisible();
    await expect(page.getByRole("navigation", { name: "Main" })).toBeVisible();
    expect(await bodyBackground(page)).toBe(appBackground);
    await page.getByTestId("not-found").getByRole("link", { name: "Runs" }).click();
    await expect(page.getByRole("heading", { level: 1, name: "Runs" })).toBeVisible();
  }
});

test("a withdrawn share link's page says it was withdrawn by its owner, still as a 404", async ({ page, request }) => {
  const operator = await apiTokenFor("operator");
  const imported = await request.post("/api/runs/import", {
    headers: bearer(operator),
    data: { probe: "dd", output: "268435456 bytes (268 MB, 256 MiB) copied, 1.25 s, 215 MB/s\n", hostLabel: "share-gone" },
  });
  expect(imported.status()).toBe(201);
  const { id } = (await imported.json()) as { id: string };
  const shared = await request.post("/api/comparisons", { headers: bearer(operator), data: { runIds: [id], title: "soon withdrawn" } });
  const { slug } = (await shared.json()) as { slug: string };
  expect((await request.post(`/api/comparisons/${slug}/revoke`, { headers: bearer(operator) })).status()).toBe(200);
  const r = await page.goto(`/c/${slug}`);
  expect(r?.status()).toBe(404);
  await expect(page.getByTestId("share-gone")).toContainText("This link was withdrawn by its owner on ");
  await expect(page.getByText(/incomplete|mistyped/)).toHaveCount(0);
  // A link that never existed keeps the old explanation.
  await page.goto(`/c/${"A".repeat(32)}`);
  await expect(page.getByText(/mistyped/)).toBeVisible();
});

test("reference runs show their source's year or undated, not a made-up 2009-01-01 00:00", async ({ page }) => {
  await signInAs(page, "viewer");
  await page.goto("/runs?origin=REFERENCE&pageSize=200");
  const table = page.getByTestId("runs-table");
  await expect(table.locator("[data-run-id]").first()).toBeVisible();
  await expect(table).not.toContainText("2009-01-01 00:00");
  await expect(table).toContainText("undated");
  await table.locator("a[href^='/runs/']").first().click();
  await expect(page.getByTestId("run-origin")).toHaveText("Reference data");
  const line = page.getByTestId("run-origin").locator("xpath=..");
  await expect(line).toContainText(/Reference data (published \d{4}|undated)/);
  await expect(line).not.toContainText("2009 00:00");
});

test("add host: every command wraps inside its box and has its own Copy button, at desktop and phone widths", async ({ page }) => {
  await signInAs(page, "operator");
  for (const width of [1366, 390]) {
    await page.setViewportSize({ width, height: 900 });
    await page.goto("/hosts/new");
    await page.getByLabel("Host name").fill(`small-${width}-${Date.now()}`);
    await page.getByRole("button", { name: "Add host" }).click();
    const box = page.getByTestId("registration");
    await expect(box).toBeVisible();
    for (const [testId, button] of [
      ["install-command", "Copy the install command"],
      ["agent-command", "Copy the checkout command"],
      ["bundled-command", "Copy the single-file command"],
    ] as const) {
      const pre = page.getByTestId(testId).locator("xpath=..");
      const fits = await pre.evaluate((el) => el.scrollWidth <= el.clientWidth);
      expect(fits, `${testId} wraps at ${width}px`).toBe(true);
      const copy = box.getByRole("button", { name: button });
      await expect(copy).toBeVisible();
      const b = (await copy.boundingBox())!;
      expect(b.x + b.width, `${button} inside the window at ${width}px`).toBeLessThanOrEqual(width);
    }
  }
  // The page as a whole at desktop width (at phone width the site header is its own matter).
  const { scrollWidth, innerWidth } = await page.evaluate(() => ({ scrollWidth: document.documentElement.scrollWidth, innerWidth: window.innerWidth }));
  expect(scrollWidth).toBeLessThanOrEqual(innerWidth);
});

test("a note over 5,000 characters is refused with its count, in the editor and the API, never saved cut short", async ({ page, request }) => {
  await signInAs(page, "operator");
  const token = await apiTokenFor("operator");
  const imported = await request.post("/api/runs/import", {
    headers: bearer(token),
    data: { probe: "dd", output: "16777216 bytes (17 MB, 16 MiB) copied, 0.05 s, 335 MB/s\n", hostLabel: `note-${Date.now()}` },
  });
  const { id } = (await imported.json()) as { id: string };
  const api = await request.patch(`/api/runs/${id}`, { headers: bearer(token), data: { notes: "x".repeat(5001) } });
  expect(api.status()).toBe(400);
  expect(JSON.stringify(await api.json())).toContain("Note: at most 5,000 characters; this one has 5,001.");

  // The page: the signed-in operator annotates a run of their own.
  const own = await page.request.post("/api/runs/import", {
    data: { probe: "dd", output: "16777216 bytes (17 MB, 16 MiB) copied, 0.05 s, 335 MB/s\n", hostLabel: `note-page-${Date.now()}` },
    headers: { origin: new URL(page.url()).origin },
  });
  expect(own.status()).toBe(201);
  const ownId = ((await own.json()) as { id: string }).id;
  await page.goto(`/runs/${ownId}`);
  await page.getByText("Tags and note", { exact: true }).click();
  await page.getByLabel("Note").fill("y".repeat(5001));
  await expect(page.getByTestId("note-count")).toHaveText("5,001 / 5,000 characters");
  await page.getByRole("button", { name: "Save tags and note" }).click();
  await expect(page.getByTestId("run-annotations").getByRole("alert")).toHaveText("Note: at most 5,000 characters; this one has 5,001.");
  await expect(page.getByRole("status").filter({ hasText: "Saved." })).toHaveCount(0);
  expect(await page.getByLabel("Note").inputValue()).toHaveLength(5001);
  // At the limit it saves whole.
  await page.getByLabel("Note").fill("z".repeat(5000));
  await page.getByRole("button", { name: "Save tags and note" }).click();
  await expect(page.getByRole("status").filter({ hasText: "Saved." })).toBeVisible();
  const saved = (await (await page.request.get(`/api/runs/${ownId}`)).json()) as { notes: string };
  expect(saved.notes).toHaveLength(5000);
});

test("/api-docs fits the window at 1366 and 390 px with every schema open, documents from/to and where target goes", async ({ page }) => {
  await signInAs(page, "viewer");
  for (const width of [1366, 390]) {
    await page.setViewportSize({ width, height: 900 });
    await page.goto("/api-docs");
    await page.evaluate(() => document.querySelectorAll("details").forEach((d) => (d.open = true)));
    const wide = await page.evaluate(() =>
      [...document.querySelectorAll("main *")]
        .filter((e) => e.getBoundingClientRect().right > window.innerWidth + 1)
        .slice(0, 8)
        .map((e) => `${e.tagName}.${e.className} ${Math.round(e.getBoundingClientRect().right)} ${(e.textContent ?? "").slice(0, 60)}`),
    );
    expect(wide, `what runs past the window's right edge at ${width}px`).toEqual([]);
    const { scrollWidth, innerWidth } = await page.evaluate(() => ({ scrollWidth: document.documentElement.scrollWidth, innerWidth: window.innerWidth }));
    expect(scrollWidth, `page width at ${width}px`).toBeLessThanOrEqual(innerWidth);
  }
  const list = page.locator("section[data-testid=api-operation]#get--api-runs");
  await expect(list).toContainText('"format": "date-time"');
  const create = page.locator("section[data-testid=api-operation]#post--api-runs");
  await expect(create).toContainText("Example:");
  await expect(create).toContainText(/"params": \{\s*"target": "\/srv\/probebook"/);
});
