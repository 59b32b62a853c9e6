// Server action requests that Next.js itself answers with HTTP 500 before any code of ours runs,
// answered by proxy.ts first with the client error they are:
// - an Origin whose host is not the request's (x-forwarded-host, else Host: Next's own CSRF rule,
//   mirrored here so that the refusal is a 403 instead of "Invalid Server Actions request." as a
//   500), or an Origin that is not a URL at all ("null", garbage), which Next's URL parser throws on;
// - a body over Next's action body limit (Next throws a 413 inside its action handler and sends 500);
// - a body React cannot decode as action arguments (not JSON, nested deeper than any form sends, a
//   reference to a value that was not sent, a multipart body that does not parse), which throws
//   inside React's decodeReply.
// An unknown or malformed Next-Action id needs nothing: Next answers 409 or 400 itself.

/** Next's default `serverActions.bodySizeLimit` (next.config.ts does not change it). */
export const ACTION_BODY_LIMIT = 1024 * 1024;
/** Deeper than any argument list React encodes for a form; 10,000 levels overflow the decoder. */
export const ACTION_MAX_DEPTH = 32;

const refuse = (status: number, error: string) => Response.json({ error }, { status });

/** Host of Origin as Next compares it with the request's host, or null when Origin is not a URL. */
function originHost(origin: string): string | null {
  try {
    return new URL(origin).host || null;
  } catch {
    return null;
  }
}

/** Next's notion of this request's host: the first X-Forwarded-Host, else Host. */
function requestHost(headers: Headers): string | null {
  const forwarded = headers.get("x-forwarded-host")?.split(",")[0]?.trim();
  return forwarded || headers.get("host");
}

/** How deeply arrays and objects nest in JSON text (strings skipped); stops counting past `limit`. */
export function jsonDepth(text: string, limit = Infinity): number {
  let depth = 0;
  let max = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (inString) {
      if (c === "\\") i++;
      else if (c === '"') inString = false;
    } else if (c === '"') inString = true;
    else if (c === "[" || c === "{") {
      max = Math.max(max, ++depth);
      if (max > limit) return max;
    } else if (c === "]" || c === "}") depth--;
  }
  return max;
}

/**
 * React's reply encoding marks references with "$…" strings. Forms send only these: "$$…" (a
 * string that starts with $), "$undefined", "$K<n>" (the FormData), dates, numbers JSON cannot
 * carry and BigInts. Every other kind (promises, maps, sets, streams, blobs, server or temporary
 * references) points at rows a form never sends, and a dangling one throws inside the decoder.
 */
const FORM_REFERENCE = /^\$(\$|undefined$|K\d+$|D|n-?\d+$|NaN$|-?Infinity$|-0$)/;

function unknownReference(value: unknown): boolean {
  if (typeof value === "string") return value.startsWith("$") && !FORM_REFERENCE.test(value);
  if (Array.isArray(value)) return value.some(unknownReference);
  if (value && typeof value === "object") return Object.entries(value).some(([k, v]) => unknownReference(k) || unknownReference(v));
  return false;
}

/** Refusal of an encoded argument list (React's reply): not JSON, nested too deep, or referring to what a form never sends. */
function badReply(text: string): Response | null {
  if (jsonDepth(text, ACTION_MAX_DEPTH) > ACTION_MAX_DEPTH) return refuse(400, "The action's arguments are nested too deeply.");
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return refuse(400, "The action's arguments are not valid.");
  }
  return unknownReference(value) ? refuse(400, "The action's arguments are not valid.") : null;
}

/**
 * For a POST to a page (the only POSTs pages take are server actions): the refusal to send instead
 * of letting Next answer 500, or null to let the request through.
 */
export async function refuseServerActionRequest(request: Request): Promise<Response | null> {
  if (request.method !== "POST" || new URL(request.url).pathname.startsWith("/api/")) return null;
  const fetchAction = request.headers.has("next-action");
  const multipart = (request.headers.get("content-type") ?? "").toLowerCase().startsWith("multipart/form-data");
  // Next considers only these as actions; any other POST renders the page.
  if (!fetchAction && !multipart) return null;
  const origin = request.headers.get("origin");
  // No Origin: not a browser's cross-site request (Next lets it through too).
  if (origin !== null) {
    const host = originHost(origin);
    if (host === null || host !== requestHost(request.headers)) return refuse(403, "Cross-site request refused.");
  }
  if (Number(request.headers.get("content-length") ?? 0) > ACTION_BODY_LIMIT) return refuse(413, "The form is larger than 1 MiB.");
  const body = request.clone();
  if (multipart) {
    let form: FormData;
    try {
      form = await body.formData();
    } catch {
      return refuse(400, "The form's body does not parse.");
    }
    // A fetch action's numbered fields are JSON (its argument list and the values it refers to).
    if (fetchAction) {
      for (const [name, value] of form.entries()) if (/^\d+$/.test(name) && typeof value === "string") {
        const bad = badReply(value);
        if (bad) return bad;
      }
    }
    return null;
  }
  const bytes = await body.arrayBuffer();
  if (bytes.byteLength > ACTION_BODY_LIMIT) return refuse(413, "The form is larger than 1 MiB.");
  return badReply(new TextDecoder().decode(bytes));
}
