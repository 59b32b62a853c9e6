import { HttpError } from "./http-client";
import type { Logger } from "./logger";

export interface HeartbeatOptions {
  send(runningRunIds: string[]): Promise<string[]>;
  running(): string[];
  onCancel(runIds: string[]): void;
  onRevoked(error: HttpError): void;
  log: Logger;
  /** While a run is active: a user's cancel click must reach the probe within ~2 s. */
  activeMs?: number;
  /** Beats while idle, for tests; by default an idle agent does not beat (IDLE_HEARTBEAT_MS). */
  idleMs?: number | null;
  /**
   * When the server last heard about the running run through a chunk upload (ms epoch). Such an
   * answer already carries the cancel flag and keeps the run alive, so a beat within the same
   * period would only cost CPU on both sides.
   */
  lastUploadAt?: () => number;
}

/**
 * Beats every second while a probe runs (it carries cancel requests) and not at all when idle,
 * unless told to (idleMs). Beats never overlap; the
 * period is measured from the start of the previous beat. A failing beat is logged once (and
 * its recovery once), not every second.
 */
/**
 * How often an idle agent beats: never. Its claim long-poll already tells the server it is alive
 * (the claim records last_seen_at), and a fleet of idle agents beating every 15 s cost the
 * server more than their long-polls did (bench/README.md, fleet).
 */
export const IDLE_HEARTBEAT_MS: number | null = null;

export class Heartbeat {
  private timer: NodeJS.Timeout | null = null;
  private stopped = true;
  private beating = false;
  private lastStart = 0;
  private failing = false;

  constructor(private readonly opts: HeartbeatOptions) {}

  start(): void {
    this.stopped = false;
    if (this.period() !== null) this.schedule(0);
  }

  stop(): void {
    this.stopped = true;
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
  }

  /** The set of running runs changed: re-plan the next beat with the matching period. */
  poke(): void {
    if (this.stopped || this.beating) return;
    const period = this.period();
    if (period === null) {
      if (this.timer) clearTimeout(this.timer);
      this.timer = null;
      return;
    }
    this.schedule(Math.max(0, this.lastStart + period - Date.now()));
  }

  /** Milliseconds to the next beat; null when idle and idle beats are off. */
  private period(): number | null {
    if (this.opts.running().length > 0) return this.opts.activeMs ?? 1000;
    return this.opts.idleMs === undefined ? IDLE_HEARTBEAT_MS : this.opts.idleMs;
  }

  private scheduleNext(): void {
    const period = this.period();
    if (!this.stopped && period !== null) this.schedule(Math.max(0, this.lastStart + period - Date.now()));
  }

  private schedule(delay: number): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = setTimeout(() => void this.beat(), delay);
  }

  private async beat(): Promise<void> {
    this.timer = null;
    this.beating = true;
    this.lastStart = Date.now();
    const running = this.opts.running();
    const uploaded = this.opts.lastUploadAt?.() ?? 0;
    if (running.length === 0 && this.period() === null) {
      this.beating = false;
      return;
    }
    if (running.length > 0 && this.lastStart - uploaded < (this.opts.activeMs ?? 1000)) {
      this.beating = false;
      this.scheduleNext();
      return;
    }
    try {
      const cancel = await this.opts.send(running);
      if (this.failing) this.opts.log.info("heartbeat: the server answers again");
      this.failing = false;
      const mine = cancel.filter((id) => running.includes(id));
      if (mine.length > 0) this.opts.onCancel(mine);
    } catch (err) {
      if (err instanceof HttpError && err.kind === "revoked") {
        this.beating = false;
        this.opts.onRevoked(err);
        return;
      }
      if (!this.failing) this.opts.log.warn(`heartbeat failed: ${err instanceof Error ? err.message : String(err)}`);
      this.failing = true;
    }
    this.beating = false;
    this.scheduleNext();
  }
}
