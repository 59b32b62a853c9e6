import { pgPool } from "../pg-pool";

/**
 * `hosts.last_seen_at` from agent requests, written at most every TOUCH_EVERY_MS per host and in
 * one UPDATE per FLUSH_MS for all hosts of this instance. An idle agent's only traffic is its
 * claim long-poll (40–50 s), so a host is written once per poll: its last_seen_at is at most
 * 20 + 50 + 2 s old while the agent is up (a poll answered early, skipped, then a full wait),
 * inside the 90 s after which the dashboard calls it offline
 * (lib/server/hosts/host-summary.ts).
 */
const TOUCH_EVERY_MS = 20_000;
const FLUSH_MS = 2000;

export class HostToucher {
  private readonly written = new Map<string, number>();
  private pending = new Set<string>();
  private timer: NodeJS.Timeout | null = null;

  /** everyMs: a caller that touches on a clock of its own (the sockets' pongs) may write less often. */
  touch(hostId: string, now = Date.now(), everyMs = TOUCH_EVERY_MS): void {
    if (now - (this.written.get(hostId) ?? 0) < everyMs) return;
    this.written.set(hostId, now);
    this.pending.add(hostId);
    this.timer ??= setTimeout(() => void this.flush(), FLUSH_MS);
  }

  async flush(): Promise<void> {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    const ids = [...this.pending];
    this.pending = new Set();
    if (ids.length === 0) return;
    try {
      await pgPool().query("UPDATE hosts SET last_seen_at = now() WHERE id = ANY($1::uuid[])", [ids]);
    } catch {
      // The database is away: forget these writes so the hosts' next requests try again.
      for (const id of ids) this.written.delete(id);
    }
  }
}
