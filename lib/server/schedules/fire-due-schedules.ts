// Fires due schedules from every app instance (an upkeep task every 10 s), exactly once per
// (schedule, host, due time) however many instances run it at the same moment.
import type { FiringOutcome } from "@prisma/client";
import { createExperimentSchema } from "../../api/schemas/experiments";
import { AppError } from "../../http/app-error";
import { log } from "../../log";
import { pgPool } from "../../pg-pool";
import { inQuietHours, latestDueAtOrBefore, nextDueAfter, withJitter } from "../../trends/schedule-time";
import { createExperiment } from "../experiments/create-experiment";
import { ONLINE_MS } from "../hosts/host-summary";
import { createRun } from "../runs/create-run";

/** Schedules claimed per transaction; a tick claims batches until none is left (or MAX_BATCHES). */
const BATCH = 50;
const MAX_BATCHES = 40;

interface DueRow {
  id: string;
  host_ids: string[];
  kind: "RUN" | "EXPERIMENT";
  probe: string;
  preset: string | null;
  params: Record<string, unknown>;
  cron: string | null;
  interval_minutes: number | null;
  timezone: string;
  jitter_seconds: number;
  skip_if_busy: boolean;
  quiet_start: string | null;
  quiet_end: string | null;
  created_at: Date;
  created_by_id: string | null;
  db_now: Date;
}

interface Firing {
  scheduleId: string;
  hostId: string;
  dueAt: Date;
  outcome: FiringOutcome;
}

export interface FireResult {
  schedules: number;
  firings: number;
  queued: number;
  refused: number;
}

// Timestamps are timestamp(3) without time zone holding UTC (Prisma's convention): they are read
// with AT TIME ZONE 'UTC' and written from ISO text, so the process's TZ never shifts them.
const CLAIM = `
  SELECT id, host_ids, kind, probe, preset, params, cron, interval_minutes, timezone, jitter_seconds, skip_if_busy,
         quiet_start, quiet_end, created_at AT TIME ZONE 'UTC' AS created_at, created_by_id, now() AS db_now
  FROM schedules
  WHERE NOT paused AND next_fire_at <= (now() AT TIME ZONE 'UTC')
  ORDER BY next_fire_at
  LIMIT ${BATCH}
  FOR UPDATE SKIP LOCKED`;

// Online and busy for every host of the batch in one statement (probe_runs has (host_id, status, …)).
const HOST_STATE = `
  SELECT h.id,
         coalesce(h.last_seen_at >= (now() AT TIME ZONE 'UTC') - make_interval(secs => $2::int / 1000.0), false) AS online,
         EXISTS (SELECT 1 FROM probe_runs r WHERE r.host_id = h.id AND r.status IN ('QUEUED', 'RUNNING')) AS busy
  FROM hosts h WHERE h.id = ANY($1::uuid[])`;

const RECORD = `
  INSERT INTO schedule_firings (id, schedule_id, host_id, due_at, fired_at, outcome)
  SELECT gen_random_uuid(), f.schedule_id, f.host_id, f.due_at::timestamptz AT TIME ZONE 'UTC', now() AT TIME ZONE 'UTC', f.outcome::"FiringOutcome"
  FROM unnest($1::uuid[], $2::uuid[], $3::text[], $4::text[]) AS f(schedule_id, host_id, due_at, outcome)
  ON CONFLICT (schedule_id, host_id, due_at) DO NOTHING
  RETURNING id, schedule_id, host_id, outcome`;

const ADVANCE = `
  UPDATE schedules s SET next_fire_at = n.next_fire_at::timestamptz AT TIME ZONE 'UTC', last_fired_at = now() AT TIME ZONE 'UTC', updated_at = now() AT TIME ZONE 'UTC'
  FROM unnest($1::uuid[], $2::text[]) AS n(id, next_fire_at)
  WHERE s.id = n.id`;

/**
 * One pass: claims due schedules in batches and fires each one's latest due time on its hosts.
 *
 * Exactly once: the claim is `FOR UPDATE SKIP LOCKED`, so two instances never hold the same
 * schedule; the firing rows (unique per schedule, host and due time) and the advanced next_fire_at
 * commit together, so whoever claims it next sees the next due time, and a due time recorded once
 * cannot be recorded again. After an outage only the latest missed due time fires (and is
 * recorded), then the schedule moves to its next future one.
 *
 * Runs and experiments are queued after the commit (createRun does its own statements and
 * notifies the agent). A crash between the commit and the queueing leaves a QUEUED firing without
 * a run: it is never retried, because its due time is already recorded and next_fire_at moved on —
 * at most once, never twice (the schedule page says the firing was not queued).
 */
export async function fireDueSchedules({ random = Math.random }: { random?: () => number } = {}): Promise<FireResult> {
  const total: FireResult = { schedules: 0, firings: 0, queued: 0, refused: 0 };
  for (let i = 0; i < MAX_BATCHES; i++) {
    const { claimed, recorded, rows } = await claimBatch(random);
    total.schedules += claimed;
    total.firings += recorded.length;
    const r = await queueFirings(recorded, rows);
    total.queued += r.queued;
    total.refused += r.refused;
    if (claimed < BATCH) break;
  }
  return total;
}

async function claimBatch(random: () => number): Promise<{ claimed: number; recorded: { id: string; schedule_id: string; host_id: string; outcome: FiringOutcome }[]; rows: Map<string, DueRow> }> {
  const client = await pgPool().connect();
  try {
    await client.query("BEGIN");
    const due = (await client.query<DueRow>(CLAIM)).rows;
    if (due.length === 0) {
      await client.query("COMMIT");
      return { claimed: 0, recorded: [], rows: new Map() };
    }
    const hostIds = [...new Set(due.flatMap((s) => s.host_ids))];
    const hosts = new Map((await client.query<{ id: string; online: boolean; busy: boolean }>(HOST_STATE, [hostIds, ONLINE_MS])).rows.map((h) => [h.id, h]));
    const firings: Firing[] = [];
    const next: { id: string; at: string }[] = [];
    for (const s of due) {
      const timing = { cron: s.cron, intervalMinutes: s.interval_minutes, timezone: s.timezone, createdAt: s.created_at };
      const dueAt = latestDueAtOrBefore(timing, s.db_now);
      next.push({ id: s.id, at: withJitter(nextDueAfter(timing, s.db_now), s.jitter_seconds, random).toISOString() });
      if (!dueAt) continue; // moved earlier by hand before its first due time: nothing to fire yet
      const quiet = inQuietHours({ timezone: s.timezone, quietStart: s.quiet_start, quietEnd: s.quiet_end }, dueAt);
      for (const hostId of s.host_ids) {
        const h = hosts.get(hostId);
        if (!h) continue; // the host was deleted
        const outcome: FiringOutcome = !h.online ? "MISSED_OFFLINE" : quiet ? "SKIPPED_QUIET" : s.skip_if_busy && h.busy ? "SKIPPED_BUSY" : "QUEUED";
        firings.push({ scheduleId: s.id, hostId, dueAt, outcome });
      }
    }
    const recorded =
      firings.length === 0
        ? []
        : (
            await client.query<{ id: string; schedule_id: string; host_id: string; outcome: FiringOutcome }>(RECORD, [
              firings.map((f) => f.scheduleId),
              firings.map((f) => f.hostId),
              firings.map((f) => f.dueAt.toISOString()),
              firings.map((f) => f.outcome),
            ])
          ).rows;
    await client.query(ADVANCE, [next.map((n) => n.id), next.map((n) => n.at)]);
    await client.query("COMMIT");
    return { claimed: due.length, recorded, rows: new Map(due.map((s) => [s.id, s])) };
  } catch (err) {
    await client.query("ROLLBACK").catch(() => undefined);
    throw err;
  } finally {
    client.release();
  }
}

/** Queues the QUEUED firings' runs (or experiments) and writes their ids, or REFUSED with the reason, onto the firings (one statement). */
async function queueFirings(recorded: { id: string; schedule_id: string; host_id: string; outcome: FiringOutcome }[], rows: Map<string, DueRow>): Promise<{ queued: number; refused: number }> {
  const done: { id: string; outcome: FiringOutcome; runId: string | null; experimentId: string | null; message: string | null }[] = [];
  for (const f of recorded) {
    const s = rows.get(f.schedule_id);
    if (f.outcome !== "QUEUED" || !s) continue;
    try {
      if (s.kind === "EXPERIMENT") {
        const input = createExperimentSchema.parse({ ...s.params, probe: s.probe, hostId: f.host_id });
        const { id } = await createExperiment({ input, createdById: s.created_by_id });
        done.push({ id: f.id, outcome: "QUEUED", runId: null, experimentId: id, message: null });
      } else {
        const { ids } = await createRun({ input: { hostId: f.host_id, probe: s.probe, preset: s.preset ?? undefined, params: s.params, repeats: 1 }, createdById: s.created_by_id, scheduleId: s.id });
        done.push({ id: f.id, outcome: "QUEUED", runId: ids[0] ?? null, experimentId: null, message: null });
      }
    } catch (err) {
      // Refused by admission now (target gone, tool missing, no space): recorded, not retried.
      const message = err instanceof AppError ? [err.message, ...Object.entries(err.fieldErrors ?? {}).map(([k, v]) => `${k}: ${v.join(" ")}`)].join(" ") : err instanceof Error ? err.message : String(err);
      if (!(err instanceof AppError) && !(err instanceof Error && err.name === "ZodError")) log().warn(`schedule ${f.schedule_id}: queueing for host ${f.host_id} failed: ${message}`, { scheduleId: f.schedule_id });
      done.push({ id: f.id, outcome: "REFUSED", runId: null, experimentId: null, message: message.slice(0, 2000) });
    }
  }
  if (done.length > 0) {
    await pgPool().query(
      `UPDATE schedule_firings f SET outcome = d.outcome::"FiringOutcome", run_id = d.run_id, experiment_id = d.experiment_id, message = d.message
       FROM unnest($1::uuid[], $2::text[], $3::uuid[], $4::uuid[], $5::text[]) AS d(id, outcome, run_id, experiment_id, message) WHERE f.id = d.id`,
      [done.map((d) => d.id), done.map((d) => d.outcome), done.map((d) => d.runId), done.map((d) => d.experimentId), done.map((d) => d.message)],
    );
  }
  return { queued: done.filter((d) => d.outcome === "QUEUED").length, refused: done.filter((d) => d.outcome === "REFUSED").length };
}
