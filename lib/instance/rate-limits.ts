import { RateLimiterMemory, RateLimiterRes } from "rate-limiter-flexible";

/**
 * Per-instance limits (rate-limiter-flexible's in-memory store): enough to stop password and
 * token guessing and a runaway agent; several instances multiply the allowance, which is fine
 * for these purposes.
 */
const LIMITS = {
  // Failed sign-ins and registrations are throttled in PostgreSQL instead (lib/http/auth-throttle.ts).
  // Requests per agent credential per minute: a streaming agent makes ~10–20 a second at most.
  agentRequests: { points: 3000, duration: 60 },
} as const;

export type LimitKind = keyof typeof LIMITS;

/** This instance's counters, one limiter per kind (the store expires each key on its own, unref'd, timer). */
export class RateLimits {
  private readonly limiters = new Map<LimitKind, RateLimiterMemory>();

  private limiter(kind: LimitKind): RateLimiterMemory {
    let l = this.limiters.get(kind);
    if (!l) {
      l = new RateLimiterMemory({ keyPrefix: kind, ...LIMITS[kind] });
      this.limiters.set(kind, l);
    }
    return l;
  }

  /** Counts one request against `kind` for `key`: null when allowed, else the milliseconds to wait. */
  async consume(kind: LimitKind, key: string): Promise<number | null> {
    try {
      await this.limiter(kind).consume(key);
      return null;
    } catch (err) {
      if (err instanceof RateLimiterRes) return err.msBeforeNext;
      throw err;
    }
  }
}
