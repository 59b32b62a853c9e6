import crypto from "node:crypto";
import type { Prisma } from "@prisma/client";
import { describe, expect, it } from "vitest";
import { fixture } from "../../../probes/core/testing";
import type { Capabilities } from "../../../probes/protocol/schemas";
import { createExperimentSchema, experimentResponseSchema } from "../../api/schemas/experiments";
import { sweepViewSchema } from "../../api/schemas/sweeps";
import { generateSecret, hashSecret } from "../../auth/secret-token";
import { db } from "../../db";
import { connectTestDatabase } from "../../testing/db";
import { claimJob } from "../agent/claim-job";
import { cancelExperiment } from "../experiments/cancel-experiment";
import { createExperiment } from "../experiments/create-experiment";
import { experimentCsv, experimentExportJson } from "../experiments/export-experiment";
import { experimentApiJson } from "../experiments/get-experiment";
import { shareExperiment } from "../experiments/share-experiment";
import { snapshotSchema } from "../comparisons/snapshot";
import { listExperiments } from "../experiments/list-experiments";
import { finishRun } from "../runs/finish-run";
import { getSweepView } from "./get-sweep";

connectTestDatabase();

const fio = { installed: true, version: "3.33", path: "/usr/bin/fio" };
const caps: Capabilities = { agentVersion: "1", tools: { fio }, allowedDirs: ["/srv/pb"], lab: null, tunables: { allowed: [], dropCaches: false, current: [] } } as unknown as Capabilities;

async function host() {
  const credentialHash = hashSecret(generateSecret("pba"));
  const h = await db().host.create({ data: { name: `sweep-${crypto.randomUUID().slice(0, 8)}`, agentCredentialHash: credentialHash, capabilities: caps as unknown as Prisma.InputJsonValue } });
  return { ...h, credentialHash };
}

const params = { target: "/srv/pb", rw: "randread", ioengine: "libaio", runtimeSec: 5, sizeMiB: 32 };
const steadyState = { metric: "iops", limitPercent: 20, windowSec: 2, rampSec: 1 };
const body = (hostId: string, sweep: Record<string, unknown> = {}) => createExperimentSchema.parse({ hostId, kind: "sweep", probe: "fio", params, sweep: { iodepths: [1, 4], numjobs: [1, 2], steadyState, ...sweep } });

/**
 * fio 3.33's JSON of a steady-state randread (probes/fio/fixtures), its IOPS and percentiles set
 * to a curve: IOPS = `iops`, every completion-latency percentile scaled so p99 = `p99Ns`, and its
 * runtime 6 s (the fixture's 3.6 s is below the 5 s every run check asks of a measurement).
 */
function fioOutput(iops: number, p99Ns: number, attained: boolean): string {
  const json = JSON.parse(fixture("fio", "fio-3.33-steadystate.json")) as { jobs: Record<string, unknown>[] };
  const job = json.jobs[0]! as { read: { iops: number; runtime: number; clat_ns: { percentile: Record<string, number> } }; steadystate: { attained: number } };
  const scale = p99Ns / job.read.clat_ns.percentile["99.000000"]!;
  job.read.iops = iops;
  job.read.runtime = 6000;
  for (const k of Object.keys(job.read.clat_ns.percentile)) job.read.clat_ns.percentile[k] = Math.round(job.read.clat_ns.percentile[k]! * scale);
  job.steadystate.attained = attained ? 1 : 0;
  return JSON.stringify(json);
}

/** Plays the agent for the host's next job, answering by the point's (iodepth, numjobs). */
async function runNext(h: { credentialHash: string }, answer: (p: { iodepth: number; numjobs: number }) => string | null) {
  const outcome = await claimJob({ credentialHash: h.credentialHash, waitSec: 0 });
  const job = outcome && "job" in outcome ? outcome.job : null;
  if (!job) return null;
  const p = job.params as { iodepth: number; numjobs: number };
  const out = answer(p);
  if (out !== null) await db().runLogChunk.create({ data: { runId: job.id, seq: 0, data: out } });
  await finishRun({ runId: job.id, finish: { exitCode: out === null ? 1 : 0, signal: null, durationMs: 4000, lastSeq: out === null ? -1 : 0, error: out === null ? "fio exited with 1" : null, cancelled: false, timedOut: false, interrupted: false, profile: null, setup: null } });
  return { id: job.id, ...p };
}

describe("sweeps", () => {
  it("queues every point once in the interleaved order and reads them back as a SweepView", async () => {
    const h = await host();
    const { id } = await createExperiment({ input: body(h.id), createdById: null });
    const runs = await db().probeRun.findMany({ where: { experimentId: id }, orderBy: { createdAt: "asc" }, select: { params: true, armIndex: true } });
    // Grid order (1×1, 1×2, 4×1, 4×2) by load 1, 2, 4, 8 → bit-reversed ranks 0, 2, 1, 3.
    expect(runs.map((r) => [(r.params as { iodepth: number }).iodepth, (r.params as { numjobs: number }).numjobs])).toEqual([[1, 1], [4, 1], [1, 2], [4, 2]]);
    expect(runs.every((r) => (r.params as { steadyState?: unknown }).steadyState !== undefined)).toBe(true);

    const pending = await getSweepView(id);
    expect(pending?.points.map((p) => [p.iodepth, p.numjobs, p.order, p.status])).toEqual([[1, 1, 0, "pending"], [1, 2, 2, "pending"], [4, 1, 1, "pending"], [4, 2, 3, "pending"]]);
    expect(pending?.saturation).toBeNull();

    // A curve that saturates at QD 1 × 2 jobs (load 2): load 4 gains 2 % IOPS at 3 × the p99.
    const curve: Record<string, [number, number]> = { "1x1": [20_000, 100_000], "1x2": [40_000, 150_000], "4x1": [40_800, 450_000], "4x2": [41_000, 900_000] };
    const answer = (p: { iodepth: number; numjobs: number }) => fioOutput(...curve[`${p.iodepth}x${p.numjobs}`]!, p.iodepth * p.numjobs !== 8);
    for (let i = 0; i < 4; i++) expect(await runNext(h, answer)).not.toBeNull();

    const v = await getSweepView(id);
    expect(sweepViewSchema.parse(v)).toBeTruthy();
    expect(v).toMatchObject({ status: "FINISHED", fioVersion: "fio-3.33", hostLabel: h.name, target: "/srv/pb", grid: { iodepths: [1, 4], numjobs: [1, 2], blockSizesKiB: [4] } });
    expect(v?.workload).toEqual({ rw: "randread", rwmixread: null, ioengine: "libaio", direct: true, sizeMiB: 32, pointRuntimeSec: 5, steadyState });
    const one = v!.points[0]!;
    expect(one).toMatchObject({ iodepth: 1, numjobs: 1, status: "done", iops: 20_000, latP99Ns: 100_000, runtimeSec: 6, steady: { enabled: true, reached: true, afterSec: 6 } });
    expect(one.latP50Ns).toBeLessThan(one.latP99Ns!);
    expect(one.latP999Ns).toBeGreaterThanOrEqual(one.latP99Ns!);
    expect(one.bandwidthBps).toBeGreaterThan(0);
    expect(v!.points[3]!.steady).toEqual({ enabled: true, reached: false, afterSec: null });
    expect(v?.saturation?.point).toEqual({ iodepth: 1, numjobs: 2, blockSizeKiB: 4 });
    expect(v?.saturation?.sentence).toBe("This device saturates at QD 1 × 2 jobs: 40 k IOPS at p99 150 µs.");

    // The API's answer carries the view, declared in its schema; the list names the kind.
    const api = experimentResponseSchema.parse(await experimentApiJson(id));
    expect(api.kind).toBe("sweep");
    expect(api.sweep?.points).toHaveLength(4);
    expect((await listExperiments({ hostId: h.id }))[0]?.kind).toBe("sweep");
    expect(await getSweepView(id, { hideHost: true })).toMatchObject({ hostLabel: null, target: null });

    const csv = (await experimentCsv({ id })).trim().split("\r\n");
    expect(csv).toHaveLength(5);
    expect(csv[0]).toMatch(/^iodepth,numjobs,block_size_kib,order,status,iops,/);
    expect(csv[1]).toMatch(/^1,1,4,1,done,20000,/);
    expect(await experimentExportJson({ id })).toMatchObject({ kind: "sweep", experimentId: id, points: expect.any(Array) });

    // A share carries the view without the host's name or the target unless the sharer chose them.
    const { slug } = await shareExperiment({ id, createdById: null });
    const shared = snapshotSchema.parse((await db().comparison.findUniqueOrThrow({ where: { slug }, select: { snapshot: true } })).snapshot).experiment?.sweep;
    expect(shared).toMatchObject({ hostLabel: null, target: null, saturation: { sentence: v!.saturation!.sentence } });
    expect(JSON.stringify(shared)).not.toContain(h.name);
    const chosen = await shareExperiment({ id, createdById: null, include: { hostnames: true, paths: true, kernel: true, models: false } });
    const open = snapshotSchema.parse((await db().comparison.findUniqueOrThrow({ where: { slug: chosen.slug }, select: { snapshot: true } })).snapshot).experiment?.sweep;
    expect(open).toMatchObject({ hostLabel: h.name, target: "/srv/pb" });
  });

  it("a flagged run makes its point invalid and out of the saturation; a failed point does not fail the sweep", async () => {
    const h = await host();
    const { id } = await createExperiment({ input: body(h.id, { iodepths: [1, 4], numjobs: [1] }), createdById: null });
    const first = await runNext(h, () => fioOutput(20_000, 100_000, true));
    await db().probeRun.update({ where: { id: first!.id }, data: { flags: [{ code: "cpu-busy", title: "Another process used the CPU", evidence: "x" }] } });
    await runNext(h, () => null);
    const v = await getSweepView(id);
    // A flagged run still succeeded: the sweep finished, with no point to draw a saturation from.
    expect(v?.status).toBe("FINISHED");
    const byQd = new Map(v!.points.map((p) => [p.iodepth, p]));
    expect(byQd.get(first!.iodepth)).toMatchObject({ status: "invalid", problem: "Another process used the CPU" });
    expect(byQd.get(first!.iodepth === 1 ? 4 : 1)).toMatchObject({ status: "failed", iops: null });
    expect(v?.saturation?.point).toBeNull();
    expect(v?.saturation?.sentence).toMatch(/^Not enough finished points: .* none has finished without a flag\.$/);
  });

  it("cancels like any experiment, and is no sweep for the A/B reader", async () => {
    const h = await host();
    const { id } = await createExperiment({ input: body(h.id), createdById: null });
    await cancelExperiment({ id });
    const v = await getSweepView(id);
    expect(v?.status).toBe("CANCELLED");
    expect(v?.points.every((p) => p.status === "cancelled" && p.problem !== null)).toBe(true);
    expect(await getSweepView(crypto.randomUUID())).toBeNull();
    expect(await getSweepView("not-a-uuid")).toBeNull();
  });

  it("refuses a point the fio probe refuses, naming the field, and queues nothing", async () => {
    const h = await host();
    const err = await createExperiment({ input: createExperimentSchema.parse({ hostId: h.id, kind: "sweep", probe: "fio", params: { ...params, target: "/elsewhere" }, sweep: { iodepths: [1], numjobs: [1] } }), createdById: null }).catch((e: unknown) => e);
    expect(err).toMatchObject({ code: "BAD_REQUEST", fieldErrors: { "params.target": [expect.stringMatching(/outside the directories/)] } });
    const err2 = await createExperiment({ input: body(h.id, { steadyState: { metric: "iops", limitPercent: 5, windowSec: 5, rampSec: 2 } }), createdById: null }).catch((e: unknown) => e);
    expect((err2 as { fieldErrors: Record<string, string[]> }).fieldErrors["sweep.steadyState.windowSec"]?.[0]).toMatch(/must fit within runtimeSec \(5 s\)/);
    expect(await db().probeRun.count({ where: { hostId: h.id } })).toBe(0);
  });
});
