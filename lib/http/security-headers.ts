// Response headers every answer carries (next.config.ts sets them on Next's answers; the agent
// gateway, lib/gateway, on its own). API responses (JSON, CSV, SSE) are never documents to run:
// they get a policy that allows nothing.
export const API_CSP = "default-src 'none'; frame-ancestors 'none'; base-uri 'none'; form-action 'none'";

export const COMMON_SECURITY_HEADERS: readonly { key: string; value: string }[] = [
  { key: "X-Content-Type-Options", value: "nosniff" },
  { key: "X-Frame-Options", value: "DENY" },
  { key: "Referrer-Policy", value: "same-origin" },
  { key: "Permissions-Policy", value: "camera=(), microphone=(), geolocation=()" },
];
