// The trends pages on real data: a fake agent (the agent protocol over HTTP, as the boundary specs
// speak it) runs the same dd test twelve times on one host, the first seven at ~800 MB/s on one
// kernel, the last five at ~600 MB/s on another (so the last window of five lies wholly past the step), then once more too short to count (the run checks
// flag it); the server puts them in one series. Their finish times are then spread over thirteen
// days in the e2e database (the chart and the date windows read
// them), and the pages are read and used as a person would: the host's sparkline, the series'
// chart, verdict, compare and settings, the alert's acknowledgement, the home panel and the badge.
import { PrismaPg } from "@prisma/adapter-pg";
import { PrismaClient } from "@prisma/client";
import type { APIRequestContext } from "@playwright/test";
import { expect, test } from "../fixtures";
import { readDatabaseUrlFile } from "../../lib/runtime/database-url-file";
import { apiTokenFor, bearer, e2eDataDir, registerFakeAgent, signInAs } from "../helpers";

const DAY = 86_400_000;
const MiB = 2 ** 20;
// 4 GiB: at these speeds dd times 5–7 s, past the 5 s the run checks ask of a measurement.
const PARAMS = { target: "/srv/pb", sizeMiB: 4096 };

function e2eDb(): PrismaClient {
  const url = readDatabaseUrlFile(e2eDataDir);
  if (!url) throw new Error(`no database URL in ${e2eDataDir}; is the e2e server running?`);
  return new PrismaClient({ adapter: new PrismaPg({ connectionString: url }) });
}

/** dd's own lines for a copy of `mib` MiB at `mbs` MB/s (decimal, as coreutils prints it). */
function ddOutput(mbs: number, mib: number): { text: string; secs: number } {
  const bytes = mib * MiB;
  const secs = bytes / (mbs * 1e6);
  return { text: `${mib}+0 records in\n${mib}+0 records out\n${bytes} bytes (${(bytes / 1e9).toFixed(1)} GB, ${(mib / 1024).toFixed(1)} GiB) copied, ${secs.toFixed(5)} s, ${mbs} MB/s\n`, secs };
}

function profile(kernel: string) {
  return {
    collectedAt: new Date().toISOString(),
    hostname: "trends-e2e",
    kernel: { release: kernel, version: null },
    distro: "Debian GNU/Linux 12",
    os: null,
    cpu: { model: "test cpu", count: 4, sockets: 1 },
    memory: { totalBytes: 8 * 2 ** 30 },
    numa: { nodes: 1 },
    blockDevices: [],
    targets: [],
    sysctls: { "vm.dirty_ratio": "20" },
    thp: { enabled: null, defrag: null },
    target: { path: "/srv/pb", fsType: "ext4", source: "/dev/vda1", mountPoint: "/", mountOptions: ["rw", "relatime"], device: "vda", rotational: false, model: null, medium: "ssd", totalBytes: null, freeBytes: null },
  };
}

/** One dd run through the agent protocol: launched by the operator, claimed, its output sent, finished. */
async function runOnce(request: APIRequestContext, operator: string, host: { id: string; agent: Record<string, string> }, mbs: number, kernel: string, mib = PARAMS.sizeMiB): Promise<string> {
  const launched = await request.post("/api/runs", { headers: bearer(operator), data: { hostId: host.id, probe: "dd", params: PARAMS } });
  expect(launched.status()).toBe(201);
  const { id } = (await launched.json()) as { id: string };
  const claim = await request.post("/api/agent/jobs/claim", { headers: host.agent, data: { waitSec: 0 } });
  expect(((await claim.json()) as { runId: string }).runId).toBe(id);
  const out = ddOutput(mbs, mib);
  expect((await request.post(`/api/agent/runs/${id}/chunks`, { headers: host.agent, data: { chunks: [{ seq: 0, data: out.text }] } })).status()).toBe(200);
  const finish = await request.post(`/api/agent/runs/${id}/finish`, {
    headers: host.agent,
    data: { exitCode: 0, signal: null, durationMs: Math.round(out.secs * 1000) + 150, lastSeq: 0, error: null, cancelled: false, timedOut: false, interrupted: false, profile: profile(kernel) },
  });
  expect(await finish.json()).toEqual({ status: "SUCCEEDED" });
  return id;
}

test("a host's series: sparkline, chart, verdict, compare, settings, points; its regression alert acknowledged; the home panel and the header badge", async ({ page, request }) => {
  test.setTimeout(180_000);
  const operator = await apiTokenFor("operator");
  const host = await registerFakeAgent(request, operator, "trends");
  const speeds = [801, 795, 806, 799, 803, 797, 800, 602, 598, 605, 596, 599];
  const runIds: string[] = [];
  for (const [i, mbs] of speeds.entries()) runIds.push(await runOnce(request, operator, host, mbs, i < 7 ? "6.1.0-25-amd64" : "6.1.0-28-amd64"));
  // A run that copied 4 MiB in 7 ms: the checks call it too short, so it is drawn but not counted.
  runIds.push(await runOnce(request, operator, host, 600, "6.1.0-28-amd64", 4));
  const noted = await request.patch(`/api/runs/${runIds[8]}`, { headers: bearer(operator), data: { notes: "after the kernel upgrade" } });
  expect(noted.status()).toBe(200);

  const db = e2eDb();
  try {
    // Thirteen runs a day apart, oldest first: what a daily schedule would have made.
    const start = Date.now() - 13 * DAY;
    for (const [i, id] of runIds.entries()) await db.probeRun.update({ where: { id }, data: { finishedAt: new Date(start + i * DAY) } });
    const runs = await db.probeRun.findMany({ where: { id: { in: runIds } }, select: { seriesId: true } });
    const seriesIds = [...new Set(runs.map((r) => r.seriesId))];
    expect(seriesIds, "the runs form one series").toHaveLength(1);
  } finally {
    await db.$disconnect();
  }

  await signInAs(page, "operator");

  await test.step("the host page lists the series with its sparkline and trend", async () => {
    await page.goto(`/hosts/${host.id}`);
    const list = page.getByTestId("series-list");
    await expect(list).toBeVisible();
    await expect(list.getByTestId("sparkline").locator("svg polyline")).toHaveCount(1);
    await expect(list.getByTestId("series-latest")).toContainText("MiB/s");
    await expect(list.getByTestId("trend")).toHaveAttribute("data-trend", "regression");
    await list.getByRole("link").first().click();
    await expect(page).toHaveURL(/\/series\/[0-9a-f-]{36}$/);
  });

  await test.step("the series page draws the chart, the verdict and every run", async () => {
    const chart = page.getByTestId("series-chart");
    await expect(chart.locator("svg.recharts-surface").first()).toBeVisible();
    await expect(page.getByTestId("series-chart-summary")).toContainText("13 runs");
    await expect(page.getByTestId("series-chart-summary")).toContainText("1 run is not valid");
    await expect(page.getByTestId("series-chart-summary")).toContainText("profile changes at");
    await expect(chart.locator(".recharts-reference-line")).not.toHaveCount(0);
    await expect(page.getByTestId("series-verdict")).toHaveAttribute("data-state", "decided");
    await expect(page.getByTestId("series-verdict").getByTestId("verdict-ratio")).toContainText("−");
    await expect(page.getByTestId("series-annotations")).toContainText("6.1.0-25-amd64 → 6.1.0-28-amd64");
    const rows = page.getByTestId("series-points").locator("tbody tr");
    await expect(rows).toHaveCount(13);
    await expect(rows.first().getByRole("link")).toHaveAttribute("href", `/runs/${runIds[12]}`);
    await expect(rows.first()).toHaveAttribute("data-valid", "no");
    await expect(rows.first()).toContainText("Too short to be a measurement");
    await expect(page.getByTestId("series-points")).toContainText("after the kernel upgrade");
  });

  await test.step("two windows compared: the first days against the last", async () => {
    const form = page.getByTestId("compare-windows");
    await form.getByRole("button", { name: "Compare" }).click();
    const verdict = page.getByTestId("compare-verdict");
    await expect(verdict).toBeVisible();
    await expect(verdict).toHaveAttribute("data-state", "decided");
    await expect(verdict.getByTestId("verdict-sentence")).not.toBeEmpty();
  });

  await test.step("the settings refuse a threshold out of range by field, then save", async () => {
    const form = page.getByTestId("series-settings");
    // The browser's own min/max would stop the form first: the server's answer is what is tested.
    await form.evaluate((f: HTMLFormElement) => (f.noValidate = true));
    await form.getByLabel(/Threshold/).fill("0.1");
    await form.getByRole("button", { name: "Save settings" }).click();
    await expect(form.locator(".field-error")).toContainText("at least 0.5");
    await expect(form.getByLabel(/Threshold/)).toHaveAttribute("aria-invalid", "true");
    await form.getByLabel(/Threshold/).fill("4");
    await form.getByRole("button", { name: "Save settings" }).click();
    await expect(page.getByTestId("settings-saved")).toBeVisible();
  });

  await test.step("the home page and the header show the open regression", async () => {
    await page.goto("/");
    const panel = page.getByTestId("open-regressions-panel");
    await expect(panel.getByTestId("alert-item").first()).toBeVisible();
    await expect(panel.getByTestId("alert-kind").first()).toHaveText("regression");
    await expect(page.getByTestId("open-regressions")).toHaveText(/^[1-9]\d*$/);
  });

  await test.step("the alert is acknowledged from the alerts page", async () => {
    await page.getByTestId("alerts-link").click();
    await expect(page).toHaveURL(/\/alerts$/);
    const ofHost = () => page.getByTestId("alert-item").filter({ has: page.locator(`[href="/hosts/${host.id}"]`) });
    const item = ofHost().first();
    await expect(item).toBeVisible();
    await expect(item.getByTestId("alert-message")).not.toBeEmpty();
    await item.getByRole("button", { name: /Acknowledge/ }).click();
    await expect(ofHost()).toHaveCount(0);
    await page.getByRole("link", { name: "Acknowledged" }).click();
    await expect(page).toHaveURL(/state=acknowledged/);
    await expect(ofHost().first()).toHaveAttribute("data-acknowledged", "yes");
  });
});
