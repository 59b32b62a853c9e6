import crypto from "node:crypto";
import { describe, expect, it } from "vitest";
import { db } from "../../db";
import { connectTestDatabase } from "../../testing/db";
import { heartbeat } from "./heartbeat";

connectTestDatabase();

const ago = (s: number) => new Date(Date.now() - s * 1000);

async function hostWithRuns(lastSeenSecAgo: number, runs: { activitySecAgo: number; cancel?: boolean }[]) {
  const host = await db().host.create({ data: { name: `beat-${crypto.randomUUID().slice(0, 8)}`, lastSeenAt: ago(lastSeenSecAgo) } });
  const made = [];
  for (const r of runs) {
    made.push(
      await db().probeRun.create({
        data: { hostId: host.id, probe: "dd", params: {}, status: "RUNNING", startedAt: ago(100), lastActivityAt: ago(r.activitySecAgo), cancelRequestedAt: r.cancel ? new Date() : null },
      }),
    );
  }
  return { host, runs: made };
}

const activity = async (id: string) => (await db().probeRun.findUniqueOrThrow({ where: { id } })).lastActivityAt!.getTime();
const seen = async (id: string) => (await db().host.findUniqueOrThrow({ where: { id } })).lastSeenAt!.getTime();

describe("heartbeat", () => {
  it("answers the runs whose cancellation was asked, among the host's own", async () => {
    const { host, runs } = await hostWithRuns(30, [{ activitySecAgo: 30 }, { activitySecAgo: 30, cancel: true }]);
    const other = await hostWithRuns(30, [{ activitySecAgo: 30, cancel: true }]);
    const ids = [...runs.map((r) => r.id), other.runs[0]!.id];
    expect(await heartbeat(host.id, { runningRunIds: ids })).toEqual({ cancelRunIds: [runs[1]!.id] });
  });

  it("stamps the host's and its runs' activity when older than 5 s, and leaves fresh stamps alone", async () => {
    const stale = await hostWithRuns(30, [{ activitySecAgo: 30 }]);
    await heartbeat(stale.host.id, { runningRunIds: [stale.runs[0]!.id] });
    expect(Date.now() - (await seen(stale.host.id))).toBeLessThan(5000);
    expect(Date.now() - (await activity(stale.runs[0]!.id))).toBeLessThan(5000);
    const fresh = await hostWithRuns(2, [{ activitySecAgo: 2 }]);
    const [hostBefore, runBefore] = [await seen(fresh.host.id), await activity(fresh.runs[0]!.id)];
    await heartbeat(fresh.host.id, { runningRunIds: [fresh.runs[0]!.id] });
    expect([await seen(fresh.host.id), await activity(fresh.runs[0]!.id)]).toEqual([hostBefore, runBefore]);
  });

  it("writes a reported profile and capabilities, and stamps the tools check", async () => {
    const { host } = await hostWithRuns(2, []);
    await heartbeat(host.id, { runningRunIds: [], profile: { kernel: "6.1" }, capabilities: { agentVersion: "t", tools: {}, allowedDirs: [] } as never });
    const row = await db().host.findUniqueOrThrow({ where: { id: host.id } });
    expect(row.profile).toMatchObject({ kernel: "6.1" });
    expect(row.toolsCheckedAt).not.toBeNull();
  });
});
