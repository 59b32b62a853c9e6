// The machinery of one app instance: everything it runs besides answering requests, in one object
// so that what an instance holds open is written in one place. Use cases reach it through
// instance(); pages, routes and components never do (a lint floor, eslint.config.mjs).
import { AgentSockets } from "./agent-sockets";
import { ChunkBatcher } from "./chunk-batcher";
import { JobWaiters } from "./job-waiters";
import { KnownAgents } from "./known-agents";
import { ParseWorkers } from "./parse/parse-off-thread";
import { PgListener } from "./pg-listener";
import { RateLimits } from "./rate-limits";
import { RunWatchSweep } from "./run-watch";
import { HostToucher } from "./touch-hosts";
import { SOCKET_PING_MS } from "../../probes/protocol/agent-socket";
import { log } from "../log";

/**
 * The upkeep an instance runs on its own clock. The work itself is use cases (lib/server), handed
 * in by the caller, so that lib/instance depends on nothing above it.
 */
export interface InstanceUpkeep {
  /** RUNNING runs whose agent went silent become LOST (idempotent, every instance runs it). */
  markSilentRunsLost(): Promise<unknown>;
  /** QUEUED runs whose host stayed offline past QUEUE_OFFLINE_TIMEOUT_MIN end as not started (idempotent). */
  expireQueuedRuns(): Promise<unknown>;
  /** Expired rows of the failed-credential throttles are deleted. */
  pruneThrottles(): Promise<unknown>;
  /** Audit rows older than AUDIT_RETENTION_DAYS are deleted (daily). */
  pruneAudit(): Promise<unknown>;
  /** Expired and revoked sessions are deleted (daily). */
  pruneSessions(): Promise<unknown>;
  /** Due schedules fire (every instance runs it; each (schedule, host, due time) fires once, lib/server/schedules). */
  fireDueSchedules(): Promise<unknown>;
  /** Alerts fanned out to webhook targets and due deliveries sent (every 5 s; deliveries are claimed, so every instance runs it). */
  deliverWebhooks(): Promise<unknown>;
  /** Runs' raw output older than the retention setting is deleted (daily). */
  pruneRawLogs(): Promise<unknown>;
}

export const LOST_SWEEP_MS = 10_000;
export const SCHEDULE_TICK_MS = 10_000;
export const THROTTLE_PRUNE_MS = 10 * 60_000;
export const WEBHOOK_DELIVERY_MS = 5_000;
export const RETENTION_PRUNE_MS = 24 * 60 * 60_000;
/** The first retention pass, a while after start: an instance restarted daily would otherwise never run it. */
export const RETENTION_FIRST_MS = 5 * 60_000;

/**
 * Every timer and connection an instance runs. Besides these it uses the process's one database
 * pool (lib/pg-pool.ts, opened on first query, at most PROBEBOOK_DB_POOL connections), which
 * scripts and the CLI share and which is therefore not the instance's to close.
 */
export class Instance {
  /** Connection: the one LISTEN session, opened with the first subscriber; reconnects 1 s after a drop. */
  readonly listener = new PgListener();
  /** Timer: a 5 s sweep for queued runs, while any claim long-poll waits (wakes on pb_host_jobs). */
  readonly jobWaiters = new JobWaiters(this.listener);
  /** Timer: a 2 s status and seq sweep, while any live view (SSE) is open. */
  readonly runWatch = new RunWatchSweep();
  /** Timer: one 2 s flush of hosts.last_seen_at after a touch. */
  readonly hostToucher = new HostToucher();
  /**
   * Timers: one ping of every agent socket each 30 s and one check of their credentials each 60 s,
   * once a socket has opened; revocations close sockets as their host's notification arrives.
   */
  readonly agentSockets = new AgentSockets(this.listener, this.hostToucher, SOCKET_PING_MS);
  /** No timer: group commit of chunk uploads, at most two batch statements on the pool at once. */
  readonly chunkBatcher = new ChunkBatcher();
  /** No timer or connection: credential hash → host id, per instance. */
  readonly knownAgents = new KnownAgents();
  /** Worker threads: at most two parses at once, each with its deadline timer. */
  readonly parser = new ParseWorkers();
  /** No timer of its own: request counters per agent credential (the store expires keys on unref'd timers). */
  readonly rateLimits = new RateLimits();
  /**
   * Timers: the webhook deliveries every 5 s, the LOST sweep, the queued runs' expiry and the schedule
   * firing every 10 s, the throttle pruning every 10 min, and the audit, session and raw-log pruning 5 min
   * after start and then daily (start()).
   */
  private upkeep: NodeJS.Timeout[] = [];

  /**
   * Starts the upkeep timers. The others start on first use: the job sweep then runs on (a no-op
   * while nobody waits), the live views' sweep stops with the last view, the touch flush is one-shot.
   */
  start(tasks: InstanceUpkeep): void {
    if (this.upkeep.length > 0) return;
    // Each step is idempotent and retried at the next tick, so a failure (database away) is only
    // logged: once when it starts failing and once when it works again, not every 10 s.
    const failing = new Set<string>();
    const attempt = (name: string, fn: () => Promise<unknown>) => () =>
      void fn().then(
        () => {
          if (failing.delete(name)) log().info(`upkeep: ${name} works again`, { task: name });
        },
        (err: unknown) => {
          if (failing.has(name)) return;
          failing.add(name);
          log().warn(`upkeep: ${name} failed, retried at its next tick: ${err instanceof Error ? err.message : String(err)}`, { task: name });
        },
      );
    const every = (ms: number, name: string, fn: () => Promise<unknown>) => {
      const t = setInterval(attempt(name, fn), ms);
      t.unref();
      return t;
    };
    // A tick still sending (a receiver taking its 10 s) is not joined by the next one.
    const alone = (fn: () => Promise<unknown>) => {
      let running: Promise<unknown> | null = null;
      return () => (running ??= fn().finally(() => (running = null)));
    };
    const retention = () => Promise.all([tasks.pruneAudit(), tasks.pruneSessions(), tasks.pruneRawLogs()]);
    const first = setTimeout(attempt("retention pruning", retention), RETENTION_FIRST_MS);
    first.unref();
    this.upkeep = [
      every(WEBHOOK_DELIVERY_MS, "webhook deliveries", alone(tasks.deliverWebhooks)),
      every(LOST_SWEEP_MS, "LOST sweep", tasks.markSilentRunsLost),
      every(LOST_SWEEP_MS, "queued runs' expiry", tasks.expireQueuedRuns),
      every(SCHEDULE_TICK_MS, "schedule firing", alone(tasks.fireDueSchedules)),
      every(THROTTLE_PRUNE_MS, "throttle pruning", tasks.pruneThrottles),
      every(RETENTION_PRUNE_MS, "retention pruning", retention),
      first,
    ];
  }

  /** Whether start() has run: the upkeep is on (readiness, /api/health/ready). */
  get started(): boolean {
    return this.upkeep.length > 0;
  }

  /** Ends every timer, worker and connection above (tests, shutdown); pending touches are written first. */
  async stop(): Promise<void> {
    for (const t of this.upkeep) clearTimeout(t); // clears intervals too
    this.upkeep = [];
    this.jobWaiters.stop();
    this.agentSockets.stop();
    this.runWatch.stop();
    await this.hostToucher.flush();
    await this.parser.stop();
    await this.listener.stop();
  }
}

// On globalThis: Next's dev server re-evaluates modules on change, and a second instance in the
// same process would open a second LISTEN session and run every sweep twice.
const g = globalThis as unknown as { probebookInstance?: Instance };

/** This process's instance, made on first use (tests and scripts use it without startInstance). */
export function instance(): Instance {
  g.probebookInstance ??= new Instance();
  return g.probebookInstance;
}

/** Called once from instrumentation.ts: the instance with its upkeep running. */
export function startInstance(tasks: InstanceUpkeep): Instance {
  const i = instance();
  i.start(tasks);
  return i;
}

/** Stops this process's instance; the next instance() makes a fresh one. */
export async function stopInstance(): Promise<void> {
  const i = g.probebookInstance;
  g.probebookInstance = undefined;
  await i?.stop();
}
