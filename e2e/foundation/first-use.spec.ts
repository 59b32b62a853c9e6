// The defects a new user hit on a fresh install (issue 16), each checked where it showed: the
// launch form, the navigation, phone widths, comparisons with the guides' references, the
// add-host command and the small things (favicon, "Compare 0 runs").
import crypto from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { type APIRequestContext } from "@playwright/test";
import { expect, test } from "../fixtures";
import { apiTokenFor, bearer, fitsWidth, registerFakeAgent, signInAs } from "../helpers";

test.describe.configure({ mode: "serial" });

const PHONE = { width: 390, height: 844 };
const LAPTOP = { width: 1366, height: 768 };

let token = "";

test.beforeAll(async () => {
  token = await apiTokenFor("operator");
});


/** A host whose fake agent allows `dir` (the helper's host allows /srv/pb). */
async function hostAllowing(request: APIRequestContext, dir: string) {
  const host = await registerFakeAgent(request, token, "first-use");
  const tool = { installed: true, version: "1", path: "/usr/bin/x" };
  const beat = await request.post("/api/agent/heartbeat", {
    headers: host.agent,
    data: {
      runningRunIds: [],
      profile: { targets: [{ path: dir, fsType: "xfs", freeBytes: 10 * 2 ** 30 }] },
      capabilities: { agentVersion: "test", tools: { iozone: tool, dd: tool, sar: tool, fio: tool }, allowedDirs: [dir] },
    },
  });
  expect(beat.status(), await beat.text()).toBe(200);
  return host;
}

test("defect 1: changing the host in the launch form launches on that host's directory", async ({ page, request }) => {
  const a = await registerFakeAgent(request, token, "first-use-a");
  const b = await hostAllowing(request, `/srv/other-${crypto.randomBytes(3).toString("hex")}`);
  await signInAs(page, "operator");
  await page.goto(`/runs/new?host=${a.id}&probe=dd&preset=write-direct`);
  const form = page.getByTestId("launch-form");
  await expect(form.getByLabel("Target directory")).toHaveValue("/srv/pb");
  await form.getByLabel("Host").selectOption(b.id);
  const target = await form.getByLabel("Target directory").inputValue();
  expect(target).toMatch(/^\/srv\/other-/);
  await form.getByRole("button", { name: "Launch" }).click();
  await expect(page).toHaveURL(/\/runs\/[0-9a-f-]{36}$/);
  const id = page.url().split("/").pop()!;
  const run = (await (await request.get(`/api/runs/${id}`, { headers: bearer(token) })).json()) as { hostId: string; params: { target: string } };
  expect(run).toMatchObject({ hostId: b.id, params: { target } });

  // A link naming a host that is gone: the form shows the first host and launches there.
  await page.goto(`/runs/new?host=${crypto.randomUUID()}&probe=dd&preset=write-direct`);
  await form.getByRole("button", { name: "Launch" }).click();
  await expect(page).toHaveURL(/\/runs\/[0-9a-f-]{36}$/);
});

test("defect 4: Launch is in the navigation and on the Runs page", async ({ page }) => {
  // An operator's: a viewer may not launch, and is not offered it (phone-width.spec.ts).
  await signInAs(page, "operator");
  await page.goto("/runs");
  await expect(page.getByTestId("runs-launch")).toHaveAttribute("href", "/runs/new");
  await page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Launch" }).click();
  await expect(page).toHaveURL(/\/runs\/new$/);
});

for (const viewport of [LAPTOP, PHONE]) {
  test(`defect 8 at ${viewport.width} px: launch form, Runs and a shared comparison fit the width; the selection bar hides nothing`, async ({ page, request }) => {
    await page.setViewportSize(viewport);
    // A target whose option text is long: "/srv/… — xfs · ? · 10.0 GiB free".
    await hostAllowing(request, `/srv/a-rather-long-scratch-directory-name-${crypto.randomBytes(3).toString("hex")}/on-the-fast-disk`);
    await signInAs(page, "operator");
    await page.goto("/runs/new");
    await expect(page.getByTestId("launch-form")).toBeVisible();
    await fitsWidth(page);

    await page.goto("/runs");
    await expect(page.getByTestId("selection-bar")).toBeVisible();
    await fitsWidth(page);
    // Nothing selected: the bar is not sticky, so the export buttons stay reachable at the top.
    for (const name of ["CSV", "JSON"]) {
      const button = page.getByRole("button", { name, exact: true }).first();
      await expect(button).toBeVisible();
      await button.scrollIntoViewIfNeeded();
      const box = (await button.boundingBox())!;
      const onTop = await page.evaluate(([x, y]) => document.elementFromPoint(x!, y!)?.closest("button")?.textContent ?? null, [box.x + box.width / 2, box.y + box.height / 2]);
      expect(onTop).toContain(name);
    }
    expect(await page.getByTestId("selection-bar").evaluate((el) => getComputedStyle(el).position)).toBe("static");

    // A shared comparison of the guides' reference runs (long labels, several selects).
    const refs = (await (await request.get("/api/runs?origin=REFERENCE&probe=iozone&pageSize=3", { headers: bearer(token) })).json()) as { runs: { id: string }[] };
    const shared = await request.post("/api/comparisons", { headers: bearer(token), data: { runIds: refs.runs.map((r) => r.id), title: "references" } });
    expect(shared.status(), await shared.text()).toBe(201);
    const { slug } = (await shared.json()) as { slug: string };
    await page.goto(`/c/${slug}`);
    await expect(page.getByTestId("shared-title")).toBeVisible();
    await fitsWidth(page);
  });
}

test("defect 7: a small iozone run shares a chart with the guides' 4 GiB references; the Baseline is a drawn series", async ({ page, request }) => {
  const output = fs.readFileSync(path.join(__dirname, "..", "probes", "iozone-auto-64m.txt"), "utf8");
  const imported = await request.post("/api/runs/import", { headers: bearer(token), data: { probe: "iozone", output, hostLabel: "my-laptop" } });
  expect(imported.status(), await imported.text()).toBe(201);
  const { id } = (await imported.json()) as { id: string };
  const refs = (await (await request.get("/api/runs?origin=REFERENCE&probe=iozone&pageSize=1", { headers: bearer(token) })).json()) as { runs: { id: string }[] };
  await signInAs(page, "viewer");
  await page.goto(`/compare?runs=${refs.runs[0]!.id},${id}`);
  const section = page.getByTestId("compare-section-iozone");
  await expect(section.getByTestId("file-size-select")).toHaveValue("largest");
  // Both series are in the legend of the charts drawn.
  await expect(section.getByRole("button", { name: /my-laptop/ })).toBeVisible();
  const baseline = section.getByTestId("baseline-select");
  // A chip may shorten its label from the middle; its title holds the whole label.
  const drawn = await section.getByRole("button", { pressed: true }).getByTestId("legend-label").evaluateAll((els) => els.map((e) => e.getAttribute("title") ?? ""));
  expect(drawn).toHaveLength(2);
  const chosen = await baseline.evaluate((el: HTMLSelectElement) => el.selectedOptions[0]?.textContent ?? "");
  expect(drawn.some((d) => d.includes(chosen))).toBe(true);
  // An exact file size holds only one of them: the Baseline follows to a series drawn there.
  await section.getByTestId("file-size-select").selectOption({ label: "file 64 MiB" });
  await expect(baseline.locator("option")).toHaveCount(1);
  await expect(baseline.locator("option")).toContainText("my-laptop");
});

test("defect 9: the add-host command makes the directory it allows", async ({ page }) => {
  await signInAs(page, "operator");
  await page.goto("/hosts/new");
  await page.getByLabel("Host name").fill(`first-use-${Date.now()}`);
  await page.getByRole("button", { name: "Add host" }).click();
  await expect(page.getByTestId("agent-command")).toContainText(/^mkdir -p \/srv\/probebook && PROBEBOOK_AGENT_TOKEN=pbr_\S+ npm run agent -- .*--allow \/srv\/probebook,\/dev\/shm$/);
  await expect(page.getByTestId("registration")).toContainText("scratch directory on the disk to measure");
});

test("defect 10: a favicon, and no 'others' when no run of a comparison exists", async ({ page, request }) => {
  const missing: string[] = [];
  page.on("response", (r) => {
    if (r.status() === 404) missing.push(r.url());
  });
  await signInAs(page, "viewer");
  await page.goto("/");
  const icon = await page.locator('link[rel="icon"]').first().getAttribute("href");
  expect(icon).toBeTruthy();
  expect((await request.get(icon!)).status()).toBe(200);
  expect(missing.filter((u) => /favicon|icon/.test(u))).toEqual([]);

  await page.goto(`/compare?runs=${crypto.randomUUID()}`);
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Compare");
  await expect(page.getByTestId("missing-runs")).not.toContainText("others");
});
