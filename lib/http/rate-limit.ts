import { RateLimiterMemory, RateLimiterRes } from "rate-limiter-flexible";
import { AppError } from "./app-error";

/**
 * Per-instance limits (rate-limiter-flexible's in-memory store): enough to stop password and
 * token guessing and a runaway agent; several instances multiply the allowance, which is fine
 * for these purposes.
 */
const LIMITS = {
  // Failed sign-ins and registrations are throttled in PostgreSQL instead (auth-throttle.ts).
  // Requests per agent credential per minute: a streaming agent makes ~10–20 a second at most.
  agentRequests: { points: 3000, duration: 60 },
} as const;

export type LimitKind = keyof typeof LIMITS;

const g = globalThis as unknown as { probebookLimiters?: Map<LimitKind, RateLimiterMemory> };

function limiter(kind: LimitKind): RateLimiterMemory {
  g.probebookLimiters ??= new Map();
  let l = g.probebookLimiters.get(kind);
  if (!l) {
    l = new RateLimiterMemory({ keyPrefix: kind, ...LIMITS[kind] });
    g.probebookLimiters.set(kind, l);
  }
  return l;
}

/** Counts one request against `kind` for `key`; 429 with the wait time when over the limit. */
export async function rateLimit(kind: LimitKind, key: string): Promise<void> {
  try {
    await limiter(kind).consume(key);
  } catch (err) {
    if (err instanceof RateLimiterRes) {
      const seconds = Math.ceil(err.msBeforeNext / 1000);
      throw new AppError("RATE_LIMITED", `Too many requests: try again in ${seconds} s.`);
    }
    throw err;
  }
}
