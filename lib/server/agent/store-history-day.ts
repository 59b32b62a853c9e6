import type { HistoryDayRequest } from "../../../probes/protocol/schemas";
import { historyProbe } from "../../../probes/catalog";
import { AppError } from "../../http/app-error";
import { pgPool } from "../../pg-pool";
import { storableText } from "../runs/sanitize-log";
import { parseForStorage, storeParsedRun } from "../runs/store-parsed-run";

export interface StoredHistoryDay {
  runId: string;
  /** false: this host's day was already stored, and runId names that run. */
  created: boolean;
}

async function existingDay(hostId: string, day: string): Promise<string | null> {
  const r = await pgPool().query<{ id: string }>(`SELECT id FROM probe_runs WHERE host_id = $1::uuid AND history_day = $2::date`, [hostId, day]);
  return r.rows[0]?.id ?? null;
}

/** sysstat's first release was in 1999: an earlier day is not a sysstat file's. */
export const EARLIEST_HISTORY_DAY = "1999-01-01";

/**
 * A finished day, in the host's terms, that sysstat could have recorded. The agent sends only days
 * before its own local today; the server does not know the host's time zone, and a host at UTC+14
 * has finished a day that is still today in UTC, so the bound is UTC's today (inclusive) — a day
 * after it has not finished anywhere. The schema has already refused impossible dates.
 */
function refuseImplausibleDay(day: string, now: Date): void {
  const todayUtc = now.toISOString().slice(0, 10);
  if (day > todayUtc) {
    throw new AppError("BAD_REQUEST", `The day ${day} has not finished yet (today is ${todayUtc} in UTC): only finished days are stored.`, { day: ["not a finished day"] });
  }
  if (day < EARLIEST_HISTORY_DAY) {
    throw new AppError("BAD_REQUEST", `The day ${day} is before ${EARLIEST_HISTORY_DAY}, earlier than any sysstat file.`, { day: ["before sysstat existed"] });
  }
}

/**
 * One finished day of a host's recorded history, sent by its agent's --history, kept as a SUCCEEDED
 * run of the catalog's history probe with origin HISTORY: parsed by its parser in a worker and stored
 * like an import (store-parsed-run.ts), the output kept as the run's log, the host's profile copied onto it. One run per host and
 * day (the file's own header date, which must match `day`): a repeat answers the stored run with
 * created false — an agent whose state file was lost, or whose answer got lost, then simply
 * records it — rather than a 409 it would have to treat as success anyway.
 */
export async function storeHistoryDay(opts: { hostId: string; body: HistoryDayRequest; now?: Date }): Promise<StoredHistoryDay> {
  const { hostId, body } = opts;
  refuseImplausibleDay(body.day, opts.now ?? new Date());
  const probe = historyProbe();
  if (!probe?.history) throw new AppError("BAD_REQUEST", "This server has no probe that reads a host's history.");
  const headerDay = probe.history.fileDate(body.output);
  if (headerDay === null) {
    throw new AppError("BAD_REQUEST", `The output is not what ${probe.id} makes of a daily history file: no file date in its header.`, { output: ["no file-date"] });
  }
  if (headerDay !== body.day) {
    throw new AppError("BAD_REQUEST", `The day ${body.day} does not match the file's own header date ${headerDay}.`, { day: ["header date differs"] });
  }
  const known = await existingDay(hostId, body.day);
  if (known) return { runId: known, created: false };

  const parsed = await parseForStorage(probe.id, body.output, {
    unreadable: (error) => `The ${probe.id} parser could not read ${body.file}: ${error}`,
    tooLarge: (message) => `This day is too large to store: ${message}`,
    gaveUp: (message) => `This day could not be stored: ${message}`,
  });
  if (parsed.measurements === 0) throw new AppError("BAD_REQUEST", `${body.file} holds no samples for ${body.day}.`, { output: ["no samples"] });

  const notes = storableText(`host history of ${body.day}, read from ${body.file}`).slice(0, 5000);
  const run = { probe: probe.id, origin: "HISTORY", hostId, hostLabel: null, notes, createdById: null, historyDay: body.day } as const;
  const stored = await storeParsedRun(run, body.output, parsed);
  if (stored) return { runId: stored.id, created: true };
  // Another upload of the same day got there first (ON CONFLICT), or the host was deleted.
  const raced = await existingDay(hostId, body.day);
  if (!raced) throw new AppError("NOT_FOUND", "This agent's host no longer exists.");
  return { runId: raced, created: false };
}
