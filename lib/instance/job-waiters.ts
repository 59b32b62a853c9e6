import { pgPool } from "../pg-pool";
import { HOST_JOBS_CHANNEL } from "../notifications";
import type { PgListener } from "./pg-listener";

/**
 * The long-polls of this instance waiting for a job, by host. One LISTEN on one channel whose
 * payload is the host id wakes them (not a LISTEN/UNLISTEN pair per request), and one sweep per
 * instance covers a notification lost while the listening connection was down (not a claim
 * query per waiting agent every few seconds).
 */
const SWEEP_MS = 5000;

type Wake = () => void;

export class JobWaiters {
  private readonly byHost = new Map<string, Set<Wake>>();
  private listening: Promise<unknown> | null = null;
  private sweeper: NodeJS.Timeout | null = null;

  constructor(private readonly listener: PgListener) {}

  /**
   * Registers a waiter before the caller's first claim query, so a run queued between that query
   * and the wait still wakes it; resolves once the instance's LISTEN is in place.
   */
  async add(hostId: string, wake: Wake): Promise<() => void> {
    let set = this.byHost.get(hostId);
    if (!set) this.byHost.set(hostId, (set = new Set()));
    set.add(wake);
    this.startSweeper();
    // Subscribed once and never unsubscribed: the listener re-LISTENs after a reconnect.
    this.listening ??= this.listener.subscribe(HOST_JOBS_CHANNEL, (hostId) => this.wake(hostId));
    await this.listening;
    return () => {
      const s = this.byHost.get(hostId);
      s?.delete(wake);
      if (s?.size === 0) this.byHost.delete(hostId);
    };
  }

  /** Claims waiting now, across hosts (for /metrics). */
  get waiting(): number {
    let n = 0;
    for (const s of this.byHost.values()) n += s.size;
    return n;
  }

  /** Ends the sweep (tests, shutdown); the listener is the instance's to close. */
  stop(): void {
    if (this.sweeper) clearInterval(this.sweeper);
    this.sweeper = null;
  }

  private wake(hostId: string): void {
    for (const w of this.byHost.get(hostId) ?? []) w();
  }

  private startSweeper(): void {
    if (this.sweeper) return;
    this.sweeper = setInterval(() => void this.sweep().catch(() => undefined), SWEEP_MS);
    this.sweeper.unref();
  }

  /** Wakes waiters whose host has a queued run: what a missed NOTIFY would have done. */
  private async sweep(): Promise<void> {
    if (this.byHost.size === 0) return;
    // Queued runs are few (they are claimed within moments by an online agent); the status index finds them.
    const { rows } = await pgPool().query<{ host_id: string }>("SELECT DISTINCT host_id::text AS host_id FROM probe_runs WHERE status = 'QUEUED'");
    for (const r of rows) this.wake(r.host_id);
  }
}
