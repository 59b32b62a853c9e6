// --history: the host's own recorded daily files (the catalog's history probe reads them), each
// finished day uploaded once as a run
// with origin HISTORY. Today's file is still being written, so it waits until the day is over
// (the next check after midnight sends it). The server keeps one run per host and day; the agent
// also remembers what it sent (history-state.json in the state dir) so that a restart neither
// re-reads nor re-sends days it already delivered. A failed read or upload is retried at the
// next check; nothing else is spooled, since the sa files themselves are the durable copy.
import { execFile } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { writeFileDurably } from "../core/durable-write";
import { MAX_HISTORY_OUTPUT_CHARS, type HistoryDayRequest } from "../protocol/schemas";
import { historyProbe } from "../catalog";
import type { HostHistorySource } from "../core/probe";
import type { Logger } from "./logger";

/** The catalog's history reader (the probe that owns the daily files and their format). */
export function historySource(): HostHistorySource {
  const source = historyProbe()?.history;
  if (!source) throw new Error("no probe in the catalog reads a host's history");
  return source;
}

/** The local calendar date of `now` as YYYY-MM-DD: the host's "today", as its own files are dated. */
export function localDay(now: Date): string {
  const pad = (n: number) => String(n).padStart(2, "0");
  return `${now.getFullYear()}-${pad(now.getMonth() + 1)}-${pad(now.getDate())}`;
}

/** How often the directories are looked at again after the check at start. */
export const HISTORY_CHECK_MS = 60 * 60 * 1000;

export interface SaFile {
  path: string;
  size: number;
  mtimeMs: number;
}

/** Regular sa files (not links: a link could point the agent at any file) in the given dirs, oldest name first. */
export function discoverSaFiles(dirs: readonly string[]): SaFile[] {
  const found: SaFile[] = [];
  for (const dir of dirs) {
    let names: string[];
    try {
      names = fs.readdirSync(dir);
    } catch {
      continue; // A distribution writes one of the default dirs, not both.
    }
    for (const name of names.filter((n) => historySource().isDayFile(n)).sort()) {
      const file = path.join(dir, name);
      const st = fs.lstatSync(file, { throwIfNoEntry: false });
      if (st?.isFile()) found.push({ path: file, size: st.size, mtimeMs: st.mtimeMs });
    }
  }
  return found;
}

interface HistoryState {
  version: 1;
  /** Day (the file's header date) → the run the server stored it as. */
  days: Record<string, { runId: string; file: string }>;
  /** File → its size and mtime when it was last read, and the day it held. */
  files: Record<string, { size: number; mtimeMs: number; day: string; tooLarge?: boolean }>;
}

export function loadHistoryState(file: string): HistoryState {
  try {
    const s = JSON.parse(fs.readFileSync(file, "utf8")) as Partial<HistoryState>;
    if (s.version === 1 && typeof s.days === "object" && typeof s.files === "object") return s as HistoryState;
  } catch {
    // Missing or unreadable: start afresh; the server's dedupe still prevents a second copy.
  }
  return { version: 1, days: {}, files: {} };
}

export interface SadfOutput {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** Runs the history probe's reader on one file: argv, no shell. */
export function runSadf(file: string): Promise<SadfOutput> {
  const cmd = historySource().command(file);
  return new Promise((resolve) => {
    execFile(
      cmd.file,
      cmd.args,
      { env: { ...process.env, ...cmd.env }, cwd: cmd.cwd, timeout: cmd.timeoutSec * 1000, maxBuffer: 4 * MAX_HISTORY_OUTPUT_CHARS },
      (err, stdout, stderr) => {
        const code = err ? (typeof (err as { code?: unknown }).code === "number" ? ((err as { code: number }).code) : null) : 0;
        resolve({ code, stdout: String(stdout), stderr: String(stderr) || (err && code === null ? err.message : "") });
      },
    );
  });
}

export interface HistoryDeps {
  log: Logger;
  upload(body: HistoryDayRequest, signal?: AbortSignal): Promise<{ runId: string; created: boolean }>;
  sadf?: (file: string) => Promise<SadfOutput>;
  now?: () => Date;
}

export interface CheckReport {
  uploaded: string[];
  /** Days the server already held (sent before this state file knew it). */
  known: string[];
  /** Files holding today (or a later day, if the clock went back): not finished yet. */
  unfinished: string[];
  failed: string[];
}

export class HostHistory {
  private readonly stateFile: string;

  constructor(
    private readonly dirs: readonly string[],
    stateDir: string,
    private readonly deps: HistoryDeps,
  ) {
    this.stateFile = path.join(stateDir, "history-state.json");
  }

  /** One pass over the directories; throws only what the caller must act on (a revoked credential). */
  async check(signal?: AbortSignal): Promise<CheckReport> {
    const { log } = this.deps;
    const state = loadHistoryState(this.stateFile);
    const report: CheckReport = { uploaded: [], known: [], unfinished: [], failed: [] };
    const today = localDay((this.deps.now ?? (() => new Date()))());
    for (const f of discoverSaFiles(this.dirs)) {
      if (signal?.aborted) break;
      const seen = state.files[f.path];
      // Unchanged since it was read and its day is delivered (or refused as too large): nothing to do.
      if (seen && seen.size === f.size && seen.mtimeMs === f.mtimeMs && (state.days[seen.day] || seen.tooLarge)) continue;
      const out = await (this.deps.sadf ?? runSadf)(f.path);
      const day = out.code === 0 ? historySource().fileDate(out.stdout) : null;
      if (!day) {
        log.warn(`history: ${historySource().command(f.path).file} could not read ${f.path} (${out.stderr.trim().split("\n")[0] || `exit ${out.code}`}); trying again at the next check`);
        report.failed.push(f.path);
        continue;
      }
      if (day >= today) {
        report.unfinished.push(f.path);
        continue;
      }
      const remember = (extra: { tooLarge?: boolean } = {}) => {
        state.files[f.path] = { size: f.size, mtimeMs: f.mtimeMs, day, ...extra };
        writeFileDurably(this.stateFile, JSON.stringify(state));
      };
      // saDD and saYYYYMMDD of the same day (or a copy): one upload per day.
      if (state.days[day]) {
        remember();
        continue;
      }
      if (out.stdout.length > MAX_HISTORY_OUTPUT_CHARS) {
        log.warn(`history: ${f.path} (${day}) gives ${out.stdout.length} characters of output, more than the ${MAX_HISTORY_OUTPUT_CHARS} a day may send; skipped`);
        remember({ tooLarge: true });
        continue;
      }
      try {
        const r = await this.deps.upload({ day, file: f.path, output: out.stdout }, signal);
        state.days[day] = { runId: r.runId, file: f.path };
        remember();
        (r.created ? report.uploaded : report.known).push(day);
        log.info(`history: ${day} from ${f.path} ${r.created ? "uploaded" : "was already on the server"} as run ${r.runId}`);
      } catch (err) {
        if ((err as { kind?: string }).kind === "revoked" || signal?.aborted) throw err;
        report.failed.push(f.path);
        log.warn(`history: uploading ${day} from ${f.path} failed (${err instanceof Error ? err.message : String(err)}); trying again at the next check`);
      }
    }
    return report;
  }
}
