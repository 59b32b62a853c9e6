// Runs before every request: refuses malformed paths (400), and gives each page a
// Content-Security-Policy with a per-request script nonce. Next.js reads the nonce from the
// request's CSP header and puts it on its own scripts, so no inline script without it runs:
// an injected <script> has no way to know this request's nonce. Pages therefore render per
// request (the root layout awaits connection()).
import { NextResponse, type NextRequest } from "next/server";
import { refuseServerActionRequest } from "./lib/http/server-action-request";

function contentSecurityPolicy(nonce: string, dev: boolean): string {
  return [
    "default-src 'self'",
    // 'strict-dynamic': scripts the nonce'd bootstrap loads (page chunks) are trusted through it.
    `script-src 'self' 'nonce-${nonce}' 'strict-dynamic'${dev ? " 'unsafe-eval'" : ""}`,
    // Recharts and xterm set style attributes, which nonces cannot cover; styles cannot run code.
    "style-src 'self' 'unsafe-inline'",
    "img-src 'self' data: blob:",
    "font-src 'self' data:",
    "connect-src 'self'",
    "object-src 'none'",
    "base-uri 'self'",
    "form-action 'self'",
    "frame-ancestors 'none'",
  ].join("; ");
}

export async function proxy(request: NextRequest) {
  // A path with malformed %-escapes (/api/runs/%ff%fe) made Next's own parameter decoding fail
  // with a bare 500; it is the client's mistake and gets a 400 that says so.
  try {
    decodeURIComponent(request.nextUrl.pathname);
  } catch {
    return NextResponse.json({ error: "The address is not valid: it contains malformed %-escapes." }, { status: 400 });
  }
  // A server action request Next would answer with a bare 500 (cross-site Origin, oversized or
  // undecodable body) gets the 403/413/400 it is (lib/http/server-action-request.ts).
  const refusal = await refuseServerActionRequest(request);
  if (refusal) return refusal;
  // API responses get the static deny-all policy from next.config.ts; no nonce to hand out.
  if (request.nextUrl.pathname.startsWith("/api/")) return NextResponse.next();
  const nonce = Buffer.from(crypto.getRandomValues(new Uint8Array(18))).toString("base64");
  const csp = contentSecurityPolicy(nonce, process.env.NODE_ENV !== "production");
  const requestHeaders = new Headers(request.headers);
  requestHeaders.set("x-nonce", nonce);
  requestHeaders.set("content-security-policy", csp);
  const response = NextResponse.next({ request: { headers: requestHeaders } });
  response.headers.set("content-security-policy", csp);
  // HSTS only where TLS is known to be in front (the same switch as Secure cookies).
  if (process.env.COOKIE_SECURE === "1") response.headers.set("strict-transport-security", "max-age=31536000; includeSubDomains");
  return response;
}

// The agent API skips this, as the hot path of a fleet (long-polls, a chunk upload per burst of
// output): running it for a POST costs Next a copy of the body, which took a live run's upload from
// 14 to ~200 ms at the median under 50 runs × 10 lines/s (bench/README.md). Only an agent path with
// a %-escape comes here (run ids never have one), since Next answers a malformed escape in a route
// parameter with a bare 500 before the route runs (e2e/security checks it).
//
// The imports skip it too: Next's copy of the body stops at proxyClientMaxBodySize (10 MB), so a
// larger output reached the route cut short and was refused as "not JSON". Their paths have no
// parameters, and their one size limit (MAX_IMPORT_BYTES) is the route's own (lib/api/runs.ts).
export const config = { matcher: ["/((?!_next/static|_next/image|api/agent/|api/runs/import).*)", "/api/agent/:rest(.*%.*)"] };
