/**
 * JSON for the agent. `no-transform` keeps Next's gzip off these small replies: compressing them
 * cost about a tenth of the app's CPU under many agents and saves nothing on a few hundred bytes.
 */
export function agentReply(body: unknown, init?: ResponseInit): Response {
  const headers = new Headers(init?.headers);
  headers.set("cache-control", "no-store, no-transform");
  return Response.json(body, { ...init, headers });
}

/** The empty answer of a long-poll that found no job. */
export function agentNoContent(): Response {
  return new Response(null, { status: 204, headers: { "cache-control": "no-store, no-transform" } });
}
