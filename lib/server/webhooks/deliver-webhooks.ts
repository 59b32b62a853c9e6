// The delivery engine, run by every instance every 5 s (lib/instance/instance.ts): alerts become
// one PENDING delivery per enabled target, and due deliveries are claimed, sent, and retried with
// backoff. PostgreSQL is the only coordination: any number of instances deliver each once.
import type { Prisma } from "@prisma/client";
import { db } from "../../db";
import { pgPool } from "../../pg-pool";
import { signWebhook } from "./sign-webhook";
import { publicBaseUrl } from "./public-base-url";
import { alertUrl, renderPayload, type ProfileChange, type WebhookAlert, type WebhookEvent } from "./webhook-payload";

/** Wait after the 1st, 2nd, … failed attempt; the attempt after the last wait is the last one. */
export const RETRY_DELAYS_MS = [30_000, 2 * 60_000, 10 * 60_000, 60 * 60_000, 6 * 60 * 60_000] as const;
export const MAX_ATTEMPTS = RETRY_DELAYS_MS.length + 1;
export const SEND_TIMEOUT_MS = 10_000;
/** A claimed delivery is not due again for this long: well past the send timeout, so no other instance sends it meanwhile. */
const LEASE_MS = 60_000;
/** Deliveries sent per tick and instance, in parallel. */
const CLAIM_LIMIT = 20;
/** Of a receiver's answer only this much is read, for the error text. */
const MAX_RESPONSE_BYTES = 4096;
/** Any constant: one fan-out at a time across instances (pg_try_advisory_xact_lock). */
const FAN_OUT_LOCK = 0x70620001;

/** A JS instant as a parameter for a `timestamp` (UTC, no zone) column, whatever the process's zone. */
const utc = (i: number) => `($${i}::timestamptz AT TIME ZONE 'UTC')`;

export interface DeliverOptions {
  /** The clock (tests drive the backoff with it). */
  now?: Date;
  /** Links in payloads; default publicBaseUrl(). */
  baseUrl?: string | null;
}

export interface DeliveryOutcome {
  id: string;
  status: "DELIVERED" | "PENDING" | "FAILED";
  statusCode: number | null;
  error: string | null;
}

/**
 * Every alert × enabled target that has no delivery yet becomes a PENDING one: targets get the
 * alerts raised after they were created, improvements only when they asked for them. One statement
 * under a transaction-level advisory lock, so two instances never insert the same pair twice.
 * The body is rendered when first sent; until then the payload only names the event ({ render }).
 */
export async function fanOutAlerts({ now = new Date() }: { now?: Date } = {}): Promise<number> {
  const client = await pgPool().connect();
  try {
    await client.query("BEGIN");
    const { rows } = await client.query<{ locked: boolean }>("SELECT pg_try_advisory_xact_lock($1) AS locked", [FAN_OUT_LOCK]);
    let inserted = 0;
    if (rows[0]?.locked) {
      const r = await client.query(
        `INSERT INTO webhook_deliveries (id, target_id, alert_id, test, payload, status, attempts, next_attempt_at, created_at)
         SELECT gen_random_uuid(), t.id, a.id, false,
                jsonb_build_object('render', CASE a.kind WHEN 'REGRESSION' THEN 'alert.regression' ELSE 'alert.improvement' END),
                'PENDING', 0, ${utc(1)}, ${utc(1)}
           FROM alerts a
           JOIN webhook_targets t ON t.enabled AND a.created_at >= t.created_at AND (a.kind = 'REGRESSION' OR t.include_improvements)
          WHERE NOT EXISTS (SELECT 1 FROM webhook_deliveries d WHERE d.target_id = t.id AND d.alert_id = a.id)`,
        [now.toISOString()],
      );
      inserted = r.rowCount ?? 0;
    }
    await client.query("COMMIT");
    return inserted;
  } catch (err) {
    await client.query("ROLLBACK").catch(() => undefined);
    throw err;
  } finally {
    client.release();
  }
}

/** Takes due deliveries for this instance: their next_attempt_at moves past the lease before any is sent. */
async function claimDue(now: Date, limit: number): Promise<string[]> {
  const { rows } = await pgPool().query<{ id: string }>(
    `UPDATE webhook_deliveries SET next_attempt_at = ${utc(2)}
      WHERE id IN (SELECT id FROM webhook_deliveries
                    WHERE status = 'PENDING' AND next_attempt_at <= ${utc(1)}
                    ORDER BY next_attempt_at LIMIT $3
                    FOR UPDATE SKIP LOCKED)
      RETURNING id`,
    [now.toISOString(), new Date(now.getTime() + LEASE_MS).toISOString(), limit],
  );
  return rows.map((r) => r.id);
}

const deliveryInclude = {
  target: true,
  alert: { include: { series: { include: { host: { select: { id: true, name: true } } } } } },
} satisfies Prisma.WebhookDeliveryInclude;
type LoadedDelivery = Prisma.WebhookDeliveryGetPayload<{ include: typeof deliveryInclude }>;

function alertOf(d: NonNullable<LoadedDelivery["alert"]>, baseUrl: string | null): WebhookAlert {
  return {
    id: d.id,
    kind: d.kind === "REGRESSION" ? "regression" : "improvement",
    message: d.message,
    ratio: d.ratio,
    ciLow: d.ciLow,
    ciHigh: d.ciHigh,
    confidence: d.confidence,
    changes: Array.isArray(d.changes) ? (d.changes as unknown as ProfileChange[]) : [],
    createdAt: d.createdAt.toISOString(),
    series: { id: d.series.id, probe: d.series.probe, preset: d.series.preset, target: d.series.target, host: d.series.host },
    url: alertUrl(baseUrl, d.id),
  };
}

/** The event a payload is for: the fan-out's placeholder names it; a rendered body carries it (JSON) or is a test/Slack body. */
function eventOf(d: LoadedDelivery): WebhookEvent {
  if (d.test) return "test";
  return d.alert?.kind === "IMPROVEMENT" ? "alert.improvement" : "alert.regression";
}

/**
 * The payload column once rendered: the event and the body as the exact string sent (jsonb would
 * reorder an object's keys, and a retry must send the same bytes as the first attempt). Before, the
 * fan-out's placeholder { render: event }.
 */
export function storedPayload(event: WebhookEvent, body: string): Prisma.InputJsonObject {
  return { event, body };
}

function storedBody(payload: Prisma.JsonValue): string | null {
  const body = payload && typeof payload === "object" && !Array.isArray(payload) ? payload.body : undefined;
  return typeof body === "string" ? body : null;
}

/** Reads at most MAX_RESPONSE_BYTES of a receiver's answer, then lets the rest go. */
async function readSome(res: Response): Promise<string> {
  if (!res.body) return "";
  const reader = res.body.getReader();
  const parts: Uint8Array[] = [];
  let size = 0;
  try {
    while (size < MAX_RESPONSE_BYTES) {
      const { done, value } = await reader.read();
      if (done) break;
      parts.push(value);
      size += value.byteLength;
    }
  } finally {
    await reader.cancel().catch(() => undefined);
  }
  return Buffer.concat(parts).subarray(0, MAX_RESPONSE_BYTES).toString("utf8");
}

function describeError(err: unknown): string {
  if (err instanceof Error && (err.name === "TimeoutError" || err.name === "AbortError")) return `No answer within ${SEND_TIMEOUT_MS / 1000} s.`;
  const cause = err instanceof Error ? (err.cause as { code?: string; message?: string } | undefined) : undefined;
  const msg = err instanceof Error ? err.message : String(err);
  return cause?.code ? `${msg} (${cause.code}${cause.message ? `: ${cause.message}` : ""})` : msg;
}

/** POSTs the signed body once; answers the receiver's status, or the error when there was no answer. */
async function send(d: LoadedDelivery, body: string, now: Date): Promise<{ statusCode: number | null; error: string | null }> {
  const timestamp = Math.floor(now.getTime() / 1000);
  try {
    const res = await fetch(d.target.url, {
      method: "POST",
      body,
      redirect: "manual",
      signal: AbortSignal.timeout(SEND_TIMEOUT_MS),
      headers: {
        "content-type": "application/json",
        "user-agent": "Probebook-Webhook/1",
        "x-probebook-event": eventOf(d),
        "x-probebook-delivery": d.id,
        "x-probebook-timestamp": String(timestamp),
        "x-probebook-signature": signWebhook(d.target.secret, timestamp, body),
      },
    });
    const text = await readSome(res).catch(() => "");
    if (res.status >= 200 && res.status < 300) return { statusCode: res.status, error: null };
    if (res.status >= 300 && res.status < 400) return { statusCode: res.status, error: `Redirect to ${res.headers.get("location") ?? "nowhere"}: redirects are not followed; give the final URL.` };
    const excerpt = text.replace(/\s+/g, " ").trim().slice(0, 300);
    return { statusCode: res.status, error: `HTTP ${res.status}${excerpt ? `: ${excerpt}` : ""}` };
  } catch (err) {
    return { statusCode: null, error: describeError(err) };
  }
}

/**
 * One attempt at one claimed delivery: its body rendered once (so retries send the same bytes),
 * then sent. 2xx → DELIVERED; otherwise the next attempt after the backoff, or FAILED after the
 * last (a test delivery is tried once). The row keeps the last status code and error.
 */
export async function attemptDelivery(id: string, opts: DeliverOptions & { retry?: boolean } = {}): Promise<DeliveryOutcome> {
  const now = opts.now ?? new Date();
  const d = await db().webhookDelivery.findUnique({ where: { id }, include: deliveryInclude });
  if (!d || d.status !== "PENDING") return { id, status: d?.status ?? "FAILED", statusCode: d?.lastStatusCode ?? null, error: d?.lastError ?? null };
  let body = storedBody(d.payload);
  if (body === null) {
    if (!d.alert) return finish(d.id, d.attempts, now, { statusCode: null, error: "The alert is gone." }, false);
    const baseUrl = opts.baseUrl !== undefined ? opts.baseUrl : await publicBaseUrl();
    body = JSON.stringify(renderPayload(d.target.format, eventOf(d), alertOf(d.alert, baseUrl)));
    await db().webhookDelivery.update({ where: { id: d.id }, data: { payload: storedPayload(eventOf(d), body) } });
  }
  const result = await send(d, body, now);
  return finish(d.id, d.attempts, now, result, opts.retry ?? !d.test);
}

async function finish(id: string, attempts: number, now: Date, r: { statusCode: number | null; error: string | null }, retry: boolean): Promise<DeliveryOutcome> {
  const made = attempts + 1;
  const ok = r.error === null;
  const status = ok ? "DELIVERED" : retry && made < MAX_ATTEMPTS ? "PENDING" : "FAILED";
  const next = status === "PENDING" ? new Date(now.getTime() + RETRY_DELAYS_MS[made - 1]!) : now;
  await db().webhookDelivery.updateMany({
    where: { id, status: "PENDING" },
    data: { status, attempts: made, lastStatusCode: r.statusCode, lastError: r.error, nextAttemptAt: next, deliveredAt: ok ? now : null },
  });
  return { id, status, statusCode: r.statusCode, error: r.error };
}

/** One tick: fan out new alerts, then send what is due. Answers each attempt's outcome. */
export async function deliverWebhooks(opts: DeliverOptions & { limit?: number } = {}): Promise<DeliveryOutcome[]> {
  const now = opts.now ?? new Date();
  await fanOutAlerts({ now });
  const ids = await claimDue(now, opts.limit ?? CLAIM_LIMIT);
  if (ids.length === 0) return [];
  const baseUrl = opts.baseUrl !== undefined ? opts.baseUrl : await publicBaseUrl();
  return Promise.all(ids.map((id) => attemptDelivery(id, { now, baseUrl })));
}
