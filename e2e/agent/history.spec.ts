// Host history end to end: a real agent started with --history on a directory holding a day
// that sysstat's sadc wrote on this machine uploads it with the host's own sadf; the day is a
// sar run with origin HISTORY, its timeline and diagnosis on the run page, listed on the host
// page; a restart does not upload it again, and without the agent's memory the server's own
// per-day key still keeps one run.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { expect, test } from "../fixtures";
import { signInAs } from "../helpers";
import { startAgent, type AgentHandle } from "./agent-process";

const fixture = path.join(__dirname, "..", "..", "probes", "sar", "fixtures", "history", "sa-busy");
const DAY = "2026-11-23";

let agent: AgentHandle | null = null;
let saDir: string | null = null;

test.afterAll(async () => {
  await agent?.stop();
  if (agent) for (const dir of [agent.scratch, agent.stateDir]) fs.rmSync(dir, { recursive: true, force: true });
  if (saDir) fs.rmSync(saDir, { recursive: true, force: true });
});

test("a sysstat day made by sadc becomes one HISTORY run with its timeline and diagnosis", async ({ page, baseURL }) => {
  test.setTimeout(120_000);
  saDir = fs.mkdtempSync(path.join(os.tmpdir(), "pb-e2e-sa-"));
  // The same day under both names sysstat uses (saDD and saYYYYMMDD).
  fs.copyFileSync(fixture, path.join(saDir, "sa23"));
  fs.copyFileSync(fixture, path.join(saDir, "sa20261123"));

  // Reads are idempotent: retried when a kept-alive socket is reset under load (ECONNRESET).
  const getJson = async (url: string) => (await page.request.get(url, { maxRetries: 2 })).json();
  await signInAs(page, "operator");
  await page.goto("/hosts/new");
  await page.getByLabel("Host name").fill(`e2e-history-${Date.now()}`);
  await page.getByRole("button", { name: "Add host" }).click();
  const token = (await page.getByTestId("registration-token").textContent())!.trim();

  agent = startAgent({ server: baseURL!, token, extraArgs: ["--history", saDir] });
  await expect.poll(() => agent!.output(), { timeout: 30_000 }).toContain("history: checked");
  const hostId = /\(([0-9a-f-]{36})\)/.exec(agent.output())![1]!;
  const uploaded = new RegExp(`history: ${DAY} from \\S+ uploaded as run ([0-9a-f-]{36})`).exec(agent.output());
  expect(uploaded, agent.output()).not.toBeNull();
  const runId = uploaded![1]!;
  expect(agent.output()).toContain("history: checked: 1 day(s) uploaded, 0 already on the server, 0 to retry");

  // The API: a succeeded sar run with origin HISTORY and the file's own date.
  const run = await getJson(`/api/runs/${runId}`);
  expect(run).toMatchObject({ id: runId, hostId, probe: "sar", status: "SUCCEEDED", origin: "HISTORY", historyDay: DAY });
  expect(run.result.format).toMatch(/sadf -j/);

  // The run page: where it came from, the timeline of the day and what the rules read in it.
  await page.goto(`/runs/${runId}`);
  await expect(page.getByTestId("run-origin")).toHaveText("Host history, uploaded");
  await expect(page.getByText(`host history of ${DAY}`)).toBeVisible();
  await expect(page.getByTestId("diagnosis-summary")).toContainText("7 samples read by the guides' rules");
  const timeline = page.getByTestId("timeline");
  await expect(timeline.getByText("CPU and device busy")).toBeVisible();
  await expect(timeline.getByText("Page scanning")).toBeVisible();
  await expect(timeline.locator(".recharts-line").first()).toBeVisible();
  // Its output is a sysstat day file read with sadf -j: named and offered, not dumped as JSON;
  // no empty telemetry frames; the samples drawn on their clock times.
  await expect(page.getByTestId("history-output")).toContainText(`sysstat day file of ${DAY}, 7 samples`);
  await expect(page.getByTestId("run-terminal")).toHaveCount(0);
  await expect(page.getByTestId("run-timeline-empty")).toHaveText(/^No telemetry: a host's history day/);
  await expect(page.getByTestId("timeline-panel")).toHaveCount(0);
  await expect.poll(async () => (await timeline.locator("svg text").allTextContents()).join(" ")).toMatch(/\d{2}:\d{2}/);

  // The host page lists the day; the runs list filters by origin.
  await page.goto(`/hosts/${hostId}`);
  await expect(page.getByTestId("history-days").getByRole("link", { name: DAY })).toHaveAttribute("href", `/runs/${runId}`);
  await page.goto(`/runs?hostId=${hostId}&origin=HISTORY`);
  await expect(page.getByRole("link", { name: /sar/ }).first()).toBeVisible();
  const list = await getJson(`/api/runs?hostId=${hostId}&origin=HISTORY`);
  expect(list.total).toBe(1);

  // A restart with the same state dir: nothing is read or sent again.
  await agent.stop();
  const stateDir = agent.stateDir;
  agent = startAgent({ server: baseURL!, stateDir, scratch: agent.scratch, extraArgs: ["--history", saDir] });
  await expect.poll(() => agent!.output(), { timeout: 30_000 }).toContain("history: checked");
  expect(agent.output()).toContain("history: checked: 0 day(s) uploaded, 0 already on the server, 0 to retry");
  expect(agent.output()).not.toContain("uploaded as run");

  // Without the agent's memory the server's per-host-and-day key answers the stored run.
  await agent.stop();
  fs.rmSync(path.join(stateDir, "history-state.json"));
  agent = startAgent({ server: baseURL!, stateDir, scratch: agent.scratch, extraArgs: ["--history", saDir] });
  await expect.poll(() => agent!.output(), { timeout: 30_000 }).toContain("history: checked");
  expect(agent.output()).toContain(`history: ${DAY} from ${path.join(saDir, "sa20261123")} was already on the server as run ${runId}`);
  const after = await getJson(`/api/runs?hostId=${hostId}&origin=HISTORY`);
  expect(after.total).toBe(1);
});
