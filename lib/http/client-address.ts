import crypto from "node:crypto";
import http from "node:http";
import net from "node:net";
import { dropUntrustedForwarding } from "./forwarded-headers";

/**
 * The socket's peer address, stamped on every request by the server process itself (see
 * installPeerHeader). Next.js only fills `X-Forwarded-For` when the client sent none, so that
 * header alone cannot tell a proxy's report from a client's invention.
 */
export const PEER_HEADER = "x-probebook-peer";

const g = globalThis as unknown as { probebookPeerHeader?: boolean; probebookPeerSecret?: string };

/**
 * A per-process random prefix on the header's value: a client cannot forge a value this process
 * accepts, even for a request served before installPeerHeader ran.
 */
function peerSecret(): string {
  g.probebookPeerSecret ??= crypto.randomBytes(16).toString("hex");
  return g.probebookPeerSecret;
}

/** The header value this process writes for a peer address (exported for tests). */
export function peerHeaderValue(address: string): string {
  return `${peerSecret()} ${address}`;
}

/**
 * Overwrites PEER_HEADER on each incoming request with the TCP peer's address (whatever the
 * client sent under that name is discarded), and drops the X-Forwarded-* headers of a peer that is
 * not a trusted proxy (forwarded-headers.ts). Called once per process from instrumentation.ts.
 */
export function installPeerHeader(): void {
  if (g.probebookPeerHeader) return;
  g.probebookPeerHeader = true;
  const emit = http.Server.prototype.emit;
  http.Server.prototype.emit = function (this: http.Server, event: string | symbol, ...args: unknown[]) {
    // Upgrades too: the agent socket's requests are read for their client address like any other.
    if (event === "request" || event === "upgrade") {
      const req = args[0] as http.IncomingMessage;
      const peer = req.socket?.remoteAddress ?? "unknown";
      req.headers[PEER_HEADER] = peerHeaderValue(peer);
      dropUntrustedForwarding(req.headers, peer, (ip) => isTrusted(ip, trustedProxies()));
    }
    return (emit as (this: http.Server, event: string | symbol, ...rest: unknown[]) => boolean).call(this, event, ...args);
  } as typeof emit;
}

/** "::ffff:10.1.2.3" → "10.1.2.3": an IPv4 client seen through a dual-stack socket is that IPv4 address. */
const unmapped = (ip: string) => ip.trim().replace(/^::ffff:(\d+\.\d+\.\d+\.\d+)$/i, "$1");

/** net.BlockList's family name for an address, or null when it is not one. */
function familyOf(ip: string): "ipv4" | "ipv6" | null {
  const v = net.isIP(ip);
  return v === 4 ? "ipv4" : v === 6 ? "ipv6" : null;
}

/**
 * Parses "10.0.0.0/8, 127.0.0.1, ::1" into Node's own address matcher; a bad entry is an error,
 * not ignored. A BlockList also matches the IPv4-mapped IPv6 form of an IPv4 rule (a dual-stack
 * socket reports "::ffff:10.1.2.3"), and a mapped entry is read as the IPv4 address it names.
 */
export function parseCidrList(list: string | undefined): net.BlockList {
  const blocks = new net.BlockList();
  if (!list?.trim()) return blocks;
  for (const entry of list.split(/[\s,]+/).filter(Boolean)) {
    const [addrText = "", bitsText, extra] = entry.split("/");
    const addr = unmapped(addrText);
    const family = familyOf(addr);
    if (!family || extra !== undefined) throw new Error(`TRUSTED_PROXIES: "${entry}" is not an IP address or CIDR block`);
    if (bitsText === undefined) {
      blocks.addAddress(addr, family);
      continue;
    }
    const bits = Number(bitsText);
    if (!/^\d+$/.test(bitsText) || bits > (family === "ipv4" ? 32 : 128)) throw new Error(`TRUSTED_PROXIES: "${entry}" has a bad prefix length`);
    blocks.addSubnet(addr, bits, family);
  }
  return blocks;
}

/** Whether a proxy of ours is at this address; false for anything that is not an address. */
function isTrusted(ip: string, trusted: net.BlockList): boolean {
  const family = familyOf(ip);
  return family !== null && trusted.check(ip, family);
}

/**
 * One X-Forwarded-For entry's address. Some proxies (Azure's, IIS ARR, some ingress set-ups) write
 * the client's port too: "1.2.3.4:5555", "[2001:db8::1]:443" or "[2001:db8::1]". Read as they are,
 * those are no address, and every client behind such a proxy would fall back to the proxy's
 * address and share its throttles. A bare IPv6 address has colons too, so a port is only split
 * off an IPv4 address or a bracketed IPv6 one.
 */
export function hopAddress(entry: string): string {
  const bracketed = /^\[([0-9a-f:.]+)\](?::\d{1,5})?$/i.exec(entry);
  if (bracketed) return bracketed[1] ?? entry;
  const v4port = /^(\d{1,3}(?:\.\d{1,3}){3}):\d{1,5}$/.exec(entry);
  return v4port?.[1] ?? entry;
}

/**
 * The client's address for rate limits and the audit log: the TCP peer, unless the peer is a
 * configured proxy (TRUSTED_PROXIES); then X-Forwarded-For is read from the right, skipping
 * trusted proxies, and the first address no proxy of ours vouches for is the client. A client's
 * own X-Forwarded-For entries are to the left of that and never reached.
 */
export function clientAddress(headers: Headers, trusted: net.BlockList = trustedProxies()): string {
  const [secret, peer] = (headers.get(PEER_HEADER) ?? "").trim().split(" ");
  if (!peer || secret !== peerSecret()) return "unknown";
  if (!isTrusted(peer, trusted)) return unmapped(peer);
  const chain = (headers.get("x-forwarded-for") ?? "").split(",").map((s) => s.trim()).filter(Boolean);
  for (let i = chain.length - 1; i >= 0; i--) {
    const hop = hopAddress(chain[i] ?? "");
    if (!familyOf(hop)) return unmapped(peer); // garbage from the client side: do not key on it
    if (!isTrusted(hop, trusted)) return unmapped(hop);
  }
  return unmapped(chain[0] ? hopAddress(chain[0]) : peer);
}

/**
 * Whether this request came through one of our proxies (its TCP peer is in TRUSTED_PROXIES), so
 * that the X-Forwarded-* headers are the proxy's word and not the client's. False when the peer
 * is unknown (a request this process did not stamp).
 */
export function peerIsTrustedProxy(headers: Headers, trusted: net.BlockList = trustedProxies()): boolean {
  const [secret, peer] = (headers.get(PEER_HEADER) ?? "").trim().split(" ");
  return !!peer && secret === peerSecret() && isTrusted(peer, trusted);
}

let cached: { raw: string | undefined; blocks: net.BlockList } | null = null;
/** The parsed TRUSTED_PROXIES; throws on a bad entry (called at start-up so a typo stops the server). */
export function trustedProxies(): net.BlockList {
  const raw = process.env.TRUSTED_PROXIES;
  if (!cached || cached.raw !== raw) cached = { raw, blocks: parseCidrList(raw) };
  return cached.blocks;
}
