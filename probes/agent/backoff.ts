export interface BackoffPolicy {
  baseMs: number;
  capMs: number;
}

/** 200 ms, 400 ms, … capped at 10 s: a server restart is ridden out without hammering it. */
export const DEFAULT_BACKOFF: BackoffPolicy = { baseMs: 200, capMs: 10_000 };

/**
 * Delay before retry number `attempt` (0-based): exponential with "equal jitter" — half of it
 * fixed, half random — so agents that lost the server together do not come back in lockstep,
 * yet no retry fires immediately.
 */
export function backoffDelay(attempt: number, policy: BackoffPolicy = DEFAULT_BACKOFF, random: () => number = Math.random): number {
  const ceiling = Math.min(policy.capMs, policy.baseMs * 2 ** Math.min(Math.max(attempt, 0), 30));
  return Math.round(ceiling / 2 + (random() * ceiling) / 2);
}

/** Resolves after ms, or early (without throwing) when the signal aborts. */
export function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    if (signal?.aborted) return resolve();
    const done = () => {
      clearTimeout(timer);
      signal?.removeEventListener("abort", done);
      resolve();
    };
    const timer = setTimeout(done, ms);
    signal?.addEventListener("abort", done, { once: true });
  });
}
