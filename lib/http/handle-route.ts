import { NextResponse } from "next/server";
import { z } from "zod";
import { log } from "../log";
import { AppError } from "./app-error";
import { peerIsTrustedProxy } from "./client-address";
import { mayHoldPrototypeKey, prototypeKeyPaths } from "./prototype-keys";

/** Maps an error to a JSON response: AppErrors say what to fix; anything else is a bare 500. */
export function errorResponse(err: unknown, requestId?: string | null): NextResponse {
  const { status, body } = errorBody(err, requestId);
  return NextResponse.json(body, { status });
}

/**
 * The status and JSON body an error leaves as, wherever it is served (routes, the agent gateway).
 * A 500 is logged with the request's id (X-Request-Id, set by scripts/serve.ts), which its body
 * names so that a user's report leads to the log line.
 */
export function errorBody(err: unknown, requestId?: string | null): { status: number; body: { error: string; fieldErrors?: Record<string, string[]> } } {
  if (err instanceof AppError) {
    return { status: err.status, body: { error: err.message, ...(err.fieldErrors ? { fieldErrors: err.fieldErrors } : {}) } };
  }
  // A path or query that does not decode (/api/runs/%ff%fe) is the client's mistake.
  if (err instanceof URIError) return { status: 400, body: { error: "The address is not valid: it contains malformed %-escapes." } };
  // A database that is restarting or unreachable is a temporary condition clients should retry.
  const text = err instanceof Error ? `${err.message} ${String((err as { code?: unknown }).code ?? "")}` : String(err);
  if (/ECONNREFUSED|ECONNRESET|57P01|57P03|Can't reach database|terminating connection|Connection terminated|the database system is (starting|shutting) up/i.test(text)) {
    return { status: 503, body: { error: "The database is unavailable at the moment; retry shortly." } };
  }
  log().error("unhandled error in route handler", { requestId: requestId ?? undefined, err });
  return { status: 500, body: { error: `Internal error${requestId ? ` (request ${requestId})` : ""}: the server log has the details.` } };
}

const SAFE_METHODS = new Set(["GET", "HEAD", "OPTIONS"]);

/**
 * CSRF guard for cookie-authenticated mutations: a browser sends Origin (and Sec-Fetch-Site) with
 * every cross-site POST, so a mismatch with our own host is refused. Requests with an
 * Authorization header carry their own credential and cannot be forged by a page.
 */
function refuseCrossSite(req: Request): void {
  if (SAFE_METHODS.has(req.method) || req.headers.get("authorization")) return;
  if (req.headers.get("sec-fetch-site") === "cross-site") throw new AppError("FORBIDDEN", "Cross-site request refused.");
  const origin = req.headers.get("origin");
  if (!origin) return;
  let parsed: URL;
  try {
    parsed = new URL(origin);
  } catch {
    throw new AppError("FORBIDDEN", "Cross-site request refused.");
  }
  // With PUBLIC_URL set, that origin is the only one; request headers (Host, X-Forwarded-Host)
  // are the client's to choose and are not consulted.
  const publicOrigin = publicUrlOrigin();
  if (publicOrigin) {
    if (parsed.origin !== publicOrigin) throw new AppError("FORBIDDEN", "Cross-site request refused.");
    return;
  }
  // Without it, the Origin must name the host the request was addressed to. A browser sets Host
  // to the site it is sending to and cannot be made to lie about it, so a cross-site page's POST
  // arrives with our Host and its own Origin, and is refused; `Origin: http://evil` with
  // `Host: evil` comes only from a non-browser client, which holds no victim's cookie to abuse.
  // X-Forwarded-Host is that address only when one of our proxies wrote it (TRUSTED_PROXIES);
  // from anyone else it is the client's invention (the request hook also removes it, see
  // forwarded-headers.ts; this check does not rely on that).
  const forwarded = peerIsTrustedProxy(req.headers) ? req.headers.get("x-forwarded-host")?.split(",")[0]?.trim() : undefined;
  const host = forwarded || req.headers.get("host");
  if (parsed.host !== host) throw new AppError("FORBIDDEN", "Cross-site request refused.");
}

function publicUrlOrigin(): string | null {
  const raw = process.env.PUBLIC_URL?.trim();
  if (!raw) return null;
  try {
    return new URL(raw).origin;
  } catch {
    throw new Error(`PUBLIC_URL "${raw}" is not a URL (expected e.g. https://probebook.example.com)`);
  }
}

/** Wraps a route handler so every error leaves as JSON without stack traces or SQL. */
export function route<A extends unknown[]>(fn: (...args: A) => Promise<Response>) {
  return async (...args: A): Promise<Response> => {
    try {
      if (args[0] instanceof Request) refuseCrossSite(args[0]);
      return await fn(...args);
    } catch (err) {
      return errorResponse(err, args[0] instanceof Request ? args[0].headers.get("x-request-id") : null);
    }
  };
}

export function fieldErrorsOf(error: z.ZodError): Record<string, string[]> {
  const out: Record<string, string[]> = {};
  for (const issue of error.issues) {
    const key = issue.path.length ? issue.path.join(".") : "_";
    (out[key] ??= []).push(issue.message);
  }
  return out;
}

/**
 * A request's body as a stream of at most maxBytes: the declared Content-Length is checked first
 * and the bytes as they arrive, so a larger body is refused before it is buffered whole.
 */
function limitedBody(req: Request, maxBytes: number, message?: string): ReadableStream<Uint8Array> | null {
  const tooLarge = () => new AppError("PAYLOAD_TOO_LARGE", message ?? `The request body is larger than ${Math.round(maxBytes / 1024)} KiB.`);
  const declared = Number(req.headers.get("content-length") ?? "0");
  if (declared > maxBytes) throw tooLarge();
  if (!req.body) return null;
  const reader = req.body.getReader();
  let size = 0;
  return new ReadableStream<Uint8Array>({
    async pull(controller) {
      const { done, value } = await reader.read();
      if (done) return controller.close();
      size += value.byteLength;
      if (size > maxBytes) {
        await reader.cancel().catch(() => undefined);
        return controller.error(tooLarge());
      }
      controller.enqueue(value);
    },
    cancel: (reason) => reader.cancel(reason),
  });
}

/** Reads a body of at most maxBytes; larger ones are refused before they are buffered whole. */
async function readLimited(req: Request, maxBytes: number, message?: string): Promise<string> {
  const body = limitedBody(req, maxBytes, message);
  if (!body) return "";
  const reader = body.getReader();
  const parts: Uint8Array[] = [];
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    parts.push(value);
  }
  return Buffer.concat(parts).toString("utf8");
}

/**
 * Reads a multipart/form-data body of at most maxBytes (413 beyond it, checked while it arrives) into
 * its fields: text as strings, files as File objects; a field sent twice keeps its last value. Any
 * other content type, or a form that does not decode, is a 400 saying how to send it.
 */
export async function readFormBody(req: Request, maxBytes: number, message?: string): Promise<Record<string, string | File>> {
  // The size first: an oversized upload is a 413 whatever it claims to be.
  const body = limitedBody(req, maxBytes, message);
  const type = req.headers.get("content-type") ?? "";
  if (!/^multipart\/form-data\s*;/i.test(type)) throw new AppError("BAD_REQUEST", "The request body must be multipart/form-data (a form with the file in its `file` field).");
  let form: FormData;
  try {
    form = await new Response(body, { headers: { "content-type": type } }).formData();
  } catch (err) {
    if (err instanceof AppError) throw err;
    // undici wraps the stream's own error (our 413) in its TypeError.
    const cause = (err as { cause?: unknown }).cause;
    if (cause instanceof AppError) throw cause;
    throw new AppError("BAD_REQUEST", "The request body is not a readable multipart/form-data form.");
  }
  const out: Record<string, string | File> = {};
  for (const [k, v] of form.entries()) out[k] = v;
  return out;
}

/** Reads a JSON body of at most maxBytes (413 beyond it); an empty body reads as {}, anything not JSON is a 400. */
export async function readJsonBody(req: Request, maxBytes = 1024 * 1024, message?: string): Promise<unknown> {
  return parseJsonText(await readLimited(req, maxBytes, message));
}

/** A request body's text as JSON: empty is {}, anything not JSON is a 400, a `__proto__` key anywhere a 400 naming its path. */
export function parseJsonText(text: string): unknown {
  let body: unknown;
  try {
    body = text ? JSON.parse(text) : {};
  } catch {
    throw new AppError("BAD_REQUEST", "The request body must be JSON.");
  }
  refusePrototypeKeys(body, text);
  return body;
}

/** A parsed body (or frame) that holds a `__proto__` key anywhere is a 400 naming its path; text is a cheap pre-check. */
export function refusePrototypeKeys(body: unknown, text: string): void {
  const protoKeys = mayHoldPrototypeKey(text) ? prototypeKeyPaths(body) : [];
  if (protoKeys.length) {
    const message = `"__proto__" is not a field of this API: remove it.`;
    throw new AppError("BAD_REQUEST", `${protoKeys[0]}: ${message}`, Object.fromEntries(protoKeys.map((k) => [k, [message]])));
  }
}
