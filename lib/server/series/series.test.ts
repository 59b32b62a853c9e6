// A series on real PostgreSQL: runs of one host, probe and parameters with a real dd result
// (the parser's own output for a captured dd, its throughput scaled), profile snapshots of the
// captured machine with a kernel and sysctl change mid-series, evaluated after each run.
import crypto from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { z } from "zod";
import { parseOutput, validateParams, type NormalisedResult } from "../../../probes/catalog";
import type { RunProfileSnapshot } from "../../../probes/profile/types";
import { alertSchema, seriesDetailSchema, seriesSummarySchema, windowVerdictSchema } from "../../api/schemas/series";
import type { Actor } from "../../auth/actor";
import { hashSecret } from "../../auth/secret-token";
import { db } from "../../db";
import { connectTestDatabase } from "../../testing/db";
import { seriesKey, seriesTarget } from "../../trends/series-key";
import { fixtureSnapshot, upgraded } from "../../trends/testing/fixture-profile";
import { acknowledgeAlert } from "../alerts/acknowledge-alert";
import { countOpenAlerts } from "../alerts/count-open-alerts";
import { listAlerts } from "../alerts/list-alerts";
import { compareWindows } from "./compare-windows";
import { evaluateSeries } from "./evaluate-series";
import { getSeries } from "./get-series";
import { listSeries } from "./list-series";
import { listRuns } from "../runs/list-runs";
import { listRunsQuerySchema, runJsonSchema } from "../../api/schemas/runs";
import { updateSeries } from "./update-series";
import { ingestChunks } from "../agent/ingest-chunks";
import { finishRun } from "../runs/finish-run";

connectTestDatabase();

const stderr = fs.readFileSync(path.join(__dirname, "../../../probes/dd/fixtures/dd-write-direct.stderr.txt"), "utf8");
const parsed = parseOutput("dd", stderr);
if (!parsed.ok) throw new Error("the dd fixture does not parse");
const ddResult: NormalisedResult = parsed.result;
const checked = validateParams("dd", { target: "/", sizeMiB: 256, mode: "write", blockSizeKiB: 1024, direct: true, fdatasync: false });
if (!checked.ok) throw new Error(checked.message);
const params = checked.params;

/** The real result with its throughput scaled (the other figures as measured). */
const scaled = (f: number): NormalisedResult => ({ ...ddResult, measurements: ddResult.measurements.map((m) => (m.metric === "throughput" ? { ...m, value: m.value * f } : m)) });
// Run-to-run noise of about 1.5 %, fixed so the test reads the same every time.
const NOISE = [1, 1.012, 0.988, 1.02, 0.985, 1.005, 0.993, 1.015, 0.99, 1.008];
const t0 = Date.UTC(2026, 10, 1);
const hour = 3_600_000;

async function actor(role: Actor["role"]): Promise<Actor> {
  const u = await db().user.create({ data: { email: `series-${crypto.randomUUID().slice(0, 8)}@example.com`, passwordHash: "x", role } });
  return { userId: u.id, email: u.email, role, via: "token" };
}

let before: RunProfileSnapshot;
let after: RunProfileSnapshot;
let hostId: string;
let seriesId: string;
const runIds: string[] = [];
const alertIds: string[] = [];
let openBefore: { regressions: number; improvements: number };

async function addRun(i: number, opts: { factor: number; profile: RunProfileSnapshot; status?: "SUCCEEDED" | "FAILED"; flags?: unknown[] }) {
  const run = await db().probeRun.create({
    data: {
      hostId,
      probe: "dd",
      params,
      preset: "write-direct",
      seriesId,
      status: opts.status ?? "SUCCEEDED",
      startedAt: new Date(t0 + i * hour - 60_000),
      finishedAt: new Date(t0 + i * hour),
      result: opts.status === "FAILED" ? undefined : (scaled(opts.factor) as object),
      profile: JSON.parse(JSON.stringify(opts.profile)) as object,
      flags: (opts.flags ?? []) as object[],
      scheduleId: i % 2 === 0 ? crypto.randomUUID() : null,
      notes: i === 3 ? "after the firmware update" : null,
    },
  });
  runIds.push(run.id);
  const e = await evaluateSeries({ seriesId });
  if (e.alertId) alertIds.push(e.alertId);
  return e;
}

beforeAll(async () => {
  openBefore = await countOpenAlerts();
  before = await fixtureSnapshot();
  after = upgraded(before, "6.1.0-28-amd64", { "vm.dirty_ratio": "10" });
  const owner = await actor("OPERATOR");
  const host = await db().host.create({ data: { name: `series-${crypto.randomUUID().slice(0, 6)}`, createdById: owner.userId, agentCredentialHash: hashSecret(crypto.randomUUID()) } });
  hostId = host.id;
  const s = await db().series.create({ data: { key: seriesKey({ hostId, probe: "dd", params }), hostId, probe: "dd", preset: "write-direct", params, target: seriesTarget(params) } });
  seriesId = s.id;
  // Ten runs on the old kernel, a failed and a flagged one, then ten on the new kernel 20 % slower.
  for (let i = 0; i < 10; i++) await addRun(i, { factor: NOISE[i] as number, profile: before });
  await addRun(10, { factor: 1, profile: before, status: "FAILED" });
  await addRun(11, { factor: 0.5, profile: before, flags: [{ code: "too-short", title: "Too short to measure", evidence: "1.2 s" }] });
  for (let i = 0; i < 10; i++) await addRun(12 + i, { factor: 0.8 * (NOISE[(i + 3) % 10] as number), profile: after });
}, 60_000);

describe("evaluateSeries over a series with a step", () => {
  it("raises exactly one alert, naming the kernel and the sysctl that changed", async () => {
    expect(alertIds).toHaveLength(1);
    const alerts = await db().alert.findMany({ where: { seriesId } });
    expect(alerts).toHaveLength(1);
    const a = alerts[0]!;
    expect(a.kind).toBe("REGRESSION");
    expect(a.ratio).toBeGreaterThan(0.75);
    expect(a.ratio).toBeLessThan(0.85);
    expect(a.message).toMatch(/^write throughput −\d+ % \(CI −\d+ to −\d+ %\) since kernel 6\.1\.0-25-amd64 → 6\.1\.0-28-amd64 and `vm\.dirty_ratio` 20 → 10$/);
    // The flagged and failed runs are in neither window.
    expect([...a.baselineRunIds, ...a.recentRunIds]).not.toContain(runIds[10]);
    expect([...a.baselineRunIds, ...a.recentRunIds]).not.toContain(runIds[11]);
    const series = await db().series.findUniqueOrThrow({ where: { id: seriesId } });
    expect(series.lastRunAt?.getTime()).toBe(t0 + 21 * hour);
  });

  it("evaluating again raises nothing new", async () => {
    const e = await evaluateSeries({ seriesId });
    expect(e.alertId).toBeNull();
    expect(await db().alert.count({ where: { seriesId } })).toBe(1);
  });
});

describe("the read use cases answer what the contract says", () => {
  it("listSeries", async () => {
    const list = z.array(seriesSummarySchema).parse(await listSeries({ hostId }));
    expect(list).toHaveLength(1);
    const s = list[0]!;
    expect(s).toMatchObject({ id: seriesId, probe: "dd", preset: "write-direct", target: "/", runs: 22, openAlerts: 1, windowRuns: 5, thresholdPct: 5 });
    expect(s.title).toBe("dd write-direct on /");
    expect(s.metric).toMatchObject({ noun: "write throughput", unit: "MiB/s", betterWhen: "higher" });
    expect(s.recent).toHaveLength(20);
    // Both windows are past the step now: steady at the new level.
    expect(s.trend).toBe("steady");
    expect(s.latest).toBeCloseTo(s.recent[19]!, 6);
  });

  it("getSeries: points, validity, annotations, alerts and the current windows", async () => {
    const d = seriesDetailSchema.parse(await getSeries({ id: seriesId }));
    expect(d.points).toHaveLength(22);
    expect(d.points.map((p) => p.runId)).toEqual(runIds);
    expect(d.points[10]).toMatchObject({ status: "FAILED", value: null, valid: false });
    expect(d.points[11]).toMatchObject({ status: "SUCCEEDED", valid: false, flags: ["Too short to measure"] });
    expect(d.points[3]!.notes).toBe("after the firmware update");
    expect(d.points[0]!.scheduled).toBe(true);
    expect(d.points[1]!.scheduled).toBe(false);
    expect(d.points[12]!.value! / d.points[0]!.value!).toBeCloseTo(0.8 * (NOISE[3] as number), 6);
    expect(d.annotations).toEqual([
      {
        runId: runIds[12],
        at: new Date(t0 + 12 * hour).toISOString(),
        changes: [
          { field: "kernel", label: "kernel", from: "6.1.0-25-amd64", to: "6.1.0-28-amd64" },
          { field: "sysctl.vm.dirty_ratio", label: "`vm.dirty_ratio`", from: "20", to: "10" },
        ],
      },
    ]);
    expect(d.alerts).toHaveLength(1);
    expect(d.alerts[0]).toMatchObject({ kind: "regression", noun: "write throughput", unit: "MiB/s", seriesTitle: "dd write-direct on /" });
    expect(d.metrics.map((m) => m.noun)).toEqual(["write throughput"]);
    expect(d.current).not.toBeNull();
    expect(d.current!.recentRunIds).toEqual(runIds.slice(17));
    expect(d.current!.changes).toEqual([]);
    expect(await getSeries({ id: crypto.randomUUID() })).toBeNull();
  });

  it("compareWindows: the two kernels' days, with the changes between them", async () => {
    const v = windowVerdictSchema.parse(
      await compareWindows({ id: seriesId, a: { from: new Date(t0), to: new Date(t0 + 11 * hour) }, b: { from: new Date(t0 + 12 * hour), to: new Date(t0 + 30 * hour) } }),
    );
    expect(v.state).toBe("decided");
    expect(v.baselineRunIds).toHaveLength(10);
    expect(v.recentRunIds).toHaveLength(10);
    expect(v.ratio).toBeGreaterThan(0.78);
    expect(v.ratio).toBeLessThan(0.82);
    expect(v.changes.map((c) => c.field)).toEqual(["kernel", "sysctl.vm.dirty_ratio"]);
    expect(v.sentence).toMatch(/lower write throughput than the runs of 2026-11-01/);
    await expect(compareWindows({ id: seriesId, a: { from: new Date(t0 + hour), to: new Date(t0) }, b: { from: new Date(t0), to: new Date(t0) } })).rejects.toThrow(/a\.from must not be after a\.to/);
    await expect(compareWindows({ id: crypto.randomUUID(), a: { from: new Date(t0), to: new Date(t0) }, b: { from: new Date(t0), to: new Date(t0) } })).rejects.toThrow(/No series/);
  });

  it("listAlerts, acknowledgeAlert and countOpenAlerts", async () => {
    const open = z.array(alertSchema).parse(await listAlerts({ state: "open", kind: "all", hostId }));
    expect(open.map((a) => a.id)).toEqual(alertIds);
    expect(await listAlerts({ state: "open", kind: "improvement", hostId })).toEqual([]);
    expect((await countOpenAlerts()).regressions).toBe(openBefore.regressions + 1);
    const viewer = await actor("VIEWER");
    await expect(acknowledgeAlert({ id: alertIds[0]!, actor: viewer })).rejects.toThrow(/operator/);
    const op = await actor("OPERATOR");
    const acked = alertSchema.parse(await acknowledgeAlert({ id: alertIds[0]!, actor: op }));
    expect(acked.acknowledgedAt).not.toBeNull();
    const again = await acknowledgeAlert({ id: alertIds[0]!, actor: op });
    expect(again.acknowledgedAt).toBe(acked.acknowledgedAt);
    expect(await listAlerts({ state: "open", kind: "all", hostId })).toEqual([]);
    expect((await listAlerts({ state: "acknowledged", kind: "regression", hostId })).map((a) => a.id)).toEqual(alertIds);
    expect(await countOpenAlerts()).toEqual(openBefore);
    expect(await db().auditEvent.count({ where: { action: "alert.acknowledge", targetId: alertIds[0] } })).toBe(1);
  });

  it("updateSeries: operators only, a metric the runs have, audited", async () => {
    const viewer = await actor("VIEWER");
    await expect(updateSeries({ id: seriesId, input: { windowRuns: 3 }, actor: viewer })).rejects.toThrow(/operator/);
    const op = await actor("OPERATOR");
    await expect(updateSeries({ id: seriesId, input: { metricKey: "nope|" }, actor: op })).rejects.toThrow(/metricKey is not a headline figure/);
    const d = seriesDetailSchema.parse(await updateSeries({ id: seriesId, input: { windowRuns: 3, thresholdPct: 10 }, actor: op }));
    expect(d).toMatchObject({ windowRuns: 3, thresholdPct: 10 });
    expect(d.current!.recentRunIds).toEqual(runIds.slice(19));
    // 3 runs per window reach 90 % at most: the verdict says so.
    expect(d.current!.confidence).toBeCloseTo(0.9, 6);
    expect(await db().auditEvent.count({ where: { action: "series.update", targetId: seriesId } })).toBe(1);
  });
});

describe("the runs list at a glance", () => {
  it("each run's headline figure, unit and preset", async () => {
    const { runs } = await listRuns(listRunsQuerySchema.parse({ hostId, sort: "createdAt", order: "asc", pageSize: 50 }));
    z.array(runJsonSchema.strict()).parse(runs);
    const byId = new Map(runs.map((r) => [r.id, r]));
    const first = byId.get(runIds[0]!)!;
    expect(first.preset).toBe("write-direct");
    expect(first.headline).toMatchObject({ unit: "MiB/s", noun: "write throughput" });
    // The dd fixture's own figure: 268435456 bytes in 0.124192 s.
    expect(first.headline!.value).toBeCloseTo(268435456 / 0.124192 / 2 ** 20, -1);
    expect(byId.get(runIds[10]!)!.headline).toBeNull();
  });
});

describe("finishRun evaluates the run's series", () => {
  it("a run of a series that ends moves the series' last run time; a run of no series is left alone", async () => {
    const credential = crypto.randomUUID();
    const host = await db().host.create({ data: { name: `series-finish-${crypto.randomUUID().slice(0, 6)}`, agentCredentialHash: hashSecret(credential) } });
    const s = await db().series.create({ data: { key: seriesKey({ hostId: host.id, probe: "dd", params }), hostId: host.id, probe: "dd", params, target: "/" } });
    const run = await db().probeRun.create({ data: { hostId: host.id, probe: "dd", params, seriesId: s.id, status: "RUNNING", startedAt: new Date(), lastActivityAt: new Date() } });
    await ingestChunks({ credentialHash: hashSecret(credential), runId: run.id, chunks: [{ seq: 0, data: stderr }] });
    const profile = JSON.parse(JSON.stringify(before)) as Record<string, unknown>;
    const { status } = await finishRun({ runId: run.id, finish: { exitCode: 0, signal: null, error: null, cancelled: false, timedOut: false, interrupted: false, setup: null, durationMs: 9000, lastSeq: 0, profile } });
    expect(status).toBe("SUCCEEDED");
    const [ended, series] = await Promise.all([db().probeRun.findUniqueOrThrow({ where: { id: run.id } }), db().series.findUniqueOrThrow({ where: { id: s.id } })]);
    expect(series.lastRunAt?.toISOString()).toBe(ended.finishedAt?.toISOString());
    const detail = seriesDetailSchema.parse(await getSeries({ id: s.id }));
    expect(detail.points).toHaveLength(1);
    expect(detail.points[0]!.value).toBeCloseTo(268435456 / 0.124192 / 2 ** 20, -1);
  });
});
