// The SNIA-style preset on a real agent, launched from the UI on a small file with short rounds:
// the precondition and the rounds run as separate fio processes, the run page says whether steady
// state was reached and after how many rounds, draws every round, and the percentile curve has a
// logarithmic latency axis.
import fs from "node:fs";
import { expect, test } from "../fixtures";
import { signInAs } from "../helpers";
import { startAgent, type AgentHandle } from "../agent/agent-process";

let agent: AgentHandle | null = null;

test.afterAll(async () => {
  await agent?.stop();
  if (agent) for (const dir of [agent.scratch, agent.stateDir]) fs.rmSync(dir, { recursive: true, force: true });
});

interface Measurement {
  metric: string;
  value: number;
  dims: Record<string, unknown>;
}

test("SNIA-style steady state: rounds until steady or 25, the verdict and the rounds on the run page", async ({ page, baseURL }) => {
  // At most 25 rounds of 2 s, plus the precondition and fio's start per round.
  test.setTimeout(240_000);
  await signInAs(page, "operator");
  await page.goto("/hosts/new");
  await page.getByLabel("Host name").fill(`e2e-fio-snia-${Date.now()}`);
  await page.getByRole("button", { name: "Add host" }).click();
  const token = (await page.getByTestId("registration-token").textContent())!.trim();
  agent = startAgent({ server: baseURL!, token });
  await expect.poll(() => agent!.output(), { timeout: 20_000 }).toContain("registered as host");
  const hostId = /\(([0-9a-f-]{36})\)/.exec(agent.output())![1]!;

  await page.goto(`/runs/new?host=${hostId}`);
  const form = page.getByTestId("launch-form");
  await form.getByLabel("Preset").selectOption("fio:snia-iops-steady");
  await form.getByLabel("Target directory").selectOption(agent.scratch);
  const params = JSON.parse(await form.getByLabel(/^Parameters/).inputValue()) as Record<string, unknown>;
  expect(params).toMatchObject({ rw: "randwrite", blockSizeKiB: 4, ioengine: "libaio", iodepth: 32, direct: true, sniaRoundSec: 60 });
  // A small file and 2 s rounds instead of 1 GiB and a minute.
  await form.getByLabel(/^Parameters/).fill(JSON.stringify({ ...params, sizeMiB: 32, sniaRoundSec: 2 }));
  await form.getByRole("button", { name: "Launch" }).click();
  await expect(page).toHaveURL(/\/runs\/[0-9a-f-]{36}$/);
  const runId = page.url().split("/").pop()!;

  await expect(page.getByTestId("run-status")).toHaveText("succeeded", { timeout: 200_000 });
  const run = (await (await page.request.get(`/api/runs/${runId}`)).json()) as { result: { measurements: Measurement[]; warnings: string[] } };
  const ms = run.result.measurements;
  const value = (metric: string) => ms.find((m) => m.metric === metric)?.value;
  const rounds = ms.filter((m) => m.metric === "round_iops");
  const reached = value("ss_reached");
  expect(rounds.length).toBe(value("ss_rounds"));
  if (reached === 1) {
    // Stopped at the first steady window: five rounds at least, fewer than 25 unless the 25th did it.
    expect(rounds.length).toBeGreaterThanOrEqual(5);
    expect(rounds.length).toBeLessThanOrEqual(25);
  } else {
    expect(reached).toBe(0);
    expect(rounds.length).toBe(25);
    expect(run.result.warnings).toContain("steady state not reached in 25 rounds");
  }
  // One fio process per step: the precondition's and each round's report, after its step frame.
  const log = await (await page.request.get(`/api/runs/${runId}/log`)).text();
  expect(log.match(/\[probebook step \d+\]/g)).toHaveLength(rounds.length + 1);
  expect(log).toContain('"jobname" : "precondition"');

  // The run page: the verdict and every round, fio's version on the charts.
  const chart = (title: string | RegExp) => page.getByTestId("result-chart").filter({ hasText: title });
  const verdict = reached === 1 ? `steady state reached after ${rounds.length} rounds` : "steady state not reached in 25 rounds";
  await expect(chart("fio SNIA rounds")).toContainText(verdict);
  await expect(chart("fio SNIA rounds").getByTestId("chart-source")).toHaveText(/^fio-\d+\.\d+/);
  if (reached === 0) await expect(page.getByText("Steady state not reached").first()).toBeVisible();

  // The percentile curve on a log latency axis: its y ticks are powers of ten or 1-2-5 steps.
  const curve = chart("fio completion latency percentiles");
  await expect(curve.getByTestId("chart-log-axis")).toHaveText("log scale");
  await curve.scrollIntoViewIfNeeded();
  const tickTexts = curve.locator(".recharts-yAxis-tick-labels .recharts-cartesian-axis-tick-value");
  // Recharts draws the axis once its container has a measured size.
  await expect.poll(() => tickTexts.count(), { timeout: 10_000 }).toBeGreaterThanOrEqual(2);
  const ticks = (await tickTexts.allTextContents()).map((t) => Number(t.replace(/,/g, "")));
  for (let i = 1; i < ticks.length; i++) expect([2, 2.5, 10]).toContain(Number((ticks[i]! / ticks[i - 1]!).toFixed(3)));
  expect(fs.readdirSync(agent.scratch)).toEqual([]);
});
