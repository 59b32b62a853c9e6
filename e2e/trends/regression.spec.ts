// "Is this host getting slower, and why?" end to end, on a real agent and a real slow-down: a
// schedule fires a direct-I/O fio write every minute, its runs form one series, a blkio write
// throttle is put on the agent (and so on every probe it starts) between the two windows, and
// the series' regression alert fires once, says the host profile shows no change (a cgroup
// throttle is not in the profile), and reaches a local receiver as a signed webhook.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import type { APIRequestContext } from "@playwright/test";
import { startAgent, type AgentHandle } from "../agent/agent-process";
import { expect, test } from "../fixtures";
import { apiTokenFor, bearer } from "../helpers";
import { createThrottle, throttleSupport, type BlkioThrottle } from "./blkio-throttle";
import { startWebhookReceiver, verifySignature, type WebhookReceiver } from "./webhook-receiver";

const root = path.resolve(__dirname, "..", "..");
const MIB = 1024 * 1024;
/** The throttle, as a share of the slowest baseline run: a slow-down no noise can hide. */
const THROTTLE_SHARE = 0.4;
const WINDOW = 3;

/**
 * Sequential 1 MiB writes with O_DIRECT for 7 s: direct, so the cgroup v1 throttle applies (it
 * cannot see buffered write-back), and past the checks' 5 s minimum, so every run counts. One
 * job per CPU: the run checks do not judge CPU contention for a probe that may use every CPU,
 * and on a shared test machine other work keeps the CPUs busy (a single-job run there is
 * flagged "the CPUs were busy with other work" and enters no window).
 */
const params = (target: string) => ({ target, rw: "write", blockSizeKiB: 1024, sizeMiB: 256, runtimeSec: 7, direct: true, ioengine: "psync", numjobs: Math.min(64, os.cpus().length) });

/** A series value in bytes per second, from its metric's unit. */
function bytesPerSecond(value: number, unit: string): number {
  const factor: Record<string, number> = { "B/s": 1, "KiB/s": 1024, "MiB/s": MIB, "GiB/s": 1024 * MIB, "kB/s": 1e3, "MB/s": 1e6, "GB/s": 1e9 };
  const f = factor[unit];
  if (f === undefined) throw new Error(`the series follows ${unit}, not a throughput`);
  return value * f;
}

// On the project's disk, as the agent's own scratch directories are (not /tmp, which may be tmpfs).
fs.mkdirSync(path.join(root, ".data"), { recursive: true });
const scratch = fs.mkdtempSync(path.join(root, ".data", "e2e-trends-"));
const support = throttleSupport(scratch);

let agent: AgentHandle | null = null;
let throttle: BlkioThrottle | null = null;
let receiver: WebhookReceiver | null = null;
let scheduleId = "";
let token = "";

interface SeriesPoint {
  runId: string;
  at: string;
  status: string;
  value: number | null;
  valid: boolean;
  flags: string[];
  scheduled: boolean;
}
interface Alert {
  id: string;
  seriesId: string;
  kind: string;
  ratio: number;
  ciLow: number;
  ciHigh: number;
  baselineRunIds: string[];
  recentRunIds: string[];
  changes: unknown[];
  message: string;
}
interface SeriesDetail {
  id: string;
  metric: { key: string; noun: string; unit: string } | null;
  windowRuns: number;
  thresholdPct: number;
  points: SeriesPoint[];
  alerts: Alert[];
}

/** A list answer, whether a bare array or wrapped in one field. */
function listOf<T>(body: unknown, field: string): T[] {
  if (Array.isArray(body)) return body as T[];
  return ((body as Record<string, unknown>)[field] ?? []) as T[];
}

async function getJson<T>(request: APIRequestContext, url: string): Promise<T> {
  const res = await request.get(url, { headers: bearer(token) });
  expect(res.status(), `${url}: ${await res.text()}`).toBe(200);
  return (await res.json()) as T;
}

const seriesDetail = (request: APIRequestContext, id: string) => getJson<SeriesDetail>(request, `/api/series/${id}`);
/** The valid runs, oldest first: only they enter the windows. */
const validPoints = (s: SeriesDetail) => s.points.filter((p) => p.valid).sort((a, b) => Date.parse(a.at) - Date.parse(b.at));
const regressions = async (request: APIRequestContext, hostId: string) =>
  listOf<Alert>(await getJson<unknown>(request, `/api/alerts?hostId=${hostId}&state=all&kind=all`), "alerts").filter((a) => a.kind === "regression");

test.describe.configure({ mode: "serial" });

test.afterAll(async ({ request }) => {
  if (scheduleId) {
    await request.patch(`/api/schedules/${scheduleId}`, { headers: bearer(token), data: { paused: true } });
    await request.delete(`/api/schedules/${scheduleId}`, { headers: bearer(token) });
  }
  // The agent leaves the cgroup before it goes, so no limit outlives the test.
  throttle?.remove();
  await agent?.stop();
  await receiver?.close();
  for (const dir of [scratch, agent?.stateDir]) if (dir) fs.rmSync(dir, { recursive: true, force: true });
});

test("a scheduled series slowed by a blkio throttle raises one regression alert, with no profile change, and a signed webhook", async ({ request, baseURL }) => {
  test.skip(!support.ok, support.ok ? "" : `no way to slow the disk down here: ${support.reason}`);
  if (!support.ok) return;
  test.setTimeout(12 * 60_000);
  const started = Date.now();
  // The run's figures, in the report and on the console: what the throttle did is the evidence.
  const note = (type: string, description: string) => {
    test.info().annotations.push({ type, description });
    console.log(`[trends] ${type}: ${description}`);
  };

  token = await apiTokenFor("admin");
  receiver = await startWebhookReceiver();
  const hook = await request.post("/api/admin/webhooks", { headers: bearer(token), data: { name: `e2e-trends-${Date.now()}`, url: receiver.url, format: "json" } });
  expect(hook.status(), await hook.text()).toBe(201);
  const { secret } = (await hook.json()) as { id: string; secret: string };
  expect(secret.length).toBeGreaterThan(0);

  // A real agent allowed the scratch directory, in its own blkio cgroup from the start (no limit
  // yet): every probe it starts is born inside, so the limit applies from the next run on.
  const host = await request.post("/api/hosts", { headers: bearer(token), data: { name: `e2e-trends-${Date.now()}` } });
  expect(host.status()).toBe(201);
  const { id: hostId, registrationToken } = (await host.json()) as { id: string; registrationToken: string };
  agent = startAgent({ server: baseURL!, token: registrationToken, allow: [scratch], scratch });
  await expect.poll(() => agent!.output(), { timeout: 20_000 }).toContain("registered as host");
  throttle = createThrottle(support, "trends");
  throttle.adopt(agent.child.pid!);

  const created = await request.post("/api/schedules", {
    headers: bearer(token),
    data: { name: `e2e regression ${Date.now()}`, hostIds: [hostId], kind: "run", probe: "fio", params: params(scratch), cron: "* * * * *", skipIfBusy: true },
  });
  expect(created.status(), await created.text()).toBe(201);
  scheduleId = ((await created.json()) as { id: string }).id;

  // The first firing's run creates the series; windows of 3 keep the test to minutes.
  let seriesId = "";
  await expect
    .poll(async () => (seriesId = listOf<{ id: string }>(await getJson<unknown>(request, `/api/series?hostId=${hostId}`), "series")[0]?.id ?? ""), { timeout: 90_000, intervals: [2000] })
    .not.toBe("");
  const patched = await request.patch(`/api/series/${seriesId}`, { headers: bearer(token), data: { windowRuns: WINDOW } });
  expect(patched.status(), await patched.text()).toBe(200);

  // Window one: the disk as it is.
  await expect.poll(async () => validPoints(await seriesDetail(request, seriesId)).length, { timeout: 4 * 60_000, intervals: [3000] }).toBeGreaterThanOrEqual(WINDOW);
  const first = await seriesDetail(request, seriesId);
  expect(first.metric?.key, "the series follows fio's write bandwidth").toMatch(/bw/);
  const unit = first.metric!.unit;
  const before = validPoints(first);
  const baseline = before.map((p) => p.value!);
  // Below the slowest baseline run: every pair of runs across the windows then shows the drop,
  // which is what the distribution-free interval of 3 against 3 runs needs to decide.
  const limit = THROTTLE_SHARE * bytesPerSecond(Math.min(...baseline), unit);
  throttle.limitWrites(limit);
  note("baseline", `${baseline.map((v) => v.toFixed(0)).join(", ")} ${unit}`);
  note("throttle", `${(limit / MIB).toFixed(0)} MiB/s on ${throttle.device}, ${((Date.now() - started) / 1000).toFixed(0)} s in`);

  // Window two: the same schedule under the limit; the alert comes with its last run.
  await expect.poll(async () => (await regressions(request, hostId)).length, { timeout: 4 * 60_000, intervals: [3000] }).toBeGreaterThan(0);
  const series = await seriesDetail(request, seriesId);
  const valid = validPoints(series);
  const after = valid.slice(before.length).map((p) => p.value!);
  note("throttled", `${after.map((v) => v.toFixed(0)).join(", ")} ${unit}`);
  expect(after.length).toBeGreaterThanOrEqual(WINDOW);
  for (const v of after) expect(v).toBeLessThan(Math.min(...baseline) * 0.5);

  // Every run the schedule queued is a point of this one series, and each was scheduled.
  const schedule = await getJson<{ firings: { runId: string | null; outcome: string }[] }>(request, `/api/schedules/${scheduleId}`);
  const runIds = schedule.firings.filter((f) => f.runId).map((f) => f.runId!);
  expect(runIds.length).toBeGreaterThanOrEqual(2 * WINDOW);
  const pointIds = new Set(series.points.map((p) => p.runId));
  for (const id of runIds) expect(pointIds.has(id), `run ${id} of the schedule is in series ${seriesId}`).toBe(true);
  expect(series.points.every((p) => p.scheduled)).toBe(true);
  expect(listOf<{ id: string }>(await getJson<unknown>(request, `/api/series?hostId=${hostId}`), "series").map((s) => s.id)).toEqual([seriesId]);

  const alerts = await regressions(request, hostId);
  expect(alerts).toHaveLength(1);
  const alert = alerts[0]!;
  note("alert", `ratio ${alert.ratio.toFixed(3)} [${alert.ciLow.toFixed(3)}, ${alert.ciHigh.toFixed(3)}]: ${alert.message}`);
  expect(alert.seriesId).toBe(seriesId);
  expect(alert.baselineRunIds).toEqual(before.slice(-WINDOW).map((p) => p.runId));
  expect(alert.recentRunIds).toEqual(valid.slice(before.length, before.length + WINDOW).map((p) => p.runId));
  const bar = 1 - series.thresholdPct / 100;
  expect(alert.ratio).toBeLessThan(bar);
  expect(alert.ciHigh).toBeLessThan(bar);
  expect(alert.ciLow).toBeLessThanOrEqual(alert.ratio);
  // A cgroup throttle is nowhere in the host profile: the alert must say no change was seen.
  expect(alert.changes).toEqual([]);
  expect(alert.message).toMatch(/no change in the host profile was seen/);

  // The receiver got the alert once, signed with the target's secret.
  await expect.poll(() => receiver!.requests.length, { timeout: 60_000 }).toBeGreaterThan(0);
  expect(receiver.requests).toHaveLength(1);
  const delivery = receiver.requests[0]!;
  expect(delivery.method).toBe("POST");
  expect(delivery.headers["content-type"]).toMatch(/^application\/json/);
  expect(verifySignature(delivery, secret), "X-Probebook-Signature verifies with the target's secret").toBe(true);
  expect(verifySignature(delivery, `${secret}x`)).toBe(false);
  const timestamp = Number(delivery.headers["x-probebook-timestamp"]);
  expect(Math.abs(timestamp - Date.now() / 1000)).toBeLessThan(600);
  const payload = JSON.parse(delivery.rawBody.toString("utf8")) as { event?: string; alert?: { id?: string } };
  expect(payload.event ?? delivery.headers["x-probebook-event"]).toBe("alert.regression");
  expect(delivery.rawBody.toString("utf8")).toContain(alert.id);

  // Once: a further throttled run keeps the windows apart, and still one alert, one delivery.
  const count = valid.length;
  await expect.poll(async () => validPoints(await seriesDetail(request, seriesId)).length, { timeout: 2 * 60_000, intervals: [3000] }).toBeGreaterThan(count);
  expect(await regressions(request, hostId)).toHaveLength(1);
  expect(receiver.requests).toHaveLength(1);
  note("took", `${((Date.now() - started) / 1000).toFixed(0)} s`);
});
