import type http from "node:http";

/**
 * Headers only a proxy writes: where the client connected to (host, proto, port) and from where.
 * Next.js compares a server action's Origin with X-Forwarded-Host before Host, builds absolute
 * URLs from them, and this app uses them for the agents' server URL; any client can send them.
 */
export const FORWARDING_HEADERS = ["x-forwarded-host", "x-forwarded-proto", "x-forwarded-port", "x-forwarded-for", "forwarded"] as const;

/**
 * Removes the forwarding headers from a request whose TCP peer is not in TRUSTED_PROXIES, before
 * Next.js or any route sees it (called from the request hook in client-address.ts). Without this,
 * `Origin: http://evil` with `X-Forwarded-Host: evil` passed Next's own cross-origin check of
 * server actions. Next then fills X-Forwarded-Host/-Proto/-For from the socket itself
 * (base-server.js), so what reaches the app describes the connection that was actually made.
 * Returns the names removed (for tests).
 */
export function dropUntrustedForwarding(headers: http.IncomingHttpHeaders, peer: string, isTrustedPeer: (peer: string) => boolean): string[] {
  if (isTrustedPeer(peer)) return [];
  const dropped = FORWARDING_HEADERS.filter((name) => headers[name] !== undefined);
  for (const name of dropped) delete headers[name];
  return dropped;
}
