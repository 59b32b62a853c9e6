// Issue 33: every page a signed-in user reaches, walked at a phone's 390 px: no sideways scroll
// and Sign out on screen; wide tables scroll in their own box with a cue, their far columns
// reachable there; /tunables breaks no word; at 1366 px the admin's navigation is one line; a
// viewer is offered no Launch or Import. Data comes the cheap way: imports of fixture output and a
// fake agent that claims and finishes its runs with dd output (no real probe runs).
import fs from "node:fs";
import path from "node:path";
import { type APIRequestContext, type Page } from "@playwright/test";
import { expect, test } from "../fixtures";
import { apiTokenFor, bearer, fitsWidth, registerFakeAgent, signInAs } from "../helpers";

test.describe.configure({ mode: "serial" });

const PHONE = { width: 390, height: 844 };
const LAPTOP = { width: 1366, height: 768 };
const IOZONE = fs.readFileSync(path.join(__dirname, "..", "probes", "iozone-auto-64m.txt"), "utf8");
/** dd's summary of 4 MiB in `sec` seconds (over 5 s: the run checks call shorter runs too short to be a measurement). */
const dd = (sec: number) => `4+0 records in\n4+0 records out\n4194304 bytes (4.2 MB, 4.0 MiB) copied, ${sec.toFixed(2)} s, ${Math.round(4194304 / sec / 1000)} kB/s\n`;
const finishBody = { exitCode: 0, signal: null, durationMs: 6000, lastSeq: 0, error: null, cancelled: false, timedOut: false, interrupted: false, profile: null };

interface Seeded {
  hostId: string;
  runIds: [string, string];
  experimentId: string;
  sweepIds: [string, string];
  scheduleId: string;
  seriesId: string;
  compareShare: string;
  experimentShare: string;
}
let seeded: Seeded | null = null;

/** Claims and finishes every queued run of the fake agent's host with dd output (an experiment queues its next round on each finish). */
async function finishQueued(request: APIRequestContext, agent: Record<string, string>) {
  for (let i = 0; i < 40; i++) {
    const claim = await request.post("/api/agent/jobs/claim", { headers: agent, data: { waitSec: 0 } });
    if (claim.status() !== 200) return;
    const job = (await claim.json()) as { runId?: string };
    if (!job.runId) return;
    const chunk = await request.post(`/api/agent/runs/${job.runId}/chunks`, { headers: agent, data: { chunks: [{ seq: 0, data: dd(6 + ((i * 37) % 9) / 10) }] } });
    expect(chunk.status(), await chunk.text()).toBe(200);
    const fin = await request.post(`/api/agent/runs/${job.runId}/finish`, { headers: agent, data: finishBody });
    expect(fin.status(), await fin.text()).toBe(200);
  }
}

async function seed(request: APIRequestContext): Promise<Seeded> {
  if (seeded) return seeded;
  const token = await apiTokenFor("operator");
  const auth = bearer(token);
  const host = await registerFakeAgent(request, token, "phone-width");
  const tool = { installed: true, version: "1", path: "/usr/bin/x" };
  const dirs = ["/srv/pb", "/srv/pb-second-scratch-directory"];
  const beat = await request.post("/api/agent/heartbeat", {
    headers: host.agent,
    data: {
      runningRunIds: [],
      profile: { targets: dirs.map((p) => ({ path: p, fsType: "xfs", freeBytes: 10 * 2 ** 30 })) },
      capabilities: { agentVersion: "test", tools: { iozone: tool, dd: tool, sar: tool, fio: tool }, allowedDirs: dirs },
    },
  });
  expect(beat.status(), await beat.text()).toBe(200);

  // Two imported iozone runs with long machine names: a run page and a two-run comparison.
  const runIds: string[] = [];
  for (const hostLabel of ["lab-vm-with-a-long-name · virtio · ext4", "another-lab-vm-with-a-long-name · nvme · xfs"]) {
    const r = await request.post("/api/runs/import", { headers: auth, data: { probe: "iozone", output: IOZONE, hostLabel } });
    expect(r.status(), await r.text()).toBe(201);
    runIds.push(((await r.json()) as { id: string }).id);
  }

  // A launched dd run makes the host's series; an A/B experiment of two directories gets results.
  const run = await request.post("/api/runs", { headers: auth, data: { hostId: host.id, probe: "dd", params: { target: "/srv/pb", sizeMiB: 4 } } });
  expect(run.status(), await run.text()).toBe(201);
  await finishQueued(request, host.agent);
  const exp = await request.post("/api/experiments", {
    headers: auth,
    data: { hostId: host.id, probe: "dd", params: { sizeMiB: 4 }, arms: dirs.map((target) => ({ target })), repeats: { min: 3, max: 3, warmup: false } },
  });
  expect(exp.status(), await exp.text()).toBe(201);
  const experimentId = ((await exp.json()) as { id: string }).id;
  await finishQueued(request, host.agent);

  // Two sweeps, left queued: their pages and the overlay of the two.
  const sweepIds: string[] = [];
  for (const numjobs of [[1, 2], [1, 4]]) {
    const s = await request.post("/api/experiments", {
      headers: auth,
      data: { hostId: host.id, kind: "sweep", probe: "fio", params: { target: "/srv/pb", rw: "randread", blockSizeKiB: 4, sizeMiB: 64, ioengine: "libaio", direct: true, runtimeSec: 6 }, sweep: { iodepths: [1, 4], numjobs } },
    });
    expect(s.status(), await s.text()).toBe(201);
    sweepIds.push(((await s.json()) as { id: string }).id);
  }

  const schedule = await request.post("/api/schedules", {
    headers: auth,
    data: { name: `phone-width ${Date.now()}`, hostIds: [host.id], kind: "run", probe: "dd", params: { target: "/srv/pb", sizeMiB: 4 }, cron: "0 3 * * *", skipIfBusy: true },
  });
  expect(schedule.status(), await schedule.text()).toBe(201);
  const series = (await (await request.get(`/api/series?hostId=${host.id}`, { headers: auth })).json()) as { series: { id: string; hostId?: string }[] };
  expect(series.series.length).toBeGreaterThan(0);

  // Shares of a comparison (two of the guides' reference runs and an import: profiles differ) and of the experiment.
  const refs = (await (await request.get("/api/runs?origin=REFERENCE&probe=iozone&pageSize=2", { headers: auth })).json()) as { runs: { id: string }[] };
  const shared = await request.post("/api/comparisons", { headers: auth, data: { runIds: [...refs.runs.map((r) => r.id), runIds[0]], title: "phone width" } });
  expect(shared.status(), await shared.text()).toBe(201);
  const expShared = await request.post(`/api/experiments/${experimentId}/share`, { headers: auth });
  expect(expShared.status(), await expShared.text()).toBe(201);

  seeded = {
    hostId: host.id,
    runIds: [runIds[0]!, runIds[1]!],
    experimentId,
    sweepIds: [sweepIds[0]!, sweepIds[1]!],
    scheduleId: ((await schedule.json()) as { id: string }).id,
    seriesId: series.series[0]!.id,
    compareShare: ((await shared.json()) as { slug: string }).slug,
    experimentShare: ((await expShared.json()) as { slug: string }).slug,
  };
  return seeded;
}


/** Sign out is drawn whole inside the window. */
async function signOutOnScreen(page: Page, where: string) {
  const button = page.getByRole("banner").getByRole("button", { name: "Sign out" });
  await expect(button, where).toBeVisible();
  const box = (await button.boundingBox())!;
  expect(box.x, where).toBeGreaterThanOrEqual(0);
  expect(box.x + box.width, where).toBeLessThanOrEqual(PHONE.width);
  expect(box.y + box.height, where).toBeLessThanOrEqual(PHONE.height);
}

/**
 * A column (found by `cell`) lies beyond the window's right edge inside a scroll box whose cue is
 * showing, and scrolling that box brings it into view.
 */
async function reachableBySideScroll(page: Page, scrollTestId: string, cellText: RegExp) {
  const box = page.getByTestId(scrollTestId);
  await expect(box).toBeVisible();
  const cell = box.locator("th, td").filter({ hasText: cellText }).first();
  await expect(cell).toBeAttached();
  const overflowing = await box.evaluate((el) => el.scrollWidth > el.clientWidth && getComputedStyle(el).overflowX === "auto");
  if (overflowing) {
    await expect(box.locator("xpath=..")).toHaveAttribute("data-more-right", "true");
    await expect(box.locator("xpath=../following-sibling::p[1]")).toHaveText(/Scroll sideways/);
    await box.evaluate((el) => (el.scrollLeft = el.scrollWidth));
    await expect(box.locator("xpath=..")).toHaveAttribute("data-more-left", "true");
  }
  // Either way, the column is now inside the window.
  const rect = (await cell.boundingBox())!;
  expect(rect.x + rect.width).toBeLessThanOrEqual(PHONE.width + 1);
  expect(rect.x).toBeGreaterThanOrEqual(-1);
}

test("every signed-in page fits a 390 px phone, with Sign out on screen", async ({ page, request }) => {
  test.setTimeout(300_000);
  const s = await seed(request);
  await page.setViewportSize(PHONE);
  await signInAs(page, "admin");
  const guide = "ext2-ext3-ext4-iozone";
  const pages = [
    "/",
    "/hosts",
    `/hosts/${s.hostId}`,
    "/hosts/new",
    "/runs",
    `/runs/${s.runIds[0]}`,
    "/runs/new",
    `/compare?runs=${s.runIds.join(",")}`,
    "/experiments",
    `/experiments/${s.experimentId}`,
    "/experiments/new",
    "/experiments/new?kind=sweep",
    `/experiments/${s.sweepIds[0]}`,
    `/experiments/compare-sweeps?a=${s.sweepIds[0]}&b=${s.sweepIds[1]}`,
    "/schedules",
    "/schedules/new",
    `/schedules/${s.scheduleId}`,
    `/series/${s.seriesId}`,
    "/alerts",
    "/tunables",
    "/guides",
    `/guides/${guide}`,
    "/import",
    "/settings/tokens",
    "/settings/shares",
    "/admin/users",
    "/admin/audit",
    "/admin/webhooks",
    "/admin/settings",
    "/api-docs",
    `/c/${s.compareShare}`,
    `/c/${s.experimentShare}`,
  ];
  for (const url of pages) {
    await test.step(url, async () => {
      const res = await page.goto(url);
      expect(res?.status(), url).toBe(200);
      await page.getByTestId("signed-in-as").waitFor();
      await fitsWidth(page, url, true);
      await signOutOnScreen(page, url);
    });
  }

  // The header folds its links behind Menu; the button opens them from the keyboard.
  const menu = page.getByRole("button", { name: "Menu" });
  const nav = page.getByRole("navigation", { name: "Main" });
  await expect(nav).toBeHidden();
  await menu.focus();
  await page.keyboard.press("Enter");
  await expect(menu).toHaveAttribute("aria-expanded", "true");
  await expect(nav.getByRole("link", { name: "Experiments" })).toBeVisible();
  await fitsWidth(page, "the open menu");
  await nav.getByRole("link", { name: "Runs", exact: true }).click();
  await expect(page).toHaveURL(/\/runs$/);
  await expect(nav).toBeHidden();
  // The account and admin pages open under the user's name.
  await page.getByTestId("signed-in-as").click();
  await expect(page.getByRole("banner").getByRole("link", { name: "Webhooks" })).toBeVisible();
  await fitsWidth(page, "the open account menu");
});

test("at 390 px the wide tables scroll in their own box with a cue, their far columns reachable", async ({ page, request }) => {
  test.setTimeout(120_000);
  const s = await seed(request);
  await page.setViewportSize(PHONE);
  await signInAs(page, "viewer");

  // Compare: the second series' column of the Values table.
  await page.goto(`/compare?runs=${s.runIds.join(",")}`);
  const section = page.getByTestId("compare-section-iozone");
  // Open unless the table is long.
  const values = section.locator("details").filter({ has: page.locator("summary", { hasText: /^Values/ }) });
  if ((await values.getAttribute("open")) === null) await values.locator("summary").click();
  await expect(section.getByTestId("values-iozone")).toBeVisible();
  await reachableBySideScroll(page, "values-scroll-iozone", /another-lab-vm/);

  // The experiment's Results per arm: the median column.
  await page.goto(`/experiments/${s.experimentId}`);
  await expect(page.getByTestId("arm-results")).toBeVisible();
  await reachableBySideScroll(page, "arm-results-scroll", /^Median/);
  await reachableBySideScroll(page, "arm-results-scroll", /^CV$/);

  // A shared comparison's What differs: the last series' column, signed out.
  await page.context().clearCookies();
  await page.goto(`/c/${s.compareShare}`);
  const differs = page.getByTestId("differs-scroll");
  await expect(differs).toBeVisible();
  const lastHead = differs.locator("thead th").last();
  const text = (await lastHead.textContent())!.trim();
  await reachableBySideScroll(page, "differs-scroll", new RegExp(text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")));
  await fitsWidth(page, "the shared comparison");
  await page.goto(`/c/${s.experimentShare}`);
  await expect(page.getByTestId("shared-verdict")).toBeVisible();
  await fitsWidth(page, "the shared experiment");
});

test("/tunables breaks no word in the middle at 390 px", async ({ page }) => {
  await page.setViewportSize(PHONE);
  await signInAs(page, "viewer");
  await page.goto("/tunables");
  await expect(page.getByTestId("tunable-row").first()).toBeVisible();
  // Each run of letters and digits in the table must lie on one line (one client rect).
  const broken = await page.getByTestId("tunables-scroll").evaluate((root) => {
    const out: string[] = [];
    const walker = document.createTreeWalker(root, NodeFilter.SHOW_TEXT);
    for (let n = walker.nextNode(); n; n = walker.nextNode()) {
      const text = n.textContent ?? "";
      for (const m of text.matchAll(/[\p{L}\p{N}_]{2,}/gu)) {
        const range = document.createRange();
        range.setStart(n, m.index);
        range.setEnd(n, m.index + m[0].length);
        const lines = new Set([...range.getClientRects()].filter((r) => r.width > 0).map((r) => Math.round(r.top)));
        if (lines.size > 1) out.push(m[0]);
      }
    }
    return out;
  });
  expect(broken.slice(0, 10), "words broken across lines").toEqual([]);
  await fitsWidth(page, "/tunables");
});

test("at 1366 px the admin's navigation is one line", async ({ page }) => {
  await page.setViewportSize(LAPTOP);
  await signInAs(page, "admin");
  for (const url of ["/", "/runs", "/admin/users"]) {
    await page.goto(url);
    await page.getByTestId("signed-in-as").waitFor();
    const nav = page.getByRole("navigation", { name: "Main" });
    await expect(nav.getByRole("link", { name: "Launch" })).toBeVisible();
    const tops = await nav.getByRole("link").evaluateAll((links) => links.map((l) => (l as HTMLElement).offsetTop));
    expect(tops.length).toBe(10);
    expect(new Set(tops).size, `${url}: link tops ${tops.join(", ")}`).toBe(1);
    await expect(page.getByRole("button", { name: "Menu" })).toBeHidden();
    await expect(page.getByRole("banner").getByRole("button", { name: "Sign out" })).toBeInViewport();
  }
});

test("a viewer is offered no Launch or Import; an operator is", async ({ page, request }) => {
  const s = await seed(request);
  await signInAs(page, "viewer");
  const nav = page.getByRole("navigation", { name: "Main" });
  for (const url of ["/runs", `/hosts/${s.hostId}`]) {
    await page.goto(url);
    await expect(nav.getByRole("link", { name: "Runs", exact: true })).toBeVisible();
    await expect(nav.getByRole("link", { name: "Launch" })).toHaveCount(0);
    await expect(nav.getByRole("link", { name: "Import" })).toHaveCount(0);
    await expect(page.getByRole("main").getByRole("link", { name: /Launch a probe|Import output/ })).toHaveCount(0);
  }
  await page.context().clearCookies();
  await signInAs(page, "operator");
  await page.goto("/runs");
  await expect(nav.getByRole("link", { name: "Launch" })).toBeVisible();
  await expect(nav.getByRole("link", { name: "Import" })).toBeVisible();
  await expect(page.getByTestId("runs-launch")).toBeVisible();
  await page.goto(`/hosts/${s.hostId}`);
  await expect(page.getByRole("main").getByRole("link", { name: "Launch a probe" })).toBeVisible();
});
