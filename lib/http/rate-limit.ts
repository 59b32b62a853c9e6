import { RateLimiterMemory, RateLimiterRes } from "rate-limiter-flexible";
import { AppError } from "./app-error";

/**
 * Per-instance limits (rate-limiter-flexible's in-memory store): enough to stop password and
 * token guessing and a runaway agent; several instances multiply the allowance, which is fine
 * for these purposes.
 */
const LIMITS = {
  // Sign-in attempts per email and per client address, per 15 minutes.
  signInEmail: { points: 10, duration: 15 * 60 },
  signInClient: { points: 50, duration: 15 * 60 },
  // Agent registrations per client address per minute (registration tokens are 256-bit; this
  // only keeps a scanner from hammering the database).
  agentRegister: { points: 20, duration: 60 },
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

/** 429 when `key` has used up `kind` already, without counting this request (for counting failures only). */
export async function assertUnderLimit(kind: LimitKind, key: string): Promise<void> {
  const res = await limiter(kind).get(key);
  if (res && res.consumedPoints >= LIMITS[kind].points) {
    throw new AppError("RATE_LIMITED", `Too many failed attempts: try again in ${Math.ceil(res.msBeforeNext / 1000)} s.`);
  }
}

/** Counts a failure against `kind` for `key` (never throws: the caller answers the failure itself). */
export async function countFailure(kind: LimitKind, key: string): Promise<void> {
  await limiter(kind)
    .consume(key)
    .catch(() => undefined);
}

export async function resetRateLimit(kind: LimitKind, key: string): Promise<void> {
  await limiter(kind).delete(key);
}

/** The client's address as the proxy in front of us reports it, for keys only (never for trust). */
export function clientKey(headers: Headers): string {
  return headers.get("x-forwarded-for")?.split(",")[0]?.trim() || headers.get("x-real-ip") || "direct";
}
