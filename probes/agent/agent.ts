// The agent's loop: register (or load the credential), report the host, deliver what earlier
// processes left in the spool, then claim one job at a time — concurrent probes would disturb
// each other's measurements — guard it, run it in a pty and stream its output.
import { existsSync } from "node:fs";
import path from "node:path";
import { collectHostProfile, collectTargetProfile } from "../profile/collect-host";
import { detectCapabilities } from "../profile/capabilities";
import { AgentApi } from "./agent-api";
import { ArmSetup, describeSetup } from "./arm-setup";
import { experimentCapabilities, recoverHost, type ExperimentHostConfig, type Recovery } from "./experiment-host";
import { DEFAULT_BACKOFF, sleep, type BackoffPolicy } from "./backoff";
import { ensureStateDir } from "./credential-store";
import { Heartbeat } from "./heartbeat";
import { AgentHttpClient, HttpError, type AgentTransport } from "./http-client";
import { HISTORY_CHECK_MS, HostHistory } from "./history";
import { guardJob } from "./job-guard";
import type { Logger } from "./logger";
import { LogStreamer, type StreamerDeps } from "./log-streamer";
import { CLAIM_WAIT_SEC, type AgentRequests, type Capabilities, type Job } from "../protocol/schemas";
import { startCommand } from "./pty-runner";
import { RunDirJournal } from "./run-dir";
import { JobRun, type RunJobDeps } from "./run-job";
import { RunSpool } from "./spool";
import { lockStateDir, type StateLock } from "./state-lock";
import { replaySpools } from "./spool-replay";
import { incompatibleExit, isIncompatible, revokedExit, signIn, type AgentExit } from "./sign-in";
import { AGENT_VERSION } from "./version";

export interface AgentConfig {
  server: string;
  token: string | null;
  allowDirs: string[];
  stateDir: string;
  /** Run one job, then exit. */
  once: boolean;
  /** The checked `--lab` dir (real path), or null. */
  labDir?: string | null;
  /** `--lab-device` paths. */
  labDevices?: readonly string[];
  /** `--allow-tunable` names. */
  allowTunables?: readonly string[];
  /** --history: sysstat dirs whose finished days are uploaded; null without the flag. */
  history?: string[] | null;
  /** Sample the machine while probes run (default on). */
  telemetry?: boolean;
  /** `--transport`: the agent socket with HTTP fallback (default), the socket only, or HTTP only. */
  transport?: AgentTransport;
}

export interface AgentDeps {
  log: Logger;
  collectProfile?: (dirs: string[]) => Promise<Record<string, unknown>>;
  detectCapabilities?: (dirs: string[]) => Promise<Capabilities>;
  snapshot?: (target: string) => Promise<Record<string, unknown> | null>;
  start?: RunJobDeps["start"];
  heartbeatActiveMs?: number;
  heartbeatIdleMs?: number;
  claimWaitSec?: number;
  /** How long a graceful stop waits for the last run's output to reach the server. */
  shutdownFlushMs?: number;
  backoff?: BackoffPolicy;
  /** How often an idle agent detects its tools again (something may have been installed). */
  toolsRecheckMs?: number;
  /** Pause between history checks (default hourly). */
  historyCheckMs?: number;
}

/** Tools installed or removed while the agent runs show up within this time, or at once on request. */
export const TOOLS_RECHECK_MS = 5 * 60_000;

export class Agent {
  private readonly stopper = new AbortController();
  private current: JobRun | null = null;
  /** Last acknowledged chunk upload: it stands in for a heartbeat (see Heartbeat.lastUploadAt). */
  private lastUploadAt = 0;
  /** When the tools were last detected and reported. */
  private toolsCheckedAt = Date.now();
  /** What the last detection found (tools, lab, tunables). */
  private capabilities: Capabilities | null = null;
  private exit: AgentExit | null = null;
  private readonly api: AgentApi;
  private readonly http: AgentHttpClient;

  constructor(
    private readonly config: AgentConfig,
    private readonly deps: AgentDeps,
  ) {
    this.http = new AgentHttpClient({
      server: config.server,
      transport: config.transport ?? "auto",
      onTransport: (t) =>
        deps.log.info(t === "socket" ? `talking to ${config.server} over the agent socket` : `talking to ${config.server} over HTTP${config.transport === "http" ? "" : " (the server has no agent socket)"}`),
      backoff: deps.backoff ?? DEFAULT_BACKOFF,
      onRetry: (err, attempt, delay) => {
        if (attempt === 1 || attempt % 10 === 0) deps.log.warn(`${err.message}; retrying (attempt ${attempt}, next in ${(delay / 1000).toFixed(1)} s)`);
      },
    });
    this.api = new AgentApi(this.http);
  }

  /** Stop now: no new claims, cancel the running probe, flush its output for a bounded time. */
  stop(reason: string, exit: AgentExit = { code: 0, message: `stopped (${reason})` }): void {
    if (this.stopper.signal.aborted) return;
    this.exit ??= exit;
    this.deps.log.info(`stopping: ${reason}`);
    this.stopper.abort(new Error(reason));
    if (this.current) this.wind(this.current, reason);
  }

  /**
   * Graceful stop (a signal): no new claims; the running probe may finish within `graceMs`, and
   * only then is it cancelled. Either way its output and finish are delivered (bounded by
   * shutdownFlushMs after the cancel), so a stop does not cost the run. Idle: stops at once.
   */
  drain(reason: string, graceMs: number): void {
    if (this.stopper.signal.aborted) return;
    const run = this.current;
    if (!run || graceMs <= 0) return this.stop(reason);
    this.exit ??= { code: 0, message: `stopped (${reason})` };
    this.deps.log.info(`stopping: ${reason}; run ${run.job.runId} may finish within ${Math.round(graceMs / 1000)} s, then it is cancelled`);
    this.stopper.abort(new Error(reason));
    // Also bounds the delivery of a probe that finished in time but whose output is still on its way.
    setTimeout(() => {
      if (this.current === run) this.wind(run, `${reason}: the stop grace of ${Math.round(graceMs / 1000)} s is over`);
    }, graceMs).unref();
  }

  /** Before an exit at once: the running probe must not outlive the agent (bounded: about 2 s). */
  async stopProbeNow(): Promise<void> {
    await this.current?.stopProbeNow();
  }

  /** Cancels a run for a stop and bounds how long its output may take to reach the server. */
  private wind(run: JobRun, reason: string): void {
    run.cancel(reason);
    setTimeout(() => run.abandonDelivery(), this.deps.shutdownFlushMs ?? 10_000).unref();
  }

  private revoked(err: HttpError): void {
    this.stop("the credential was refused", revokedExit(err, this.config.stateDir));
  }

  /** A server upgraded while this agent ran may refuse its version at the next capabilities report. */
  private incompatible(err: HttpError): void {
    this.stop("the server refused this agent's version", incompatibleExit(err, this.config.server));
  }

  /**
   * The refusals no retry can fix — the credential revoked, this agent's version refused — stop
   * the agent with their exit; true when `err` was one, so the caller does nothing more.
   */
  private stoppedForGood(err: unknown): boolean {
    if (err instanceof HttpError && err.kind === "revoked") this.revoked(err);
    else if (isIncompatible(err)) this.incompatible(err);
    else return false;
    return true;
  }

  async run(): Promise<AgentExit> {
    const { config } = this;
    ensureStateDir(config.stateDir);
    let lock: StateLock;
    try {
      lock = lockStateDir(config.stateDir);
    } catch (err) {
      return { code: 2, message: err instanceof Error ? err.message : String(err) };
    }
    try {
      return await this.runLocked();
    } finally {
      this.http.close();
      lock.release();
    }
  }

  private async runLocked(): Promise<AgentExit> {
    const { config, deps } = this;
    const log = deps.log;
    const signal = this.stopper.signal;
    // Before anything is measured or claimed: what a killed agent left changed is put back.
    let recovery: Recovery;
    try {
      recovery = await recoverHost(this.experimentHost, log);
    } catch (err) {
      // An unreadable journal means not knowing what to put back: measuring now could mislead.
      return { code: 2, message: `cannot read the experiment journals in ${config.stateDir}: ${err instanceof Error ? err.message : String(err)}` };
    }
    const { profile, capabilities } = await this.detect();
    const { lab, tunables } = capabilities;
    if (lab) log.info(`lab: ${lab.dir} (${lab.fileSystems.join(", ") || "no mkfs found"})`);
    if (tunables?.allowed.length) log.info(`tunables experiments may change: ${tunables.allowed.join(", ")}`);
    const tools = Object.entries(capabilities.tools).map(([t, c]) => (c.installed ? `${t} ${c.version ?? "?"}` : `${t} missing`));
    log.info(`probebook-agent ${AGENT_VERSION}: server ${config.server}, allowed ${capabilities.allowedDirs.join(", ")}; ${tools.join(", ")}`);

    const signedIn = await signIn({ ...config, api: this.api, http: this.http, log, profile, capabilities, signal });
    if ("exit" in signedIn) return this.exit ?? signedIn.exit;
    const { hostId } = signedIn;
    if (this.exit) return this.exit;

    const heartbeat = new Heartbeat({
      send: (ids) => this.api.heartbeat({ runningRunIds: ids }),
      running: () => (this.current ? [this.current.job.runId] : []),
      lastUploadAt: () => this.lastUploadAt,
      onCancel: () => this.current?.cancel("cancelled in the dashboard"),
      onRevoked: (err) => this.revoked(err),
      log,
      activeMs: deps.heartbeatActiveMs,
      idleMs: deps.heartbeatIdleMs,
    });
    heartbeat.start();
    // Ends with the loop too (--once), not only with a stop.
    const historyStop = new AbortController();
    const history = this.startHistory(AbortSignal.any([signal, historyStop.signal]));
    try {
      const stale = await this.runDirs.removeStale();
      if (stale) log.info(`removed ${stale}, which an earlier agent process left when it stopped in the middle of a run`);
      await replaySpools({ spoolRoot: this.spoolRoot, hostId, deps: this.streamerDeps(), snapshot: this.snapshot, signal, setups: recovery.setups });
      while (!signal.aborted) {
        const claimed = await this.claim();
        if (claimed && "requests" in claimed) {
          await this.answer(claimed.requests);
          continue;
        }
        const job = claimed;
        if (!job) {
          if (Date.now() - this.toolsCheckedAt >= (deps.toolsRecheckMs ?? TOOLS_RECHECK_MS)) await this.recheckTools("periodic check");
          continue;
        }
        log.info(`run ${job.runId}: claimed ${job.probe}${job.setup ? ` with setup: ${describeSetup(job.setup)}` : ""}`);
        this.current = new JobRun(job, this.jobDeps(hostId));
        // A job that arrived as the stop did: finished as cancelled rather than run.
        if (signal.aborted) this.wind(this.current, "the agent is stopping");
        heartbeat.poke();
        try {
          await this.current.execute();
        } catch (err) {
          log.error(`run ${job.runId}: ${err instanceof Error ? err.message : String(err)}`);
        } finally {
          this.current = null;
          heartbeat.poke();
        }
        // The host page shows what is changed right now: after an arm, that is the news.
        // The latest detection's tools, not those of the start: a re-check may have found more since.
        if (job.setup) await this.resendCapabilities(this.capabilities ?? capabilities);
        if (config.once) break;
      }
    } finally {
      heartbeat.stop();
      historyStop.abort();
      await history;
    }
    return this.exit ?? { code: 0, message: config.once ? "done: one job was run (--once)" : "stopped" };
  }

  private async detect(): Promise<{ profile: Record<string, unknown>; capabilities: Capabilities }> {
    const { config, deps } = this;
    // The lab and tunables are reported with the tools: a heartbeat's capabilities replace them all.
    const [profile, detected, experiment] = await Promise.all([
      (deps.collectProfile ?? collectHostProfile)(config.allowDirs) as Promise<Record<string, unknown>>,
      (deps.detectCapabilities ?? detectCapabilities)(config.allowDirs),
      experimentCapabilities(this.experimentHost),
    ]);
    this.toolsCheckedAt = Date.now();
    this.capabilities = { ...detected, ...experiment };
    return { profile, capabilities: this.capabilities };
  }

  /** The server's requests from a claim; unknown ones are ignored (a newer server may send more). */
  private async answer(requests: AgentRequests): Promise<void> {
    if (requests.recheckTools) await this.recheckTools("requested from the dashboard");
  }

  /** Detects the tools (and the profile) again and reports them in a heartbeat; no restart needed. */
  private async recheckTools(why: string): Promise<void> {
    const { profile, capabilities } = await this.detect();
    const changed = Object.entries(capabilities.tools).map(([t, c]) => (c.installed ? `${t} ${c.version ?? "?"}` : `${t} missing`));
    this.deps.log.info(`tools re-checked (${why}): ${changed.join(", ")}`);
    await this.api.heartbeat({ runningRunIds: this.current ? [this.current.job.runId] : [], profile, capabilities }, this.stopper.signal).catch((err: unknown) => {
      if (!this.stoppedForGood(err)) this.deps.log.warn(`reporting the re-checked tools failed: ${err instanceof Error ? err.message : String(err)}; the next check reports them`);
      // Try again at the next idle claim rather than in five minutes.
      this.toolsCheckedAt = 0;
    });
  }

  private get runDirs(): RunDirJournal {
    return new RunDirJournal(path.join(this.config.stateDir, "run-dir"));
  }

  private get experimentHost(): ExperimentHostConfig {
    const { config } = this;
    return { stateDir: config.stateDir, labDir: config.labDir ?? null, labDevices: config.labDevices ?? [], allowTunables: config.allowTunables ?? [], allowDirs: config.allowDirs };
  }

  private async resendCapabilities(before: Capabilities): Promise<void> {
    try {
      const capabilities = { ...before, ...(await experimentCapabilities(this.experimentHost)) };
      await this.api.heartbeat({ runningRunIds: [], capabilities }, this.stopper.signal);
    } catch (err) {
      if (this.stoppedForGood(err)) return;
      if (!this.stopper.signal.aborted) this.deps.log.warn(`could not send the capabilities after the run: ${err instanceof Error ? err.message : String(err)}`);
    }
  }

  /**
   * --history: checks at start, then every historyCheckMs, never while a probe runs (reading and
   * uploading a day costs CPU that would show in the probe's numbers).
   */
  private async startHistory(signal: AbortSignal): Promise<void> {
    const dirs = this.config.history;
    if (!dirs || dirs.length === 0) return;
    const history = new HostHistory(dirs, this.config.stateDir, {
      log: this.deps.log,
      upload: (body, s) => this.api.uploadHistory(body, s),
    });
    if (!dirs.some((d) => existsSync(d))) {
      this.deps.log.warn(`history: none of ${dirs.join(", ")} exists yet (is sysstat's collection enabled?); looking again every check`);
    } else {
      this.deps.log.info(`history: reading sysstat days from ${dirs.join(", ")}`);
    }
    while (!signal.aborted) {
      while (this.current && !signal.aborted) await sleep(5_000, signal);
      if (signal.aborted) break;
      try {
        const r = await history.check(signal);
        this.deps.log.info(
          `history: checked: ${r.uploaded.length} day(s) uploaded, ${r.known.length} already on the server, ${r.failed.length} to retry, ${r.unfinished.length} still being written`,
        );
      } catch (err) {
        if (signal.aborted) break;
        if (err instanceof HttpError && err.kind === "revoked") {
          this.revoked(err);
          break;
        }
        this.deps.log.error(`history: ${err instanceof Error ? err.message : String(err)}`);
      }
      await sleep(this.deps.historyCheckMs ?? HISTORY_CHECK_MS, signal);
    }
  }

  private get spoolRoot(): string {
    return path.join(this.config.stateDir, "spool");
  }

  private readonly snapshot = async (target: string): Promise<Record<string, unknown> | null> =>
    (await (this.deps.snapshot ?? collectTargetProfile)(target)) as Record<string, unknown> | null;

  /** A job, the server's requests, or null after an empty long poll, a stop, or a refused claim (after a pause). */
  private async claim(): Promise<Job | { requests: AgentRequests } | null> {
    try {
      return await this.api.claim(this.deps.claimWaitSec ?? CLAIM_WAIT_SEC, this.stopper.signal);
    } catch (err) {
      if (this.stopper.signal.aborted) return null;
      // Revoked, or the server was upgraded under this agent and no longer speaks its protocol.
      if (this.stoppedForGood(err)) return null;
      this.deps.log.error(`claiming a job failed: ${err instanceof Error ? err.message : String(err)}`);
      await sleep((this.deps.backoff ?? DEFAULT_BACKOFF).capMs, this.stopper.signal);
      return null;
    }
  }

  private streamerDeps(onCancelRequested?: () => void): StreamerDeps {
    return {
      upload: async (runId, chunks, signal) => {
        const r = await this.api.uploadChunks(runId, chunks, signal);
        this.lastUploadAt = Date.now();
        return r;
      },
      finish: (runId, body, signal) => this.api.finish(runId, body, signal),
      log: this.deps.log,
      rejectedRoot: path.join(this.config.stateDir, "spool-rejected"),
      backoff: this.deps.backoff,
      onCancelRequested,
      onRevoked: (err) => this.revoked(err),
    };
  }

  private jobDeps(hostId: string): RunJobDeps {
    return {
      guard: (job, dirs) => guardJob(job, { allowedDirs: dirs ?? this.config.allowDirs }),
      openArm: (job) =>
        new ArmSetup(job, job.setup ?? {}, {
          stateDir: this.config.stateDir,
          labDir: this.config.labDir ?? null,
          labDevices: this.config.labDevices ?? [],
          allowTunables: this.config.allowTunables ?? [],
          log: this.deps.log,
        }),
      start: this.deps.start ?? startCommand,
      snapshot: this.snapshot,
      log: this.deps.log,
      telemetry: this.config.telemetry !== false,
      noteRunDir: (dir) => (dir ? this.runDirs.record(dir) : this.runDirs.clear()),
      openStreamer: (job, target, onCancelRequested) => {
        let spool: RunSpool | { unavailable: string; root: string };
        try {
          spool = RunSpool.create(this.spoolRoot, { runId: job.runId, hostId, probe: job.probe, target, startedAt: new Date().toISOString() });
        } catch (err) {
          const why = err instanceof Error ? err.message : String(err);
          this.deps.log.warn(`run ${job.runId}: cannot create its spool (${why}); streaming from memory only`);
          // The finish tells the operator (LogStreamer.notes).
          spool = { unavailable: why, root: this.spoolRoot };
        }
        return new LogStreamer(job.runId, spool, this.streamerDeps(onCancelRequested));
      },
    };
  }
}
