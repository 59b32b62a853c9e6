// How a process told to stop by SIGINT/SIGTERM tells a relayed copy from a second request.
// A terminal's Ctrl-C reaches every process of the foreground group, and npm (and tsx's CLI)
// forward the signal they got to their child as well: one keypress arrives two or three times
// within milliseconds. Those copies must count as one, or the first Ctrl-C would already be
// the "exit at once" of a second one.

/** Signals within this long of the one that started the stop are copies of it, not a second request. */
export const RELAY_WINDOW_MS = 500;

/** drain: the first request (stop gracefully); copy: a relayed duplicate, ignore it; now: a second request. */
export type StopAction = "drain" | "copy" | "now";

export class StopSignals {
  private firstAt: number | null = null;

  constructor(
    private readonly windowMs = RELAY_WINDOW_MS,
    private readonly now: () => number = () => performance.now(),
  ) {}

  /** Classifies one received SIGINT or SIGTERM (either kind: npm may relay what the terminal sent). */
  receive(): StopAction {
    const t = this.now();
    if (this.firstAt === null) {
      this.firstAt = t;
      return "drain";
    }
    return t - this.firstAt < this.windowMs ? "copy" : "now";
  }

  /** Whether a stop was requested at all. */
  get stopping(): boolean {
    return this.firstAt !== null;
  }
}
