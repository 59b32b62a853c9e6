import crypto from "node:crypto";
import type { Prisma } from "@prisma/client";
import pg from "pg";
import { describe, expect, it } from "vitest";
import type { Capabilities } from "../../../probes/protocol/schemas";
import { createExperimentSchema } from "../../api/schemas/experiments";
import { generateSecret, hashSecret } from "../../auth/secret-token";
import { db } from "../../db";
import { readRunNotification, runChannel } from "../../notifications";
import { connectTestDatabase } from "../../testing/db";
import { createExperiment } from "../experiments/create-experiment";
import { expireQueuedRuns } from "./expire-queued-runs";

connectTestDatabase();

const tool = { installed: true, version: "9.1", path: "/usr/bin/dd" };
const caps: Capabilities = {
  agentVersion: "1",
  tools: { dd: tool, iozone: tool, fio: tool, sar: tool },
  allowedDirs: ["/srv/pb"],
  lab: { dir: "/srv/lab", fileSystems: ["ext4", "xfs"], freeBytes: 20 * 2 ** 30 },
};
const minutesAgo = (m: number) => new Date(Date.now() - m * 60_000);

async function host(lastSeenAt: Date | null) {
  return db().host.create({
    data: { name: `expire-${crypto.randomUUID().slice(0, 8)}`, agentCredentialHash: hashSecret(generateSecret("pba")), lastSeenAt, capabilities: caps as unknown as Prisma.InputJsonValue },
  });
}
const queued = (hostId: string, createdAt: Date) => db().probeRun.create({ data: { hostId, probe: "dd", params: {}, createdAt } });
const runOf = (id: string) => db().probeRun.findUniqueOrThrow({ where: { id }, select: { status: true, errorMessage: true, finishedAt: true } });

/** "2026-11-28 12:00 UTC", as the message writes a moment. */
const utcMinute = (d: Date) => `${d.toISOString().slice(0, 10)} ${d.toISOString().slice(11, 16)} UTC`;

describe("queued runs on an offline host", () => {
  it("end as not started once the run has waited and the host stayed offline for the timeout, and not before", async () => {
    const lastSeen = minutesAgo(90);
    const gone = await host(lastSeen);
    const online = await host(minutesAgo(0.5));
    const never = await host(null);
    const waited = await queued(gone.id, minutesAgo(70));
    const fresh = await queued(gone.id, minutesAgo(5));
    const busy = await queued(online.id, minutesAgo(300));
    const neverSeen = await queued(never.id, minutesAgo(61));

    expect(await expireQueuedRuns(60)).toBeGreaterThanOrEqual(2);
    expect(await runOf(waited.id)).toMatchObject({ status: "CANCELLED", errorMessage: `not started: host offline since ${utcMinute(lastSeen)}` });
    expect((await runOf(waited.id)).finishedAt).not.toBeNull();
    expect(await runOf(neverSeen.id)).toMatchObject({ status: "CANCELLED", errorMessage: "not started: host never came online" });
    // The run queued 5 min ago gets its whole wait, though its host has been away for longer.
    expect((await runOf(fresh.id)).status).toBe("QUEUED");
    expect((await runOf(busy.id)).status).toBe("QUEUED");
    // 0 is "wait for ever".
    await db().probeRun.update({ where: { id: fresh.id }, data: { createdAt: minutesAgo(600) } });
    expect(await expireQueuedRuns(0)).toBe(0);
    expect((await runOf(fresh.id)).status).toBe("QUEUED");
  });

  it("ends each run once when every instance sweeps at the same moment, and tells its live views", async () => {
    const gone = await host(minutesAgo(120));
    const runs = await Promise.all(Array.from({ length: 6 }, () => queued(gone.id, minutesAgo(120))));
    const listener = new pg.Client({ connectionString: process.env.DATABASE_URL });
    await listener.connect();
    const heard: string[] = [];
    listener.on("notification", (n) => heard.push(`${n.channel} ${n.payload}`));
    for (const r of runs) await listener.query(`LISTEN ${runChannel(r.id)}`);
    try {
      const before = await Promise.all(runs.map((r) => runOf(r.id)));
      expect(before.every((r) => r.status === "QUEUED")).toBe(true);
      const counts = await Promise.all([expireQueuedRuns(60), expireQueuedRuns(60), expireQueuedRuns(60)]);
      const mine = (await Promise.all(runs.map((r) => runOf(r.id)))).filter((r) => r.status === "CANCELLED");
      expect(mine).toHaveLength(6);
      // Other tests' runs may be swept too, but these six are counted once across the three sweeps.
      expect(counts.reduce((a, b) => a + b, 0)).toBeGreaterThanOrEqual(6);
      await expect.poll(() => runs.filter((r) => heard.some((h) => h.startsWith(runChannel(r.id)))).length).toBe(6);
      for (const r of runs) {
        const payloads = heard.filter((h) => h.startsWith(`${runChannel(r.id)} `)).map((h) => readRunNotification(h.split(" ")[1]!));
        expect(payloads).toEqual([{ kind: "status" }]);
      }
    } finally {
      await listener.end();
    }
  });

  it("fails the experiment whose round could not start, naming why", async () => {
    const h = await host(minutesAgo(0.1));
    const input = createExperimentSchema.parse({
      hostId: h.id,
      probe: "dd",
      params: { sizeMiB: 16, blockSizeKiB: 1024, mode: "write", direct: true, fdatasync: true },
      arms: [{ fs: "ext4" }, { fs: "xfs" }],
      repeats: { warmup: false, min: 3, max: 3 },
    });
    const { id } = await createExperiment({ input, createdById: null });
    const runs = await db().probeRun.findMany({ where: { experimentId: id } });
    expect(runs.length).toBeGreaterThan(0);
    expect(runs.every((r) => r.status === "QUEUED")).toBe(true);
    // The host went away two hours ago, while the round waited.
    await db().host.update({ where: { id: h.id }, data: { lastSeenAt: minutesAgo(120) } });
    await db().probeRun.updateMany({ where: { experimentId: id }, data: { createdAt: minutesAgo(119) } });

    await expireQueuedRuns(60);
    const after = await db().probeRun.findMany({ where: { experimentId: id } });
    expect(after.every((r) => r.status === "CANCELLED")).toBe(true);
    const exp = await db().experiment.findUniqueOrThrow({ where: { id } });
    expect(exp.status).toBe("FAILED");
    expect(exp.decisionMessage).toContain("not started: host offline since");
    expect(exp.finishedAt).not.toBeNull();
  });
});
