// The agent's socket: one WebSocket per agent (GET /api/agent/socket, `Authorization: Bearer
// pba_…`) that carries the same operations as the HTTP routes of /api/agent/* — the same paths,
// the same bodies (schemas.ts) and the same answers — as numbered request and reply frames. A
// claim over the socket may wait far longer than an HTTP long-poll (the socket's pings prove the
// agent alive meanwhile), so the server answers it the moment a job or a request for the host
// appears: that answer is the push. Imported by the agent and by the server.
import { z } from "zod";

export const AGENT_SOCKET_PATH = "/api/agent/socket";

/**
 * Versions are WebSocket subprotocols: the agent offers every one it speaks, the server picks the
 * newest it speaks too, and an upgrade with none in common is refused (400) naming both lists, so
 * the agent falls back to HTTP, which every server speaks.
 */
export const AGENT_SOCKET_PROTOCOLS = ["probebook-agent.1"] as const;
export type AgentSocketProtocol = (typeof AGENT_SOCKET_PROTOCOLS)[number];

/** The newest protocol both sides speak, or null. */
export function pickAgentSocketProtocol(offered: Iterable<string>): AgentSocketProtocol | null {
  const theirs = new Set(offered);
  for (let i = AGENT_SOCKET_PROTOCOLS.length - 1; i >= 0; i--) {
    const p = AGENT_SOCKET_PROTOCOLS[i]!;
    if (theirs.has(p)) return p;
  }
  return null;
}

/** The longest claim over the socket (HTTP: claimRequestSchema's max, answered within CLAIM_WAIT_SEC). */
export const SOCKET_CLAIM_WAIT_SEC = 900;

/** The server pings every this often; an agent that has not answered by the next ping is cut. */
export const SOCKET_PING_MS = 30_000;

/** The largest frame either side sends: the chunks route's body limit (32 MiB) plus the envelope. */
export const MAX_SOCKET_FRAME_BYTES = 32 * 1024 * 1024 + 64 * 1024;

/** Requests one agent may have unanswered on its socket at once (the claim, uploads, a beat). */
export const MAX_SOCKET_IN_FLIGHT = 16;

/** agent → server: one operation of /api/agent/* (register excepted: the socket is already signed in). */
export const socketRequestSchema = z.strictObject({
  id: z.number().int().min(1).max(2 ** 31 - 1),
  /** The HTTP route's path, e.g. /api/agent/runs/<id>/chunks. */
  path: z.string().min(1).max(200).startsWith("/api/agent/"),
  body: z.unknown(),
});
export type SocketRequest = z.infer<typeof socketRequestSchema>;

/** server → agent: the answer to request `id`, with the status and body the HTTP route would send. */
export const socketReplySchema = z.strictObject({
  id: z.number().int().min(1),
  status: z.number().int().min(100).max(599),
  body: z.unknown().optional(),
});
export type SocketReply = z.infer<typeof socketReplySchema>;

/**
 * Close codes, each with a reason a person can act on (≤ 123 bytes, WebSocket's limit).
 * 1001: the server is going away (restart); the agent reconnects. 1009 (ws): a frame over
 * MAX_SOCKET_FRAME_BYTES.
 */
export const SOCKET_CLOSE = {
  /** A frame that is not JSON or not a request: the reason names the field. */
  malformed: 4400,
  /** The credential was revoked or its host deleted: the agent stops, as on an HTTP 401. */
  revoked: 4401,
  /** More than MAX_SOCKET_IN_FLIGHT requests unanswered. */
  tooManyInFlight: 4429,
} as const;

/** A close reason cut to WebSocket's 123-byte limit on a character boundary. */
export function closeReason(text: string): string {
  let out = text;
  while (Buffer.byteLength(out) > 123) out = out.slice(0, -1);
  return out;
}
