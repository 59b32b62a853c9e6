// Charts and panels of the run and compare pages, as a browser shows them: imported runs (no
// agent), the guides' reference runs, and a phone-sized screen.
import fs from "node:fs";
import path from "node:path";
import type { APIRequestContext, Locator } from "@playwright/test";
import { expect, test } from "../fixtures";
import { apiTokenFor, bearer, signInAs } from "../helpers";

const probes = path.join(__dirname, "..", "..", "probes");
const read = (tool: string, file: string) => fs.readFileSync(path.join(probes, tool, "fixtures", file), "utf8");

async function importRun(request: APIRequestContext, probe: string, output: string, hostLabel: string): Promise<string> {
  const token = await apiTokenFor("operator");
  const res = await request.post("/api/runs/import", { headers: bearer(token), data: { probe, output, hostLabel } });
  expect(res.status(), await res.text()).toBe(201);
  return ((await res.json()) as { id: string }).id;
}

/** The terminal's rows as text (xterm's DOM renderer draws one div per row). */
async function terminalRows(terminal: Locator): Promise<string[]> {
  await expect(terminal.locator(".xterm-rows > div").first()).toBeAttached();
  return (await terminal.locator(".xterm-rows > div").allTextContents()).map((r) => r.replace(/\u00a0/g, " ").trimEnd());
}

test("an imported dd run: its last progress line apart from the summary, a box that fits, one line instead of empty telemetry", async ({ page, request }) => {
  const id = await importRun(request, "dd", read("dd", "dd-write-direct-4g-progress.stderr.txt"), "charts-dd");
  await signInAs(page, "operator");
  await page.goto(`/runs/${id}`);
  const terminal = page.getByTestId("run-terminal");
  await expect.poll(async () => (await terminalRows(terminal)).some((r) => r.startsWith("4294967296 bytes (4.3 GB, 4.0 GiB) copied, 1.81803 s"))).toBe(true);
  const rows = await terminalRows(terminal);
  expect(rows.filter((r) => /B\/s\d/.test(r))).toEqual([]);
  // Six lines of output: a box for them, not 360 px.
  const box = (await terminal.boundingBox())!;
  expect(box.height).toBeLessThan(200);
  await expect(page.getByTestId("run-timeline-no-telemetry")).toHaveText("No telemetry: imported runs carry only the tool's output.");
  await expect(page.locator('[data-testid="timeline-panel"][data-panel="iowait"]')).toHaveCount(0);
});

test("an imported sar run draws page scanning and dirty memory once, and disk %util apart from milliseconds", async ({ page, request }) => {
  const id = await importRun(request, "sar", read("sar", "gen-sar-B-d-r-u.txt"), "charts-sar");
  await signInAs(page, "operator");
  await page.goto(`/runs/${id}`);
  await expect(page.getByTestId("diagnosis")).toBeVisible();
  // Every chart's legend: pgscand/s and kbdirty each in one chart of the page.
  const legends = page.locator(".recharts-legend-item-text");
  await expect(legends.first()).toBeVisible();
  const names = await legends.allTextContents();
  expect(names.filter((n) => n.includes("pgscand")).length).toBe(1);
  expect(names.filter((n) => n.includes("kbdirty")).length).toBe(1);
  await expect(page.locator('[data-testid="timeline-panel"]')).toHaveCount(0);
  const charts = page.getByTestId("result-chart");
  await expect(charts.filter({ hasText: "sar disk: %util" })).toHaveCount(1);
  await expect(charts.filter({ hasText: "sar disk: await" })).toHaveCount(1);
  await expect(charts.filter({ hasText: /^sar disk$/ })).toHaveCount(0);
});

test.describe("on a phone", () => {
  test.use({ viewport: { width: 375, height: 800 } });

  test("fio's charts keep their x labels apart and the histogram's axis title whole", async ({ page, request }) => {
    const id = await importRun(request, "fio", read("fio", "fio-3.33-two-groups.json"), "charts-fio");
    await signInAs(page, "operator");
    await page.goto(`/runs/${id}`);
    const charts = page.getByTestId("result-chart");
    await expect(charts.first()).toBeVisible();
    for (const chart of await charts.all()) {
      await chart.scrollIntoViewIfNeeded();
      // Level tick labels of both axes (Recharts draws them apart from the axis' group): no two
      // boxes meet. Angled ones (rotated boxes overlap while their text does not): their anchors
      // far enough apart along the axis for a line of 11 px text at 40°.
      const ticks = chart.locator(".recharts-cartesian-axis-tick-value");
      await expect(ticks.first()).toBeAttached();
      const all = await ticks.evaluateAll((els) =>
        els.map((el) => {
          const r = el.getBoundingClientRect();
          return { x: r.x, y: r.y, width: r.width, height: r.height, anchor: Number(el.getAttribute("x")), rotated: /rotate\(-?[1-9]/.test(el.getAttribute("transform") ?? "") };
        }),
      );
      const level = all.filter((b) => !b.rotated && b.width > 0);
      expect(all.length).toBeGreaterThan(2);
      const caption = await chart.locator("figcaption").textContent();
      for (let i = 0; i < level.length; i++)
        for (let j = i + 1; j < level.length; j++) {
          const a = level[i]!;
          const b = level[j]!;
          const overlap = a.x + 1 < b.x + b.width && b.x + 1 < a.x + a.width && a.y + 1 < b.y + b.height && b.y + 1 < a.y + a.height;
          expect(overlap, `${caption}: tick labels ${i} and ${j}`).toBe(false);
        }
      const anchors = all.filter((b) => b.rotated).map((b) => b.anchor).sort((a, b) => a - b);
      for (let i = 1; i < anchors.length; i++) expect(anchors[i]! - anchors[i - 1]!, `${caption}: angled labels ${i - 1} and ${i}`).toBeGreaterThanOrEqual(17);
    }
    const histogram = charts.filter({ hasText: "fio latency histogram" });
    await expect(histogram.getByTestId("chart-axis-titles")).toHaveText("x: latency bucket (above the previous bound, up to this one) · y: % of I/Os");
  });
});

test("compare: reference legend chips keep their series apart, and fio's Values table lists p99 once", async ({ page, request }) => {
  const token = await apiTokenFor("operator");
  const refs = (await (await request.get("/api/runs?origin=REFERENCE&probe=fsmeta&pageSize=6", { headers: bearer(token) })).json()) as { runs: { id: string }[] };
  expect(refs.runs.length).toBeGreaterThanOrEqual(3);
  await signInAs(page, "operator");
  await page.goto(`/compare?runs=${refs.runs.map((r) => r.id).join(",")}`);
  const labels = page.getByTestId("compare-section-fsmeta").getByTestId("legend-label");
  await expect(labels.first()).toBeVisible();
  const shown = await labels.allTextContents();
  const titles = await labels.evaluateAll((els) => els.map((e) => e.getAttribute("title") ?? ""));
  expect(new Set(shown).size).toBe(shown.length);
  // What is shown ends as the full label does (the series), and the full label is the tooltip.
  shown.forEach((s, i) => expect(titles[i]!.endsWith(s.slice(s.lastIndexOf("…") + 1))).toBe(true));
  for (const label of await labels.all()) expect(await label.evaluate((el) => el.scrollWidth <= el.clientWidth + 1)).toBe(true);

  const a = await importRun(request, "fio", read("fio", "fio-randread4k-libaio-qd32.json"), "charts-fio-a");
  const b = await importRun(request, "fio", read("fio", "fio-randread4k-io_uring-qd32.json"), "charts-fio-b");
  await page.goto(`/compare?runs=${a},${b}`);
  const section = page.getByTestId("compare-section-fio");
  await expect(section).toBeVisible();
  const values = section.locator("details").filter({ has: page.locator("summary", { hasText: /^Values/ }) });
  // Open by default on a short table: open it only when closed.
  if ((await values.getAttribute("open")) === null) await values.locator("summary").click();
  const table = section.getByTestId("values-fio");
  await expect(table).toBeVisible();
  await expect(table.getByRole("row").filter({ has: page.getByRole("rowheader", { name: "p99 completion latency", exact: true }) })).toHaveCount(1);
});
