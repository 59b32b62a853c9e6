import type { CommandSpec } from "../catalog";
import type { GuardResult } from "./job-guard";
import type { Logger } from "./logger";
import type { FinishOutcome, LogStreamer } from "./log-streamer";
import type { FinishRequest, Job } from "../protocol/schemas";
import type { RunningCommand, RunOptions } from "./pty-runner";
import { layOutFile, removeRunDir } from "./run-dir";

export interface RunJobDeps {
  guard(job: Job): Promise<GuardResult>;
  start(spec: CommandSpec, opts: RunOptions): RunningCommand;
  /** Opens the run's spool and streamer; the streamer reports the server's cancel requests. */
  openStreamer(job: Job, target: string | null, onCancelRequested: () => void): LogStreamer;
  snapshot(target: string): Promise<Record<string, unknown> | null>;
  log: Logger;
  /** Remembers the run directory in use (null: none) so that a restart after a crash removes it. */
  noteRunDir?(dir: string | null): void;
}

const NOT_RUN = { signal: null, durationMs: 0, cancelled: false, timedOut: false, interrupted: false, profile: null } as const;

const layoutNames = (c: CommandSpec) => (c.layout ?? []).map((f) => f.file).join(", ");

function seconds(ms: number): string {
  return `${(ms / 1000).toFixed(1)} s`;
}

/** One claimed job, from the guard's verdict to the delivered finish. */
export class JobRun {
  private cancelRequested = false;
  private command: RunningCommand | null = null;
  private streamer: LogStreamer | null = null;

  constructor(
    readonly job: Job,
    private readonly deps: RunJobDeps,
  ) {}

  /** Cancels now if the probe runs, or as soon as it would start. */
  cancel(why: string): void {
    if (!this.cancelRequested) this.deps.log.info(`run ${this.job.runId}: cancelling (${why})`);
    this.cancelRequested = true;
    this.command?.cancel();
  }

  /** Shutdown deadline passed: stop waiting for the server; the spool keeps the rest. */
  abandonDelivery(): void {
    this.streamer?.stop();
  }

  async execute(): Promise<FinishOutcome> {
    const { job, deps } = this;
    const verdict = await deps.guard(job).catch(
      (err: unknown): GuardResult => ({ ok: false, reason: `the job guard failed: ${err instanceof Error ? err.message : String(err)}` }),
    );
    const target = verdict.ok ? verdict.target : null;
    const streamer = deps.openStreamer(job, target, () => this.cancel("cancelled in the dashboard"));
    this.streamer = streamer;
    if (!verdict.ok) {
      deps.log.warn(`run ${job.runId}: refused ${job.probe || "(no probe)"}: ${verdict.reason}`);
      return streamer.finish({ ...NOT_RUN, exitCode: null, error: verdict.reason });
    }
    deps.noteRunDir?.(verdict.runDir);
    try {
      return await this.runInRunDir(verdict, streamer);
    } finally {
      // Also after a failure, a timeout or a cancel: nothing the probe wrote stays behind.
      await this.removeRunDir(verdict.runDir);
    }
  }

  private removed = false;

  /** Once, as soon as the probe has ended: the finish may take long to deliver while the server is away. */
  private async removeRunDir(dir: string): Promise<void> {
    if (this.removed) return;
    this.removed = true;
    await removeRunDir(dir);
    this.deps.noteRunDir?.(null);
  }

  private async runInRunDir(verdict: Extract<GuardResult, { ok: true }>, streamer: LogStreamer): Promise<FinishOutcome> {
    const { job, deps } = this;
    if (this.cancelRequested) return streamer.finish({ ...NOT_RUN, exitCode: null, error: null, cancelled: true });
    const { command } = verdict;
    try {
      for (const l of command.layout ?? []) await layOutFile(l.file, l.bytes, () => this.cancelRequested);
    } catch (err) {
      const error = `cannot lay out ${layoutNames(command)}: ${err instanceof Error ? err.message : String(err)}`;
      return streamer.finish({ ...NOT_RUN, exitCode: null, error });
    }
    if (this.cancelRequested) return streamer.finish({ ...NOT_RUN, exitCode: null, error: null, cancelled: true });

    deps.log.info(`run ${job.runId}: ${command.file} ${command.args.join(" ")} (in ${command.cwd}, timeout ${command.timeoutSec} s)`);
    this.command = deps.start(command, { target: verdict.target, onData: (text) => streamer.write(text) });
    const outcome = await this.command.done;
    const profile = await deps.snapshot(verdict.target).catch(() => null);
    await this.removeRunDir(verdict.runDir);
    const how = outcome.timedOut
      ? "timed out"
      : outcome.cancelled
        ? "cancelled"
        : outcome.signal
          ? `killed by ${outcome.signal}`
          : `exit ${outcome.exitCode}`;
    deps.log.info(`run ${job.runId}: ${how} after ${seconds(outcome.durationMs)}`);
    const finish: Omit<FinishRequest, "lastSeq"> = {
      exitCode: outcome.exitCode,
      signal: outcome.signal,
      durationMs: outcome.durationMs,
      error: outcome.error ?? (outcome.timedOut ? `the probe ran longer than its ${command.timeoutSec} s timeout and was stopped` : null),
      cancelled: outcome.cancelled,
      timedOut: outcome.timedOut,
      interrupted: false,
      profile,
    };
    const delivered = await streamer.finish(finish);
    if (delivered === "pending") deps.log.warn(`run ${job.runId}: finish not delivered yet; it stays in the spool for the next start`);
    return delivered;
  }
}
