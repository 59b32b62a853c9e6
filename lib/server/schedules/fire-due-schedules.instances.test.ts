import { spawn } from "node:child_process";
import crypto from "node:crypto";
import { mkdtempSync, realpathSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import type { Prisma } from "@prisma/client";
import { afterAll, beforeAll, expect, it } from "vitest";
import { db } from "../../db";
import { withDatabase } from "../../runtime/embedded-postgres";
import { adminQuery, quoteIdent } from "../../runtime/pg-admin";
import { migrateDeploy } from "../../runtime/prisma-cli";
import { connectTestDatabase } from "../../testing/db";

// A database of its own on the run's server: the instances fire every due schedule, and other
// test files' schedules in the shared database would be fired (and counted) with this test's.
const shared = connectTestDatabase();
const name = `pb_instances_${Date.now().toString(36)}`;
let url = "";
beforeAll(async () => {
  await adminQuery(shared, `CREATE DATABASE ${quoteIdent(name)}`);
  url = withDatabase(shared, name);
  await migrateDeploy(url);
  process.env.DATABASE_URL = url; // db() below is first used after this
}, 120_000);
afterAll(async () => {
  await db().$disconnect();
  await adminQuery(shared, `DROP DATABASE IF EXISTS ${quoteIdent(name)} WITH (FORCE)`).catch(() => undefined);
});
const dir = realpathSync(mkdtempSync(path.join(os.tmpdir(), "probebook-sched2-")));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** A separate Node process firing schedules in a tight loop: another app instance on the same database. */
function instance(ms: number): Promise<{ ticks: number; schedules: number; firings: number; queued: number }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ["--import", "tsx", path.join(import.meta.dirname, "fire-loop.ts"), String(ms)], {
      env: { ...process.env, DATABASE_URL: url, LOG_LEVEL: "warn" },
      stdio: ["ignore", "pipe", "pipe"],
    });
    let out = "";
    let err = "";
    child.stdout.on("data", (d: Buffer) => (out += d.toString()));
    child.stderr.on("data", (d: Buffer) => (err += d.toString()));
    child.on("exit", (code) => (code === 0 ? resolve(JSON.parse(out.trim().split("\n").at(-1) ?? "{}")) : reject(new Error(`instance exited ${code}: ${err}`))));
  });
}

it("two instances fire ~200 schedules due at once exactly once per schedule, host and due time, twice over", { timeout: 180_000 }, async () => {
  const caps = { agentVersion: "1", tools: { dd: { installed: true, version: "9.1", path: "/usr/bin/dd" } }, allowedDirs: [dir] };
  const hosts = await Promise.all(
    [0, 1, 2].map(() =>
      db().host.create({
        data: {
          name: `inst-${crypto.randomUUID().slice(0, 8)}`,
          capabilities: caps as Prisma.InputJsonValue,
          profile: { targets: [{ path: dir, fsType: "ext4", freeBytes: 100 * 2 ** 30 }] } as Prisma.InputJsonValue,
          lastSeenAt: new Date(Date.now() + 10 * 60_000), // stays online for the whole test
        },
      }),
    ),
  );
  const hostIds = hosts.map((h) => h.id);
  // Hourly, created an hour and a second ago: due now, and not again while the test runs.
  // skipIfBusy off, so every host gets a run each time.
  const created = new Date(Date.now() - 3601_000);
  const n = 200;
  await db().schedule.createMany({
    data: Array.from({ length: n }, (_, i) => ({
      name: `two-instances-${i}`,
      hostIds: hostIds.slice(0, 1 + (i % 3)),
      probe: "dd",
      preset: "write-direct",
      params: { target: dir, sizeMiB: 16 },
      intervalMinutes: 60,
      skipIfBusy: false,
      createdAt: created,
      nextFireAt: new Date(created.getTime() + 3600_000),
    })),
  });
  const ids = (await db().schedule.findMany({ where: { name: { startsWith: "two-instances-" } }, select: { id: true, hostIds: true } }));
  const expected = ids.reduce((a, s) => a + s.hostIds.length, 0);

  const check = async (round: number) => {
    const firings = await db().scheduleFiring.findMany({ where: { scheduleId: { in: ids.map((s) => s.id) } } });
    const keys = new Set(firings.map((f) => `${f.scheduleId}/${f.hostId}/${f.dueAt.toISOString()}`));
    expect(keys.size).toBe(firings.length); // the unique key holds (it is a constraint; this says it was not bypassed)
    expect(firings).toHaveLength(expected * round);
    expect(firings.filter((f) => f.outcome !== "QUEUED" || !f.runId).map((f) => f.message)).toEqual([]);
    const runs = await db().probeRun.findMany({ where: { scheduleId: { in: ids.map((s) => s.id) } }, select: { id: true, scheduleId: true, hostId: true } });
    expect(runs).toHaveLength(expected * round);
    expect(new Set(firings.map((f) => f.runId))).toEqual(new Set(runs.map((r) => r.id)));
    // Each schedule's hosts got exactly `round` runs each.
    const perPair = new Map<string, number>();
    for (const r of runs) perPair.set(`${r.scheduleId}/${r.hostId}`, (perPair.get(`${r.scheduleId}/${r.hostId}`) ?? 0) + 1);
    expect([...perPair.values()].every((c) => c === round)).toBe(true);
    return new Set(firings.map((f) => f.dueAt.toISOString())).size;
  };

  const [a, b] = await Promise.all([instance(5_000), instance(5_000)]);
  // Both looped while the other did (each instance's totals say how the work was shared).
  console.log("round 1: instance A", a, "instance B", b);
  expect(Math.min(a.schedules, b.schedules)).toBeGreaterThan(0);
  expect(a.firings + b.firings).toBe(expected);
  await check(1);

  // A second due time: the grid half an hour back, due now again.
  await db().$executeRaw`UPDATE schedules SET created_at = created_at - interval '30 minutes', next_fire_at = now() AT TIME ZONE 'UTC' - interval '1 second' WHERE name LIKE 'two-instances-%'`;
  const [c, d] = await Promise.all([instance(5_000), instance(5_000)]);
  console.log("round 2: instance A", c, "instance B", d);
  expect(c.firings + d.firings).toBe(expected);
  expect(await check(2)).toBeGreaterThanOrEqual(2);
});
