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
  idleMs?: number;
  /**
   * When the server last heard about the running run through a chunk upload (ms epoch). Such an
   * answer already carries the cancel flag and keeps the run alive, so a beat within the same
   * period would only cost CPU on both sides.
   */
  lastUploadAt?: () => number;
}

/**
 * Beats every second while a probe runs and every 15 s when idle. Beats never overlap; the
 * period is measured from the start of the previous beat. A failing beat is logged once (and
 * its recovery once), not every second.
 */
export class Heartbeat {
  private timer: NodeJS.Timeout | null = null;
  private stopped = true;
  private beating = false;
  private lastStart = 0;
  private failing = false;

  constructor(private readonly opts: HeartbeatOptions) {}

  start(): void {
    this.stopped = false;
    this.schedule(0);
  }

  stop(): void {
    this.stopped = true;
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
  }

  /** The set of running runs changed: re-plan the next beat with the matching period. */
  poke(): void {
    if (this.stopped || this.beating) return;
    this.schedule(Math.max(0, this.lastStart + this.period() - Date.now()));
  }

  private period(): number {
    return this.opts.running().length > 0 ? (this.opts.activeMs ?? 1000) : (this.opts.idleMs ?? 15_000);
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
    if (running.length > 0 && this.lastStart - uploaded < (this.opts.activeMs ?? 1000)) {
      this.beating = false;
      if (!this.stopped) this.schedule(this.period());
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
    if (!this.stopped) this.schedule(Math.max(0, this.lastStart + this.period() - Date.now()));
  }
}
