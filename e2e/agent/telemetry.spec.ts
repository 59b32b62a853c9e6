import fs from "node:fs";
import { expect, test } from "../fixtures";
import { apiTokenFor, bearer, signInAs } from "../helpers";
import { startAgent, type AgentHandle } from "./agent-process";

let agent: AgentHandle | null = null;
let hostId = "";

test.describe.configure({ mode: "serial" });

test.afterAll(async () => {
  await agent?.stop();
  if (agent) for (const dir of [agent.scratch, agent.stateDir]) fs.rmSync(dir, { recursive: true, force: true });
});

interface Sample {
  t: number;
  cpu: { iowait: number };
  device: { name: string; util: number; wkBs: number } | null;
}

test("a dd run's page draws the machine's telemetry live and after the end; every second is stored", async ({ page, request, baseURL }) => {
  await signInAs(page, "operator");
  await page.goto("/hosts/new");
  await page.getByLabel("Host name").fill(`e2e-telemetry-${Date.now()}`);
  await page.getByRole("button", { name: "Add host" }).click();
  const token = (await page.getByTestId("registration-token").textContent())!.trim();
  agent = startAgent({ server: baseURL!, token });
  await expect.poll(() => agent!.output(), { timeout: 20_000 }).toContain("registered as host");
  hostId = /\(([0-9a-f-]{36})\)/.exec(agent.output())![1]!;

  // 32 MiB in 4 KiB direct writes: a couple of seconds on the project's disk, long enough to watch.
  await page.goto(`/runs/new?host=${hostId}`);
  const form = page.getByTestId("launch-form");
  await form.getByLabel("Preset").selectOption("dd:write-direct");
  await form.getByLabel("Target directory").selectOption(agent.scratch);
  const current = JSON.parse(await form.getByLabel(/^Parameters/).inputValue()) as Record<string, unknown>;
  await form.getByLabel(/^Parameters/).fill(JSON.stringify({ ...current, sizeMiB: 32, blockSizeKiB: 4 }));
  await form.getByRole("button", { name: "Launch" }).click();
  await expect(page).toHaveURL(/\/runs\/[0-9a-f-]{36}$/);
  const id = page.url().split("/").pop()!;

  await expect(page.getByTestId("run-status")).toHaveText("succeeded", { timeout: 30_000 });
  // Samples reached the page over the run's event stream before it ended.
  expect(Number(await page.getByTestId("timeline-live-received").getAttribute("data-count"))).toBeGreaterThanOrEqual(1);
  await expect(page.getByTestId("timeline-panel").and(page.locator('[data-panel="device-util"]'))).toBeVisible();

  const api = bearer(await apiTokenFor("operator"));
  const run = (await (await request.get(`/api/runs/${id}`, { headers: api })).json()) as { durationMs: number; findings: unknown[] };
  expect(Array.isArray(run.findings)).toBe(true);
  const doc = (await (await request.get(`/api/runs/${id}/telemetry`, { headers: api })).json()) as { intervalSec: number; units: { device: { util: string } }; samples: Sample[] };
  expect(doc.intervalSec).toBe(1);
  expect(doc.units.device.util).toBe("%");
  const seconds = run.durationMs / 1000;
  expect(seconds).toBeGreaterThan(0);
  // One sample a second, the last one closing the final partial second: no second of the run uncovered.
  expect(doc.samples.length).toBeGreaterThanOrEqual(Math.floor(seconds));
  let previous = 0;
  for (const s of doc.samples) {
    expect(s.t - previous).toBeLessThanOrEqual(1.6);
    previous = s.t;
    expect(typeof s.cpu.iowait).toBe("number");
    expect(s.device?.name).toMatch(/^[a-z]/);
    expect(typeof s.device?.util).toBe("number");
  }
  expect(previous).toBeGreaterThanOrEqual(seconds - 1);
  // The device saw the writes.
  expect(Math.max(...doc.samples.map((s) => s.device?.wkBs ?? 0))).toBeGreaterThan(0);

  // After the end: a fresh load draws the whole timeline from the stored samples.
  await page.reload();
  await expect(page.getByTestId("run-timeline")).toHaveAttribute("data-samples", String(doc.samples.length));
  await expect(page.getByTestId("run-timeline")).toHaveAttribute("data-live", "0");
  await expect(page.locator('[data-testid="timeline-panel"][data-panel="iowait"]')).toBeVisible();
  await expect(page.locator('[data-testid="timeline-panel"][data-panel^="progress-"]')).toBeVisible();

  // The exports carry the telemetry too.
  const csv = await (await request.get(`/api/runs/${id}/export?format=csv`, { headers: api })).text();
  expect(csv).toMatch(/telemetry\.device\.util,t=[\d.]+;device=/);
  const json = (await (await request.get(`/api/runs/${id}/export?format=json`, { headers: api })).json()) as { telemetry: { samples: unknown[] } };
  expect(json.telemetry.samples).toHaveLength(doc.samples.length);
});
