import crypto from "node:crypto";
import type { Prisma } from "@prisma/client";
import { describe, expect, it } from "vitest";
import type { Capabilities, SetupReport } from "../../../probes/protocol/schemas";
import { generateSecret, hashSecret } from "../../auth/secret-token";
import { db } from "../../db";
import { connectTestDatabase } from "../../testing/db";
import { claimJob } from "../agent/claim-job";
import { finishRun } from "../runs/finish-run";
import { cancelExperiment } from "./cancel-experiment";
import { createExperiment, labImageBytesFor } from "./create-experiment";
import { readPolicy } from "./arm-plan";
import { experimentJson, getExperiment } from "./get-experiment";
import { jobSetupForRun } from "./job-setup";
import { listExperiments } from "./list-experiments";
import { createExperimentSchema, experimentResponseSchema } from "../../api/schemas/experiments";

connectTestDatabase();

const tool = { installed: true, version: "9.1", path: "/usr/bin/dd" };
const caps = (over: Partial<Capabilities> = {}): Capabilities => ({
  agentVersion: "1",
  tools: { dd: tool, iozone: tool, fio: tool, sar: tool },
  allowedDirs: ["/srv/pb"],
  lab: { dir: "/srv/lab", fileSystems: ["ext2", "ext3", "ext4", "xfs"], freeBytes: 20 * 2 ** 30 },
  tunables: { allowed: ["vm.dirty_ratio", "vm.dirty_background_ratio"], dropCaches: false, current: [{ name: "vm.dirty_ratio", device: null, value: "20", changedFrom: null }] },
  ...over,
});

/** Each test host's agent credential hash, for claims. */
const credentialOf = new Map<string, string>();

async function host(c: Capabilities | null = caps()) {
  const credentialHash = hashSecret(generateSecret("pba"));
  const h = await db().host.create({
    data: { name: `exp-${crypto.randomUUID().slice(0, 8)}`, agentCredentialHash: credentialHash, capabilities: (c ?? undefined) as Prisma.InputJsonValue | undefined },
  });
  credentialOf.set(h.id, credentialHash);
  return h;
}

const ddParams = { sizeMiB: 16, blockSizeKiB: 1024, mode: "write", direct: true, fdatasync: true };
const body = (hostId: string, arms: unknown[], repeats: Record<string, unknown> = { min: 3, max: 3 }, params: Record<string, unknown> = ddParams) =>
  createExperimentSchema.parse({ hostId, probe: "dd", params, arms, repeats: { warmup: false, ...repeats } });

/**
 * dd's summary line for a run whose speed is that of 16 MiB in `seconds`: 960 MiB in 60 × that,
 * so every run lasts over 5 s (shorter ones are flagged and left out of the verdict).
 */
const ddOutput = (seconds: number) => {
  const s = (seconds * 60).toFixed(3);
  return `960+0 records in\n960+0 records out\n1006632960 bytes (1.0 GB, 960 MiB) copied, ${s} s, ${(1006.63296 / Number(s)).toFixed(0)} MB/s\n`;
};

/** The job a claim hands out (these hosts have no pending requests), or null. */
async function claimedJob(hostId: string) {
  const outcome = await claimJob({ credentialHash: credentialOf.get(hostId)!, waitSec: 0 });
  return outcome && "job" in outcome ? outcome.job : null;
}

/** Plays the agent: claims the host's next job, stores its output and finishes it. */
async function runNext(hostId: string, seconds: (armIndex: number) => number, setup?: (armIndex: number) => SetupReport | null) {
  const job = await claimedJob(hostId);
  if (!job) return null;
  await db().runLogChunk.create({ data: { runId: job.id, seq: 0, data: ddOutput(seconds(job.arm_index ?? 0)) } });
  await finishRun({ runId: job.id, finish: { exitCode: 0, signal: null, durationMs: 100, lastSeq: 0, error: null, cancelled: false, timedOut: false, interrupted: false, profile: null, setup: setup?.(job.arm_index ?? 0) ?? null } });
  return job;
}

const labReport = (fs: string): SetupReport => ({
  lab: { fsType: fs, mkfsCommand: `mkfs.${fs} -F -q image`, mountOptions: ["rw", "relatime"], loopDevice: "/dev/loop7", driver: fs === "ext3" ? "ext4" : fs, imageBytes: labImageBytesFor(16 * 2 ** 20), removed: true },
  tunables: [],
  droppedCaches: false,
  error: null,
});

describe("experiments", () => {
  it("refuses arms the host's agent cannot run, with field errors and nothing queued", async () => {
    const h = await host(caps({ lab: null, tunables: { allowed: ["vm.dirty_ratio"], dropCaches: false, current: [] } }));
    const err = await createExperiment({ input: body(h.id, [{ fs: "ext4" }, { tunables: { "vm.swappiness": 10 } }, { tunables: { "queue/scheduler": "bfq" } }]), createdById: null }).catch((e: unknown) => e);
    expect(err).toMatchObject({ code: "BAD_REQUEST" });
    const fields = (err as { fieldErrors: Record<string, string[]> }).fieldErrors;
    expect(fields["arms.0.fs"]?.[0]).toMatch(/--lab DIR/);
    expect(fields["arms.1.tunables.vm.swappiness"]?.[0]).toMatch(/--allow-tunable vm.dirty_ratio,vm.swappiness/);
    expect(fields["arms.2.tunables.queue/scheduler"]?.[0]).toMatch(/--allow-tunable vm.dirty_ratio,queue\/scheduler/);
    expect(await db().probeRun.count({ where: { hostId: h.id } })).toBe(0);
    expect(await db().experiment.count({ where: { hostId: h.id } })).toBe(0);

    const small = await host(caps({ lab: { dir: "/srv/lab", fileSystems: ["ext4"], freeBytes: 100 * 2 ** 20 } }));
    const e2 = await createExperiment({ input: body(small.id, [{ fs: "ext4" }, { fs: "xfs" }]), createdById: null }).catch((e: unknown) => e);
    const f2 = (e2 as { fieldErrors: Record<string, string[]> }).fieldErrors;
    expect(f2["arms.1.fs"]?.[0]).toMatch(/mkfs for xfs is not installed/);
    expect(f2.arms?.[0]).toMatch(/needs a 320 MiB image .* has 100 MiB free/);
    expect(createExperimentSchema.safeParse({ hostId: h.id, probe: "dd", params: ddParams, arms: [{ fs: "ext4" }] }).success).toBe(false);
  });

  it("sizes lab images at four times what the probe writes, and each must fit the lab's free space", async () => {
    const h = await host(caps({ lab: { dir: "/srv/lab", fileSystems: ["ext4", "xfs"], freeBytes: 2 * 2 ** 30 } }));
    const big = { ...ddParams, sizeMiB: 512 };
    const err = await createExperiment({ input: body(h.id, [{ fs: "ext4" }, { fs: "xfs" }], { min: 3, max: 3 }, big), createdById: null }).catch((e: unknown) => e);
    // 4 × 512 MiB + 128 MiB for metadata = 2176 MiB; with the agent's 64 MiB margin 2240 MiB, against 2048 MiB free.
    expect((err as { fieldErrors: Record<string, string[]> }).fieldErrors.arms?.[0]).toMatch(/needs a 2176 MiB image .*2240 MiB free .* has 2048 MiB free/);
    const { id } = await createExperiment({ input: body(h.id, [{ fs: "ext4" }, { fs: "xfs" }], { min: 3, max: 3 }, { ...ddParams, sizeMiB: 256 }), createdById: null });
    expect((await jobSetupForRun({ experimentId: id, armIndex: 0 }))?.lab?.imageBytes).toBe((4 * 256 + 128) * 2 ** 20);
  });

  it("lab arms on a whole --lab-device: offered by the host, big enough, named in every lab arm's setup", async () => {
    const none = await host();
    const e1 = await createExperiment({ input: { ...body(none.id, [{ fs: "ext4" }, { fs: "xfs" }]), lab: { kind: "device" } }, createdById: null }).catch((e: unknown) => e);
    expect((e1 as { fieldErrors: Record<string, string[]> }).fieldErrors["lab.kind"]?.[0]).toMatch(/--lab-device DEV/);
    const devices = [{ path: "/dev/vdb", sizeBytes: 2 ** 30 }, { path: "/dev/vdc", sizeBytes: 200 * 2 ** 20 }];
    const h = await host(caps({ lab: { dir: "/srv/lab", fileSystems: ["ext4", "xfs"], freeBytes: 2 ** 30, devices } }));
    const e2 = await createExperiment({ input: { ...body(h.id, [{ fs: "ext4" }, { fs: "xfs" }]), lab: { kind: "device" } }, createdById: null }).catch((e: unknown) => e);
    expect((e2 as { fieldErrors: Record<string, string[]> }).fieldErrors["lab.device"]?.[0]).toMatch(/Name the device: this host offers \/dev\/vdb, \/dev\/vdc/);
    const e3 = await createExperiment({ input: { ...body(h.id, [{ fs: "ext4" }, { fs: "xfs" }]), lab: { kind: "device", device: "/dev/vdc" } }, createdById: null }).catch((e: unknown) => e);
    expect((e3 as { fieldErrors: Record<string, string[]> }).fieldErrors["lab.device"]?.[0]).toMatch(/needs a 320 MiB device and \/dev\/vdc has 200 MiB/);
    const e4 = await createExperiment({ input: { ...body(h.id, [{ fs: "ext4" }, { fs: "xfs" }]), lab: { kind: "device", device: "/dev/sda" } }, createdById: null }).catch((e: unknown) => e);
    expect((e4 as { fieldErrors: Record<string, string[]> }).fieldErrors["lab.device"]?.[0]).toMatch(/not one of this host's --lab-device devices/);
    const { id } = await createExperiment({ input: { ...body(h.id, [{ fs: "ext4" }, { fs: "xfs" }]), lab: { kind: "device", device: "/dev/vdb" } }, createdById: null });
    for (const armIndex of [0, 1]) expect((await jobSetupForRun({ experimentId: id, armIndex }))?.lab).toMatchObject({ kind: "device", device: "/dev/vdb" });
  });

  it("identical arms are refused unless both are labelled (a control: the same setup against itself)", async () => {
    const h = await host();
    const e = await createExperiment({ input: body(h.id, [{ fs: "ext4" }, { fs: "ext4" }]), createdById: null }).catch((x: unknown) => x);
    expect((e as { fieldErrors: Record<string, string[]> }).fieldErrors["arms.1"]?.[0]).toMatch(/same as arm 1.*give both arms a label/);
    const { id } = await createExperiment({ input: body(h.id, [{ fs: "ext4", label: "ext4 A" }, { fs: "ext4", label: "ext4 B" }]), createdById: null });
    expect(id).toMatch(/^[0-9a-f-]{36}$/);
  });

  it("runs lab arms in interleaved rounds to a verdict and records the setup reports", async () => {
    const h = await host();
    const { id } = await createExperiment({ input: body(h.id, [{ fs: "ext4" }, { fs: "xfs" }]), createdById: null });
    const queued = await db().probeRun.findMany({ where: { experimentId: id }, orderBy: { createdAt: "asc" } });
    expect(queued.map((r) => [r.armIndex, r.round])).toEqual([[0, 0], [1, 0]]);
    // A lab arm's target is the agent's lab dir; its setup carries the one image size.
    expect(queued[0]?.params).toMatchObject({ target: "/srv/lab", sizeMiB: 16 });
    expect(await jobSetupForRun({ experimentId: id, armIndex: 1 })).toEqual({ lab: { fs: "xfs", imageBytes: 320 * 2 ** 20, mountOptions: [], kind: "image" } });

    const order: number[] = [];
    const speed = [0.2, 0.21, 0.19, 0.1, 0.105, 0.098];
    let n = 0;
    for (;;) {
      const job = await runNext(h.id, (arm) => (arm === 0 ? speed[n++ % 3]! : speed[3 + (n++ % 3)]!), (arm) => labReport(arm === 0 ? "ext4" : "xfs"));
      if (!job) break;
      order.push(job.arm_index ?? -1);
    }
    // A B, B A, A B.
    expect(order).toEqual([0, 1, 1, 0, 0, 1]);
    const v = await getExperiment({ id });
    expect(v.status).toBe("FINISHED");
    expect(v.decision).toBe("max");
    expect(v.reverted).toBe(true);
    const runs = await db().probeRun.findMany({ where: { experimentId: id }, select: { fsType: true, setup: true, armIndex: true } });
    expect(runs.filter((r) => r.armIndex === 1).every((r) => r.fsType === "xfs" && (r.setup as SetupReport).lab?.loopDevice === "/dev/loop7")).toBe(true);
    const json = experimentJson(v);
    expect(json.arms.map((a) => a.label)).toEqual(["ext4", "xfs"]);
    expect(json.arms.every((a) => a.runIds.length === 3)).toBe(true);
    expect(json.verdict).toHaveLength(1);
    expect(json.verdict[0]).toMatchObject({ metric: "throughput", baseline: "ext4", arm: "xfs", runs: { baseline: 3, arm: 3 } });
    expect(json.verdict[0]!.ratio).toBeGreaterThan(1.8);
    expect(json.verdict[0]!.sentence).toMatch(/^xfs wrote \d+ % faster than ext4 \(90 % CI/);
    expect((await listExperiments({ hostId: h.id }))[0]).toMatchObject({ id, status: "FINISHED", runs: { ended: 6, total: 6 } });
  });

  it("adds rounds while an arm is unstable, up to the maximum, and warns", async () => {
    const h = await host();
    const { id } = await createExperiment({ input: body(h.id, [{ tunables: { "vm.dirty_ratio": 10 } }, { tunables: { "vm.dirty_ratio": 40 } }], { min: 3, max: 6, cvTarget: 2.5, stop: "cv" }, { ...ddParams, target: "/srv/pb" }), createdById: null });
    // Round 1 of the first arm is far off; later rounds are steady, so the CV falls under 2.5 % only after more rounds.
    const seq = [0.1, 0.1, 0.2, 0.2, 0.2, 0.2, 0.2, 0.2, 0.2, 0.2, 0.2, 0.2];
    let i = 0;
    while (await runNext(h.id, () => seq[i++] ?? 0.2)) {
      /* play every run */
    }
    const v = await getExperiment({ id });
    expect(v.status).toBe("FINISHED");
    expect(v.runs.length).toBe(12);
    expect(v.decision).toBe("max");
    expect(v.summary.warnings.some((w) => /maximum of 6 rounds/.test(w))).toBe(true);
    expect(v.arms.map((a) => a.label)).toEqual(["vm.dirty_ratio=10", "vm.dirty_ratio=40"]);
  });

  it("fails truthfully on a failed run and settles `reverted` after a cancel", async () => {
    const h = await host();
    const { id } = await createExperiment({ input: body(h.id, [{ tunables: { "vm.dirty_ratio": 10 } }, { tunables: { "vm.dirty_ratio": 40 } }], { min: 3, max: 3 }, { ...ddParams, target: "/srv/pb" }), createdById: null });
    const job = await claimedJob(h.id);
    await finishRun({ runId: job!.id, finish: { exitCode: null, signal: null, durationMs: 0, lastSeq: -1, error: "vm.dirty_ratio may not be changed", cancelled: false, timedOut: false, interrupted: false, profile: null, setup: { lab: null, tunables: [], droppedCaches: false, error: "vm.dirty_ratio may not be changed" } } });
    const failed = await getExperiment({ id });
    expect(failed.status).toBe("FAILED");
    expect(failed.decisionMessage).toMatch(/vm.dirty_ratio=10 in round 1 ended failed: vm.dirty_ratio may not be changed/);
    expect(failed.runs.filter((r) => r.status === "CANCELLED")).toHaveLength(1);

    const h2 = await host();
    const second = await createExperiment({ input: body(h2.id, [{ tunables: { "vm.dirty_ratio": 10 } }, { tunables: { "vm.dirty_ratio": 40 } }], { min: 3, max: 3 }, { ...ddParams, target: "/srv/pb" }), createdById: null });
    const running = await claimedJob(h2.id);
    const c = await cancelExperiment({ id: second.id });
    expect(c).toEqual({ status: "CANCELLED", runningRunId: running!.id });
    expect((await getExperiment({ id: second.id })).reverted).toBeNull();
    await expect(cancelExperiment({ id: second.id })).rejects.toMatchObject({ code: "CONFLICT" });
    await finishRun({ runId: running!.id, finish: {
      exitCode: null, signal: "SIGTERM", durationMs: 10, lastSeq: -1, error: null, cancelled: true, timedOut: false, interrupted: false, profile: null,
      setup: { lab: null, tunables: [{ name: "vm.dirty_ratio", device: null, from: "20", to: "10", restored: true }], droppedCaches: false, error: null },
    } });
    const after = await getExperiment({ id: second.id });
    expect(after).toMatchObject({ status: "CANCELLED", decision: "cancelled", reverted: true });
    expect(after.runs.map((r) => r.status).sort()).toEqual(["CANCELLED", "CANCELLED"]);
  });
});

describe("valid runs and the precision stop rule", () => {
  it("leaves out the warm-up and flagged runs, lists why, and stops on precision once enough valid runs are in", async () => {
    const h = await host();
    const { id } = await createExperiment({
      input: body(h.id, [{ tunables: { "vm.dirty_ratio": 10 } }, { tunables: { "vm.dirty_ratio": 40 } }], { min: 3, max: 6, warmup: true, stop: "precision", precisionPct: 50 }, { ...ddParams, target: "/srv/pb" }),
      createdById: null,
    });
    const first = await db().probeRun.findMany({ where: { experimentId: id }, select: { notes: true } });
    expect(first.map((r) => r.notes)).toEqual(["Experiment arm vm.dirty_ratio=10, warm-up (not counted)", "Experiment arm vm.dirty_ratio=40, warm-up (not counted)"]);
    const flag = { code: "too-short", title: "Shorter than 5 s", evidence: "The run took 0.1 s.", guide: null };
    const speed = (arm: number, round: number) => (round === 0 ? 0.09 : (arm === 0 ? 0.2 : 0.1) * (1 + 0.01 * round));
    let flagged: string | null = null;
    for (;;) {
      const job = await claimedJob(h.id);
      if (!job) break;
      const row = await db().probeRun.findUniqueOrThrow({ where: { id: job.id }, select: { round: true, armIndex: true } });
      await db().runLogChunk.create({ data: { runId: job.id, seq: 0, data: ddOutput(speed(row.armIndex!, row.round!)) } });
      await finishRun({ runId: job.id, finish: { exitCode: 0, signal: null, durationMs: 100, lastSeq: 0, error: null, cancelled: false, timedOut: false, interrupted: false, profile: null, setup: null } });
      // Round 2 runs B A: B's run ends first, so its flag is in place when the round completes.
      if (row.round === 1 && row.armIndex === 1) {
        await db().probeRun.update({ where: { id: job.id }, data: { flags: [flag] } });
        flagged = job.id;
      }
    }
    const v = await getExperiment({ id });
    // Warm-up + 3 rounds left arm B with 2 valid runs, so a 4th round ran; then ±50 % was met.
    expect(v.status).toBe("FINISHED");
    expect(v.decision).toBe("precision");
    expect(v.decisionMessage).toMatch(/^±\d+(\.\d)? % after 3 runs per arm in \d+ min: precision reached \(target ±50 %\)\.$/);
    expect(v.runs).toHaveLength(10);
    expect(v.summary.excluded.map((x) => [x.armIndex, x.round, x.reasons])).toEqual([
      [0, 0, ["warm-up"]],
      [1, 0, ["warm-up"]],
      [1, 1, ["Shorter than 5 s"]],
    ]);
    expect(v.runs.find((r) => r.id === flagged)?.excludedBecause).toEqual(["Shorter than 5 s"]);
    expect(v.runs.filter((r) => r.warmup)).toHaveLength(2);
    const json = experimentJson(v);
    expect(experimentResponseSchema.safeParse(json).success).toBe(true);
    expect(json.arms.map((a) => [a.validRunIds.length, a.excluded])).toEqual([[4, 1], [3, 2]]);
    expect(json.verdict[0]).toMatchObject({ state: "decided", runs: { baseline: 4, arm: 3 }, runsNeeded: null });
    expect(json.verdict[0]!.halfWidthPct).toBeLessThanOrEqual(50);
    // The warm-ups (twice as fast as the baseline arm) would have pulled the medians; they do not.
    expect(json.verdict[0]!.ratio).toBeGreaterThan(1.9);
    expect(json.verdict[0]!.ratio).toBeLessThan(2.1);
  });

  it("a policy stored before the precision rule reads as stop cv without warm-up or budget", () => {
    expect(readPolicy({ min: 3, max: 10, cvTarget: 2.5, order: "abba", dropCaches: false })).toMatchObject({ stop: "cv", warmup: false, budgetMin: null });
    expect(readPolicy({ min: 3, max: 10, stop: "precision", precisionPct: 5, budgetMin: 15, warmup: true })).toMatchObject({ stop: "precision", warmup: true, budgetMin: 15 });
  });

  it("refuses fewer than 3 valid runs per arm and names the field", () => {
    const r = createExperimentSchema.safeParse({ hostId: crypto.randomUUID(), probe: "dd", params: ddParams, arms: [{ fs: "ext4" }, { fs: "xfs" }], repeats: { min: 2, max: 2, budgetMin: 0 } });
    expect(r.success).toBe(false);
    const paths = r.success ? [] : r.error.issues.map((i) => i.path.join("."));
    expect(paths).toEqual(expect.arrayContaining(["repeats.min", "repeats.max", "repeats.budgetMin"]));
  });
});

describe("experiment runs' quality advice", () => {
  it("counts the experiment's rounds as repeats: no single-run warning", async () => {
    const h = await host();
    await createExperiment({ input: body(h.id, [{ tunables: { "vm.dirty_ratio": 10 } }, { tunables: { "vm.dirty_ratio": 40 } }], { min: 3, max: 3 }, { ...ddParams, target: "/srv/pb" }), createdById: null });
    const job = await runNext(h.id, () => 0.1);
    const run = await db().probeRun.findUniqueOrThrow({ where: { id: job!.id }, select: { warnings: true, status: true } });
    expect(run.status).toBe("SUCCEEDED");
    expect(JSON.stringify(run.warnings)).not.toMatch(/single run/);
  });
});
