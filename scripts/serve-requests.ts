// Request ids and the access log of the app's HTTP server (scripts/serve.ts).
import crypto from "node:crypto";
import type { IncomingMessage, ServerResponse } from "node:http";
import type { AppLog } from "../lib/log";
import { logSettingsFrom } from "../probes/core/log-settings";

export const REQUEST_ID_HEADER = "x-request-id";

/** An id a proxy or client may hand us: short, and nothing a log line or header could be bent by. */
const SAFE_ID = /^[A-Za-z0-9._-]{1,100}$/;

/**
 * The request's id: the incoming X-Request-Id when it is safe (a proxy's id keeps one id across
 * both logs), else a new UUID. Written into the request's headers, where Next.js's route handlers
 * and the gateway read it, and onto the answer.
 */
export function assignRequestId(req: IncomingMessage, res: ServerResponse | null): string {
  const given = req.headers[REQUEST_ID_HEADER];
  const id = typeof given === "string" && SAFE_ID.test(given) ? given : crypto.randomUUID();
  req.headers[REQUEST_ID_HEADER] = id;
  res?.setHeader("X-Request-Id", id);
  return id;
}

/**
 * Requests that come by the thousand and say nothing when they succeed: a balancer's health
 * checks, Prometheus's scrapes, and HTTP agents' claims, uploads and heartbeats (a fleet of a
 * thousand long-polls about 20 times a second).
 */
const QUIET_PATHS = /^\/(metrics|api\/health(\/live|\/ready)?|api\/agent\/.*)$/;

/**
 * One line per request when it ends (method, path without its query, status, duration, request
 * id): at info with LOG_FORMAT=json, at debug in text (the text log never had one). Health checks,
 * scrapes and agent requests that succeed are at debug in both.
 */
export function accessLogger(log: AppLog, env: Record<string, string | undefined> = process.env) {
  const settings = logSettingsFrom(env);
  const json = !("error" in settings) && settings.format === "json";
  return (req: IncomingMessage, res: ServerResponse, requestId: string): void => {
    const started = process.hrtime.bigint();
    res.once("close", () => {
      const path = (req.url ?? "").split("?")[0]!.slice(0, 300);
      const status = res.statusCode;
      const durationMs = Math.round(Number(process.hrtime.bigint() - started) / 1e5) / 10;
      const fields = { method: req.method, path, status, durationMs, requestId, ...(res.writableFinished ? {} : { aborted: true }) };
      const quiet = !json || (status < 400 && QUIET_PATHS.test(path));
      (quiet ? log.debug : log.info)(`${req.method} ${path} ${status} ${durationMs} ms`, fields);
    });
  };
}
