// The schedule firing's cost on one instance: 1,000 every-minute schedules (most on offline hosts,
// so nothing runs; some on online hosts), fireDueSchedules every 10 s as the upkeep task does, for
// ~3 minutes. Prints statements/s (pg_stat_statements when the embedded server can load it, else
// transactions/s from pg_stat_database, bench/lib/pg-statements.ts), the tick's CPU (process.cpuUsage) and wall time, and
// firings/s. `npm run bench:schedules [-- --seconds 180 --schedules 1000]`.
import { execFileSync } from "node:child_process";
import { parseArgs } from "node:util";
import { StatementCounter } from "./lib/pg-statements";

const { values } = parseArgs({ options: { seconds: { type: "string", default: "180" }, schedules: { type: "string", default: "1000" }, online: { type: "string", default: "50" } } });
const SECONDS = Number(values.seconds);
const SCHEDULES = Number(values.schedules);
const ONLINE_SCHEDULES = Number(values.online);
const TICK_MS = 10_000;

const uptime = () => execFileSync("uptime", { encoding: "utf8" }).trim();
const pct = (xs: number[], p: number) => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor((p / 100) * xs.length))] ?? 0;

async function main() {
  process.env.PROBEBOOK_PG_PRELOAD ??= "pg_stat_statements";
  const { createTestDatabase } = await import("../lib/runtime/test-database");
  const database = await createTestDatabase("schedbench");
  process.env.DATABASE_URL = database.url;
  const { db } = await import("../lib/db");
  const { pgPool } = await import("../lib/pg-pool");
  const { fireDueSchedules } = await import("../lib/server/schedules/fire-due-schedules");
  try {
    const caps = { agentVersion: "bench", tools: { dd: { installed: true, version: "9", path: "/usr/bin/dd" } }, allowedDirs: ["/srv/pb"] };
    const profile = { targets: [{ path: "/srv/pb", fsType: "ext4", freeBytes: 10 * 2 ** 40 }] };
    const mk = (name: string, lastSeenAt: Date) => db().host.create({ data: { name, capabilities: caps, profile, lastSeenAt }, select: { id: true } });
    const offline = await Promise.all(Array.from({ length: 40 }, (_, i) => mk(`offline-${i}`, new Date(Date.now() - 3600_000))));
    // Seen "in the future": online for the whole bench without an agent touching them.
    const online = await Promise.all(Array.from({ length: 5 }, (_, i) => mk(`online-${i}`, new Date(Date.now() + 3600_000))));
    const user = await db().user.create({ data: { email: "bench@example.test", passwordHash: "x", role: "OPERATOR" } });
    const now = Date.now();
    // Created across the last minute, so due times spread over each minute as real ones would.
    await db().schedule.createMany({
      data: Array.from({ length: SCHEDULES }, (_, i) => {
        const createdAt = new Date(now - 60_000 + Math.floor((i / SCHEDULES) * 60_000));
        const onOnline = i < ONLINE_SCHEDULES;
        return {
          name: `bench-${i}`,
          hostIds: [onOnline ? online[i % online.length]!.id : offline[i % offline.length]!.id],
          probe: "dd",
          preset: "write-direct",
          params: { target: "/srv/pb", sizeMiB: 16 },
          intervalMinutes: 1,
          createdAt,
          nextFireAt: new Date(createdAt.getTime() + 60_000),
          createdById: user.id,
        };
      }),
    });
    const load: { before: string; after?: string } = { before: uptime() };
    const counter = await StatementCounter.open(database.url);
    const stop = await counter.start();
    const ticks: { wallMs: number; cpuMs: number; firings: number; schedules: number; queued: number }[] = [];
    const t0 = performance.now();
    while (performance.now() - t0 < SECONDS * 1000) {
      const start = performance.now();
      const cpu = process.cpuUsage();
      const r = await fireDueSchedules();
      const used = process.cpuUsage(cpu);
      ticks.push({ wallMs: performance.now() - start, cpuMs: (used.user + used.system) / 1000, firings: r.firings, schedules: r.schedules, queued: r.queued });
      await new Promise((res) => setTimeout(res, Math.max(0, TICK_MS - (performance.now() - start))));
    }
    const elapsed = (performance.now() - t0) / 1000;
    await new Promise((r) => setTimeout(r, 1500)); // backends flush their stats at most every second
    const statements = await stop();
    load.after = uptime();
    const outcomes = await db().scheduleFiring.groupBy({ by: ["outcome"], _count: true });
    const wall = ticks.map((t) => t.wallMs);
    const cpu = ticks.map((t) => t.cpuMs);
    const firings = ticks.reduce((a, t) => a + t.firings, 0);
    const result = {
      schedules: SCHEDULES,
      onlineSchedules: ONLINE_SCHEDULES,
      seconds: Math.round(elapsed),
      ticks: ticks.length,
      tickWallMs: { p50: Math.round(pct(wall, 50)), p95: Math.round(pct(wall, 95)), max: Math.round(Math.max(...wall)) },
      // The first tick queues the online hosts' runs (createRun, Prisma) and warms the JIT; the rest is the steady state.
      steadyTicks: { wallMsP50: Math.round(pct(wall.slice(1), 50)), wallMsMax: Math.round(Math.max(...wall.slice(1))), cpuMsMean: Math.round(cpu.slice(1).reduce((a, b) => a + b, 0) / Math.max(1, cpu.length - 1)), cpuMsMax: Math.round(Math.max(...cpu.slice(1))) },
      tickCpuMs: { mean: Math.round(cpu.reduce((a, b) => a + b, 0) / cpu.length), p95: Math.round(pct(cpu, 95)), max: Math.round(Math.max(...cpu)) },
      cpuShareOfOneCore: `${((cpu.reduce((a, b) => a + b, 0) / 1000 / elapsed) * 100).toFixed(2)} %`,
      firingsPerSec: +(firings / elapsed).toFixed(2),
      schedulesClaimedPerSec: +(ticks.reduce((a, t) => a + t.schedules, 0) / elapsed).toFixed(2),
      outcomes: Object.fromEntries(outcomes.map((o) => [o.outcome, o._count])),
      statements: { source: counter.source, perSec: +statements.totalPerSec.toFixed(1), top: statements.top.map((s) => ({ perSec: +s.perSec.toFixed(2), query: s.query })) },
      load,
    };
    console.log(JSON.stringify(result, null, 2));
    await counter.close();
  } finally {
    await pgPool().end().catch(() => undefined);
    await database.dispose();
  }
}

main().then(
  () => process.exit(0),
  (err: unknown) => {
    console.error(err);
    process.exit(1);
  },
);
