// The operations variables of the app's process, read and checked in one place: scripts/serve.ts
// refuses to start when one is wrong, naming it, and the code that uses each reads it from here.
import net from "node:net";
import { logSettingsFrom } from "../../probes/core/log-settings";

type Env = Record<string, string | undefined>;

/** A variable's value when set and not blank (compose passes unset variables as ""). */
const given = (raw: string | undefined) => (raw?.trim() ? raw.trim() : undefined);

/**
 * HOST: the address to listen on, an IPv4 or IPv6 address or `localhost`. undefined when unset:
 * Node then listens on every interface (`::` and IPv4 alike where IPv6 is on), as it always has.
 */
export function listenHostFrom(env: Env, name = "HOST"): string | undefined {
  const raw = given(env[name]);
  if (raw === undefined) return undefined;
  const bare = raw.replace(/^\[(.*)\]$/, "$1");
  if (bare === "localhost" || net.isIP(bare) !== 0) return bare;
  throw new Error(`${name} must be an IP address to listen on (e.g. 127.0.0.1, 0.0.0.0, ::) or localhost, got "${env[name]}"`);
}

/**
 * METRICS_TOKEN: when set, /metrics asks for `Authorization: Bearer <token>`. At least 16
 * visible characters: a guessable token would protect nothing.
 */
export function metricsTokenFrom(env: Env): string | null {
  const raw = given(env.METRICS_TOKEN);
  if (raw === undefined) return null;
  if (!/^[\x21-\x7e]{16,200}$/.test(raw)) throw new Error("METRICS_TOKEN must be 16 to 200 visible characters with no spaces (e.g. the output of `openssl rand -hex 32`)");
  return raw;
}

/** QUEUE_OFFLINE_TIMEOUT_MIN's default: an hour. */
export const DEFAULT_QUEUE_OFFLINE_TIMEOUT_MIN = 60;

/**
 * QUEUE_OFFLINE_TIMEOUT_MIN: minutes a queued run may wait for a host that is offline before it
 * ends as not started; 0 lets it wait for ever.
 */
export function queueOfflineTimeoutMinFrom(env: Env): number {
  const raw = given(env.QUEUE_OFFLINE_TIMEOUT_MIN);
  if (raw === undefined) return DEFAULT_QUEUE_OFFLINE_TIMEOUT_MIN;
  const n = Number(raw);
  if (!/^\d+$/.test(raw) || !Number.isSafeInteger(n) || n > 525_600) {
    throw new Error(`QUEUE_OFFLINE_TIMEOUT_MIN must be a whole number of minutes from 0 (never) to 525600, got "${env.QUEUE_OFFLINE_TIMEOUT_MIN}"`);
  }
  return n;
}

/** Every problem with the operations variables (HOST, LOG_FORMAT, LOG_LEVEL, METRICS_TOKEN, QUEUE_OFFLINE_TIMEOUT_MIN). */
export function opsSettingsProblems(env: Env): string[] {
  const problems: string[] = [];
  const attempt = (fn: () => unknown) => {
    try {
      fn();
    } catch (err) {
      problems.push(err instanceof Error ? err.message : String(err));
    }
  };
  attempt(() => listenHostFrom(env));
  const logs = logSettingsFrom(env);
  if ("error" in logs) problems.push(logs.error);
  attempt(() => metricsTokenFrom(env));
  attempt(() => queueOfflineTimeoutMinFrom(env));
  return problems;
}
