// fio on a real agent, launched from the UI: fio's ETA lines and the progress bar while it runs,
// then the parsed percentile curve, latency histogram and per-second figures from the logs the
// agent appended to the output.
import fs from "node:fs";
import { expect, test } from "../fixtures";
import { signInAs } from "../helpers";
import { startAgent, type AgentHandle } from "../agent/agent-process";

let agent: AgentHandle | null = null;

test.afterAll(async () => {
  await agent?.stop();
  if (agent) for (const dir of [agent.scratch, agent.stateDir]) fs.rmSync(dir, { recursive: true, force: true });
});

test("fio 70/30 mix at QD1: live output and progress bar, then the percentile curve and the seconds", async ({ page, baseURL }) => {
  test.setTimeout(120_000);
  await signInAs(page, "operator");
  await page.goto("/hosts/new");
  await page.getByLabel("Host name").fill(`e2e-fio-live-${Date.now()}`);
  await page.getByRole("button", { name: "Add host" }).click();
  const token = (await page.getByTestId("registration-token").textContent())!.trim();
  agent = startAgent({ server: baseURL!, token });
  await expect.poll(() => agent!.output(), { timeout: 20_000 }).toContain("registered as host");
  const hostId = /\(([0-9a-f-]{36})\)/.exec(agent.output())![1]!;

  await page.goto(`/runs/new?host=${hostId}`);
  const form = page.getByTestId("launch-form");
  await form.getByLabel("Preset").selectOption("fio:rand-rw-4k");
  await form.getByLabel("Target directory").selectOption(agent.scratch);
  // A short run of the preset's method: 5 s over 64 MiB.
  const params = JSON.parse(await form.getByLabel(/^Parameters/).inputValue()) as Record<string, unknown>;
  expect(params).toMatchObject({ rw: "randrw", rwmixread: 70, ioengine: "psync", iodepth: 1, numjobs: 1 });
  await form.getByLabel(/^Parameters/).fill(JSON.stringify({ ...params, sizeMiB: 64, runtimeSec: 5 }));
  await form.getByRole("button", { name: "Launch" }).click();
  await expect(page).toHaveURL(/\/runs\/[0-9a-f-]{36}$/);
  const runId = page.url().split("/").pop()!;

  // Live: fio's ETA line in the terminal and the bar with fio's percentage, rates and time left.
  // The bar is drawn only while the run is on, so seeing it means it came before the end.
  const terminal = page.getByTestId("run-terminal").locator(".xterm-rows");
  await expect(terminal).toContainText("Starting 1 process", { timeout: 30_000 });
  await expect(page.getByTestId("run-progress")).toContainText(/\d+\.\d %, r=\S+,w=\S+, ETA \d+m:\d+s/, { timeout: 30_000 });
  await expect(page.getByRole("progressbar", { name: "Run progress" })).toBeVisible();
  await expect(terminal).toContainText(/\[m\(1\)\]\[\d+\.\d%\]/);

  await expect(page.getByTestId("run-status")).toHaveText("succeeded", { timeout: 60_000 });
  // The stored log: ETA lines, the JSON report, and fio's per-second logs appended by the agent.
  const log = await (await page.request.get(`/api/runs/${runId}/log`)).text();
  expect(log).toMatch(/\[eta \d+m:\d+s\]/);
  expect(log).toContain('"fio version"');
  for (const kind of ["bw", "iops", "clat"]) expect(log).toContain(`[probebook file probebook_${kind}.1.log, `);

  // After: the whole completion-latency curve, the histogram and the figures of each second.
  const chart = (title: string) => page.getByTestId("result-chart").filter({ hasText: title });
  await expect(chart("fio completion latency percentiles")).toBeVisible();
  await expect(chart("fio completion latency percentiles")).toContainText("p99.9");
  await expect(chart("fio latency histogram")).toBeVisible();
  await expect(chart("fio bandwidth over time")).toBeVisible();
  await expect(chart("fio mean completion latency over time")).toBeVisible();
  const run = (await (await page.request.get(`/api/runs/${runId}`)).json()) as { result: { measurements: { metric: string; dims: Record<string, unknown> }[] } };
  const ms = run.result.measurements;
  expect(ms.filter((m) => m.metric === "bw_series" && m.dims.direction === "read").length).toBeGreaterThanOrEqual(3);
  expect(ms.filter((m) => m.metric.startsWith("clat_p") && m.dims.direction === "write").length).toBe(20);
  expect(ms.some((m) => m.metric === "lat_share")).toBe(true);
  expect(fs.readdirSync(agent.scratch)).toEqual([]);

  // Compare draws the run's percentile curve per direction and its histogram.
  await page.goto(`/compare?runs=${runId}`);
  await expect(page.locator('[data-chart="fio-clat-curve-read"]')).toBeVisible();
  await expect(page.locator('[data-chart="fio-clat-curve-write"]')).toContainText("p99.999");
  await expect(page.locator('[data-chart="fio-latency-histogram"]')).toBeVisible();
});
