import { Prisma, type PrismaClient } from "@prisma/client";
import { db } from "../db";
import { AppError } from "./app-error";

/**
 * Exponential backoff on failed credentials, kept in PostgreSQL (`auth_throttles`) so every app
 * instance sees the same counters. Each policy lets `free` failures through, then blocks its key
 * for 1 s, 2 s, 4 s … up to `capSeconds` after each further failure; a key forgets after
 * `windowSeconds` without failures. Attempts made while blocked are refused without checking the
 * credential and are not counted, so nobody can extend a block by hammering it, and the cap
 * bounds how long the real owner waits.
 */
export const POLICIES = {
  // One account from one client address: the guesser's own bucket; grows to 15 min.
  signInAccountClient: { free: 3, capSeconds: 15 * 60, windowSeconds: 60 * 60 },
  // One account from anywhere: a slow-down for distributed guessing, capped at 1 min so the
  // owner (on another address, with no failures of their own) always gets in within a minute.
  signInAccount: { free: 20, capSeconds: 60, windowSeconds: 60 * 60 },
  // One client address over all accounts (spraying one password across many accounts).
  signInClient: { free: 50, capSeconds: 15 * 60, windowSeconds: 60 * 60 },
  // Failed agent registrations per client address; good tokens are never counted, so a batch of
  // agents behind one NAT registers freely.
  registerClient: { free: 10, capSeconds: 15 * 60, windowSeconds: 60 * 60 },
} as const;

export type ThrottlePolicy = keyof typeof POLICIES;
export interface ThrottleKey {
  policy: ThrottlePolicy;
  id: string;
}

const storeKey = (k: ThrottleKey) => `${k.policy}:${k.id}`;

/** Seconds the next failure blocks for, given the failure count including it. */
export function backoffSeconds(policy: ThrottlePolicy, failures: number): number {
  const p = POLICIES[policy];
  if (failures <= p.free) return 0;
  return Math.min(p.capSeconds, 2 ** Math.min(30, failures - p.free - 1));
}

/** 429 with the longest remaining wait when any key is blocked at `now`. */
export async function assertNotThrottled(keys: readonly ThrottleKey[], now = new Date(), client: PrismaClient = db()): Promise<void> {
  const rows = await client.authThrottle.findMany({
    where: { key: { in: keys.map(storeKey) }, blockedUntil: { gt: now } },
    select: { blockedUntil: true },
  });
  if (rows.length === 0) return;
  const waitMs = Math.max(...rows.map((r) => r.blockedUntil.getTime() - now.getTime()));
  throw new AppError("RATE_LIMITED", `Too many failed attempts: try again in ${Math.max(1, Math.ceil(waitMs / 1000))} s.`);
}

/** Counts one failure on each key (one atomic upsert per key; concurrent failures all count). */
export async function recordFailure(keys: readonly ThrottleKey[], now = new Date(), client: PrismaClient = db()): Promise<void> {
  for (const k of keys) {
    const p = POLICIES[k.policy];
    const stale = new Date(now.getTime() - p.windowSeconds * 1000);
    // The new count, written once in SQL so the block length follows from the same value.
    const next = Prisma.sql`(CASE WHEN auth_throttles.last_failure_at < ${stale}::timestamp THEN 1 ELSE auth_throttles.failures + 1 END)`;
    const delay = (count: Prisma.Sql) =>
      Prisma.sql`make_interval(secs => LEAST(${p.capSeconds}::float8, CASE WHEN ${count} <= ${p.free} THEN 0 ELSE power(2, LEAST(30, ${count} - ${p.free} - 1)) END))`;
    await client.$executeRaw`
      INSERT INTO auth_throttles (key, failures, last_failure_at, blocked_until)
      VALUES (${storeKey(k)}, 1, ${now}, ${now}::timestamp + ${delay(Prisma.sql`1`)})
      ON CONFLICT (key) DO UPDATE SET
        failures = ${next},
        last_failure_at = ${now},
        blocked_until = ${now}::timestamp + ${delay(next)}`;
  }
}

/** Forgets the keys (after a success). */
export async function clearThrottle(keys: readonly ThrottleKey[], client: PrismaClient = db()): Promise<void> {
  await client.authThrottle.deleteMany({ where: { key: { in: keys.map(storeKey) } } });
}

/** Drops counters idle longer than any window (run from the periodic upkeep). */
export async function pruneThrottles(now = new Date(), client: PrismaClient = db()): Promise<number> {
  const longest = Math.max(...Object.values(POLICIES).map((p) => p.windowSeconds));
  const r = await client.authThrottle.deleteMany({
    where: { lastFailureAt: { lt: new Date(now.getTime() - longest * 1000) }, blockedUntil: { lt: now } },
  });
  return r.count;
}
