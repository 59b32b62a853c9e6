import crypto from "node:crypto";
import { describe, expect, it } from "vitest";
import { retentionSettingsSchema } from "../../api/schemas/webhooks";
import { db } from "../../db";
import { connectTestDatabase } from "../../testing/db";
import { getRetention } from "../settings/get-retention";
import { updateRetention } from "../settings/update-retention";
import { getRun } from "./get-run";
import { getRunLog } from "./get-run-log";
import { pruneRawLogs } from "./prune-raw-logs";

connectTestDatabase();

const DAY = 86_400_000;

async function endedRun(finishedAt: Date, status: "SUCCEEDED" | "RUNNING" = "SUCCEEDED") {
  const run = await db().probeRun.create({
    data: {
      probe: "dd",
      params: {},
      status,
      hostLabel: `prune-${crypto.randomUUID().slice(0, 6)}`,
      finishedAt: status === "RUNNING" ? null : finishedAt,
      startedAt: new Date(finishedAt.getTime() - 60_000),
      result: { tool: "dd", measurements: [{ metric: "throughput", value: 512 }] },
      flags: [{ code: "too-short", title: "Too short", evidence: "3 s", guide: null }],
    },
  });
  await db().runLogChunk.createMany({ data: [0, 1, 2].map((seq) => ({ runId: run.id, seq, data: `line ${seq}\n` })) });
  await db().runTelemetry.createMany({ data: [0, 1].map((t) => ({ runId: run.id, t, sample: { cpu: { user: 1 } } })) });
  return run;
}

describe("raw-log retention", () => {
  // Other files share the database and run alongside: every date here is in 2001, so the cutoffs
  // never reach their runs.
  it("drops the chunks of runs ended before the cutoff, keeps result, telemetry and flags, and says when", async () => {
    const now = new Date("2001-03-01T12:00:00Z");
    const old = await endedRun(new Date(now.getTime() - 40 * DAY));
    const recent = await endedRun(new Date(now.getTime() - 5 * DAY));
    const running = await endedRun(new Date(now.getTime() - 40 * DAY), "RUNNING");

    expect(await pruneRawLogs({ now, rawLogDays: 30 })).toBeGreaterThanOrEqual(1);
    expect(await db().runLogChunk.count({ where: { runId: old.id } })).toBe(0);
    expect(await db().runLogChunk.count({ where: { runId: recent.id } })).toBe(3);
    expect(await db().runLogChunk.count({ where: { runId: running.id } })).toBe(3);

    const kept = await db().probeRun.findUniqueOrThrow({ where: { id: old.id } });
    expect(kept.logPrunedAt).toEqual(now);
    expect(kept.result).toEqual(old.result);
    expect(kept.flags).toEqual(old.flags);
    expect(await db().runTelemetry.count({ where: { runId: old.id } })).toBe(2);
    expect((await db().probeRun.findUniqueOrThrow({ where: { id: recent.id } })).logPrunedAt).toBeNull();

    // The readers say so instead of an empty log.
    const log = await getRunLog({ id: old.id });
    expect(log.log).toBe("The raw output was dropped by the retention setting on 2001-03-01; the result, telemetry and checks are kept.\n");
    expect(log.prunedAt).toEqual(now);
    expect((await getRun({ id: old.id })).logPrunedAt).toBe(now.toISOString());
    expect((await getRunLog({ id: recent.id })).log).toBe("line 0\nline 1\nline 2\n");

    // Again: nothing more to do, and the date stays the first one.
    expect(await pruneRawLogs({ now: new Date(now.getTime() + DAY), rawLogDays: 30 })).toBe(0);
    expect((await db().probeRun.findUniqueOrThrow({ where: { id: old.id } })).logPrunedAt).toEqual(now);
  });

  it("the setting: forever by default (a no-op), N days once set, validated with the field named", async () => {
    expect(await getRetention()).toEqual({ rawLogDays: null });
    const now = new Date("2002-06-01T00:00:00Z");
    const run = await endedRun(new Date("2001-01-01T00:00:00Z"));
    expect(await pruneRawLogs({ now })).toBe(0);
    expect(await db().runLogChunk.count({ where: { runId: run.id } })).toBe(3);

    await updateRetention({ input: { rawLogDays: 365 } });
    expect(await getRetention()).toEqual({ rawLogDays: 365 });
    expect(await pruneRawLogs({ now })).toBeGreaterThanOrEqual(1);
    expect(await db().runLogChunk.count({ where: { runId: run.id } })).toBe(0);
    await updateRetention({ input: { rawLogDays: null } });
    expect(await getRetention()).toEqual({ rawLogDays: null });

    for (const bad of [0, -1, 1.5, "30"]) {
      const r = retentionSettingsSchema.safeParse({ rawLogDays: bad });
      expect(r.success, String(bad)).toBe(false);
      expect(r.error!.issues[0]!.path).toEqual(["rawLogDays"]);
    }
  });
});
