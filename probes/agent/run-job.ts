import path from "node:path";
import type { CommandSpec } from "../catalog";
import type { ArmSetup } from "./arm-setup";
import type { GuardResult } from "./job-guard";
import type { Logger } from "./logger";
import type { FinishOutcome, LogStreamer } from "./log-streamer";
import type { FinishRequest, Job, SetupReport } from "../protocol/schemas";
import type { RunningCommand, RunOptions } from "./pty-runner";
import { appendCollectedFiles } from "./collect-files";
import { layOutFile, removeRunDir } from "./run-dir";
import { startTelemetry, type TelemetryLoop } from "./telemetry-loop";
import { frameStep } from "../core/steps";

export interface RunJobDeps {
  /** allowedDirs: instead of --allow (a lab arm's probe may write only in its own mount). */
  guard(job: Job, allowedDirs?: readonly string[]): Promise<GuardResult>;
  /** The setup of a job that carries one (an experiment's arm); absent: such jobs are refused. */
  openArm?(job: Job): ArmSetup;
  start(spec: CommandSpec, opts: RunOptions): RunningCommand;
  /** Opens the run's spool and streamer; the streamer reports the server's cancel requests. */
  openStreamer(job: Job, target: string | null, onCancelRequested: () => void): LogStreamer;
  snapshot(target: string): Promise<Record<string, unknown> | null>;
  log: Logger;
  /** Sample the machine once a second while the probe runs (default on). */
  telemetry?: boolean;
  /** Remembers the run directory in use (null: none) so that a restart after a crash removes it. */
  noteRunDir?(dir: string | null): void;
}

type FinishBody = Omit<FinishRequest, "lastSeq">;

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
  /** What the arm's setup did, once it is taken down. */
  setupReport: SetupReport | null = null;
  /** For the finish's agentNotes: what went wrong around the probe without stopping it. */
  private readonly notes: string[] = [];

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

  /**
   * The agent exits at once (a second stop request): the probe is stopped first — it would
   * otherwise go on loading the disk with nobody to read it. SIGTERM to its process group, as a
   * cancel does (fio's main process then ends the job processes it forked, which run in sessions
   * of their own), SIGKILL to the group after at most `graceMs`. Its run directory is removed at
   * the next start (the run-dir journal); its output is in the spool.
   */
  async stopProbeNow(graceMs = 2000): Promise<void> {
    const command = this.command;
    if (!command?.pid) return;
    this.cancelRequested = true;
    command.cancel();
    await Promise.race([command.done, new Promise((r) => setTimeout(r, graceMs))]);
    try {
      process.kill(-command.pid, "SIGKILL");
    } catch {
      // already gone
    }
  }

  /** Shutdown deadline passed: stop waiting for the server; the spool keeps the rest. */
  abandonDelivery(): void {
    this.streamer?.stop();
  }

  async execute(): Promise<FinishOutcome> {
    const { job, deps } = this;
    const arm = job.setup ? (deps.openArm?.(job) ?? null) : null;
    // An arm's spool exists before its setup changes anything, so that a crash during the
    // setup still ends in an (interrupted) finish at the next start.
    let streamer = arm ? this.open(null) : null;
    const guarded = arm
      ? arm.prepare((j, dirs) => deps.guard(j, dirs), () => this.cancelRequested)
      : job.setup
        ? Promise.resolve<GuardResult>({ ok: false, reason: "this agent does not run experiment arms" })
        : deps.guard(job);
    const verdict = await guarded.catch(
      (err: unknown): GuardResult => ({ ok: false, reason: `the job guard failed: ${err instanceof Error ? err.message : String(err)}` }),
    );
    streamer ??= this.open(verdict.ok ? verdict.target : null);
    let fin: FinishBody;
    try {
      if (!verdict.ok) {
        deps.log.warn(`run ${job.runId}: refused ${job.probe || "(no probe)"}: ${verdict.reason}`);
        fin = { ...NOT_RUN, exitCode: null, error: verdict.reason };
      } else {
        try {
          this.noteRunDir(verdict.runDir);
          fin = await this.runInRunDir(verdict, streamer, arm);
        } catch (err) {
          // Whatever broke around the probe, the run ends with a finish that says what, not LOST.
          const why = err instanceof Error ? err.message : String(err);
          deps.log.error(`run ${job.runId}: ${why}`);
          fin = { ...NOT_RUN, exitCode: null, error: `the agent failed while running the probe: ${why}` };
        } finally {
          // Also after a failure, a timeout or a cancel: nothing the probe wrote stays behind.
          await removeRunDir(verdict.runDir);
          this.noteRunDir(null);
        }
      }
    } finally {
      // Settings back and lab down before the finish, which reports both (and after a throw).
      if (arm) this.setupReport = await this.teardown(arm);
    }
    if (this.setupReport) fin = { ...fin, setup: this.setupReport };
    if (this.notes.length > 0) fin = { ...fin, agentNotes: this.notes };
    const delivered = await streamer.finish(fin);
    if (delivered === "pending") deps.log.warn(`run ${job.runId}: finish not delivered yet; it stays in the spool for the next start`);
    return delivered;
  }

  /**
   * The run-dir journal only lets a restart after a crash remove the scratch files: when the
   * state dir is full (ENOSPC) the run goes on — its directory is still removed when the probe
   * ends — and the finish says what a crash would have left.
   */
  private noteRunDir(dir: string | null): void {
    try {
      this.deps.noteRunDir?.(dir);
    } catch (err) {
      const why = err instanceof Error ? err.message : String(err);
      this.deps.log.warn(`run ${this.job.runId}: cannot note the run directory in the state dir (${why})`);
      if (dir) this.notes.push(`The agent could not note the run directory ${dir} in its state directory (${why}); had it been killed during the run, that directory would have been left behind.`.slice(0, 500));
    }
  }

  /** A teardown that throws (a journal it cannot rewrite) must not cost the run its finish. */
  private async teardown(arm: ArmSetup): Promise<SetupReport> {
    try {
      return await arm.teardown();
    } catch (err) {
      const why = err instanceof Error ? err.message : String(err);
      this.deps.log.error(`run ${this.job.runId}: the arm's teardown failed: ${why}`);
      return { lab: null, tunables: [], droppedCaches: false, error: null, cleanupError: `the teardown failed: ${why}; the journals are read again at the next start`.slice(0, 2000) };
    }
  }

  private async startTelemetry(target: string, streamer: LogStreamer): Promise<TelemetryLoop | null> {
    try {
      return await startTelemetry({ target, onSample: (s) => streamer.addSample(s) });
    } catch (err) {
      this.deps.log.warn(`run ${this.job.runId}: no telemetry (${err instanceof Error ? err.message : String(err)})`);
      return null;
    }
  }

  private open(target: string | null): LogStreamer {
    this.streamer = this.deps.openStreamer(this.job, target, () => this.cancel("cancelled in the dashboard"));
    return this.streamer;
  }

  /**
   * The command, and while it declares `next` (a stepped probe: fio's SNIA rounds) each step the
   * probe asks for after one that exited 0. Every step's output goes into the one stream, after a
   * step frame; a cancel stops the step that runs and starts no other, so what ran is kept.
   */
  private async runSteps(first: CommandSpec, target: string, streamer: LogStreamer): Promise<Awaited<RunningCommand["done"]>> {
    const { job, deps } = this;
    const stepped = first.next !== undefined;
    let spec: CommandSpec | null = first;
    let totalMs = 0;
    let outcome: Awaited<RunningCommand["done"]> | null = null;
    for (let step = 1; spec; step++) {
      if (stepped) {
        streamer.write(frameStep(step));
        if (step > 1) deps.log.info(`run ${job.runId}: step ${step}: ${spec.file} ${spec.args.join(" ")}`);
      }
      let stepOutput = "";
      this.command = deps.start(spec, {
        target,
        onData: (text) => {
          if (stepped) stepOutput += text;
          streamer.write(text);
        },
      });
      const done: Awaited<RunningCommand["done"]> = await this.command.done;
      totalMs += done.durationMs;
      outcome = { ...done, durationMs: totalMs };
      // Before the finish, in the same stream: the files the command declares belong to its output.
      await appendCollectedFiles(spec, (text) => streamer.write(text)).catch((err: unknown) =>
        deps.log.warn(`run ${job.runId}: cannot append the command's files: ${err instanceof Error ? err.message : String(err)}`),
      );
      if (!spec.next || done.exitCode !== 0 || done.cancelled || done.timedOut || this.cancelRequested) break;
      spec = this.nextStep(first, spec, stepOutput, step);
    }
    return outcome!;
  }

  /**
   * The step after `spec`: the same binary the guard resolved, in the same run directory (the
   * guard checked only the first command), or null. A probe's `next` that throws ends the run.
   */
  private nextStep(first: CommandSpec, spec: CommandSpec, stepOutput: string, step: number): CommandSpec | null {
    let next: CommandSpec | null;
    try {
      next = spec.next?.(stepOutput, step) ?? null;
    } catch (err) {
      this.deps.log.warn(`run ${this.job.runId}: no step after ${step}: ${err instanceof Error ? err.message : String(err)}`);
      return null;
    }
    if (!next) return null;
    if (next.cwd !== first.cwd || next.file !== path.basename(first.file)) {
      this.deps.log.warn(`run ${this.job.runId}: step ${step + 1} would leave the run directory or run another binary; the run ends`);
      return null;
    }
    return { ...next, file: first.file };
  }

  private async runInRunDir(verdict: Extract<GuardResult, { ok: true }>, streamer: LogStreamer, arm: ArmSetup | null): Promise<FinishBody> {
    const { job, deps } = this;
    if (this.cancelRequested) return { ...NOT_RUN, exitCode: null, error: null, cancelled: true };
    const { command } = verdict;
    try {
      for (const l of command.layout ?? []) await layOutFile(l.file, l.bytes, () => this.cancelRequested, l.content);
    } catch (err) {
      const error = `cannot lay out ${layoutNames(command)}: ${err instanceof Error ? err.message : String(err)}`;
      return { ...NOT_RUN, exitCode: null, error };
    }
    const setupError = await arm?.beforeProbe();
    if (setupError) return { ...NOT_RUN, exitCode: null, error: setupError };
    if (this.cancelRequested) return { ...NOT_RUN, exitCode: null, error: null, cancelled: true };

    deps.log.info(`run ${job.runId}: ${command.file} ${command.args.join(" ")} (in ${command.cwd}, timeout ${command.timeoutSec} s)`);
    const telemetry = deps.telemetry === false ? null : await this.startTelemetry(verdict.target, streamer);
    let outcome: Awaited<RunningCommand["done"]>;
    try {
      outcome = await this.runSteps(command, verdict.target, streamer);
    } finally {
      await telemetry?.stop();
    }
    const profile = await deps.snapshot(verdict.target).catch(() => null);
    const how = outcome.timedOut
      ? "timed out"
      : outcome.cancelled
        ? "cancelled"
        : outcome.signal
          ? `killed by ${outcome.signal}`
          : `exit ${outcome.exitCode}`;
    deps.log.info(`run ${job.runId}: ${how} after ${seconds(outcome.durationMs)}`);
    return {
      exitCode: outcome.exitCode,
      signal: outcome.signal,
      durationMs: outcome.durationMs,
      error: outcome.error ?? (outcome.timedOut ? `the probe ran longer than its ${command.timeoutSec} s timeout and was stopped` : null),
      cancelled: outcome.cancelled,
      timedOut: outcome.timedOut,
      interrupted: false,
      profile,
    };
  }
}
