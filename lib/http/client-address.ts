import crypto from "node:crypto";
import http from "node:http";
import net from "node:net";

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
 * client sent under that name is discarded). Called once per process from instrumentation.ts.
 */
export function installPeerHeader(): void {
  if (g.probebookPeerHeader) return;
  g.probebookPeerHeader = true;
  const emit = http.Server.prototype.emit;
  http.Server.prototype.emit = function (this: http.Server, event: string | symbol, ...args: unknown[]) {
    if (event === "request") {
      const req = args[0] as http.IncomingMessage;
      req.headers[PEER_HEADER] = peerHeaderValue(req.socket?.remoteAddress ?? "unknown");
    }
    return (emit as (this: http.Server, event: string | symbol, ...rest: unknown[]) => boolean).call(this, event, ...args);
  } as typeof emit;
}

interface Cidr {
  family: 4 | 6;
  bytes: Buffer;
  bits: number;
}

function toBytes(ip: string): { family: 4 | 6; bytes: Buffer } | null {
  const plain = ip.replace(/^::ffff:(\d+\.\d+\.\d+\.\d+)$/i, "$1");
  if (net.isIPv4(plain)) return { family: 4, bytes: Buffer.from(plain.split(".").map(Number)) };
  if (!net.isIPv6(plain)) return null;
  const [head = "", tail = ""] = plain.split("::");
  const parts = (s: string) => (s ? s.split(":") : []);
  const h = parts(head);
  const t = parts(tail);
  const groups = plain.includes("::") ? [...h, ...Array<string>(8 - h.length - t.length).fill("0"), ...t] : h;
  if (groups.length !== 8) return null;
  const buf = Buffer.alloc(16);
  groups.forEach((grp, i) => buf.writeUInt16BE(parseInt(grp, 16) || 0, i * 2));
  return { family: 6, bytes: buf };
}

/** Parses "10.0.0.0/8, 127.0.0.1, ::1" into CIDR blocks; a bad entry is an error, not ignored. */
export function parseCidrList(list: string | undefined): Cidr[] {
  if (!list?.trim()) return [];
  return list.split(/[\s,]+/).filter(Boolean).map((entry) => {
    const [addr = "", bitsText] = entry.split("/");
    const ip = toBytes(addr);
    if (!ip) throw new Error(`TRUSTED_PROXIES: "${entry}" is not an IP address or CIDR block`);
    const max = ip.family === 4 ? 32 : 128;
    const bits = bitsText === undefined ? max : Number(bitsText);
    if (!Number.isInteger(bits) || bits < 0 || bits > max) throw new Error(`TRUSTED_PROXIES: "${entry}" has a bad prefix length`);
    return { ...ip, bits };
  });
}

function inCidr(ip: string, blocks: readonly Cidr[]): boolean {
  const a = toBytes(ip.trim());
  if (!a) return false;
  return blocks.some((c) => {
    if (c.family !== a.family) return false;
    const full = Math.floor(c.bits / 8);
    if (!a.bytes.subarray(0, full).equals(c.bytes.subarray(0, full))) return false;
    const rest = c.bits % 8;
    if (rest === 0) return true;
    const mask = (0xff << (8 - rest)) & 0xff;
    return ((a.bytes[full] ?? 0) & mask) === ((c.bytes[full] ?? 0) & mask);
  });
}

/**
 * The client's address for rate limits and the audit log: the TCP peer, unless the peer is a
 * configured proxy (TRUSTED_PROXIES); then X-Forwarded-For is read from the right, skipping
 * trusted proxies, and the first address no proxy of ours vouches for is the client. A client's
 * own X-Forwarded-For entries are to the left of that and never reached.
 */
export function clientAddress(headers: Headers, trusted: readonly Cidr[] = trustedProxies()): string {
  const [secret, peer] = (headers.get(PEER_HEADER) ?? "").trim().split(" ");
  if (!peer || secret !== peerSecret()) return "unknown";
  const normalise = (ip: string) => ip.trim().replace(/^::ffff:(\d+\.\d+\.\d+\.\d+)$/i, "$1");
  if (!inCidr(peer, trusted)) return normalise(peer);
  const chain = (headers.get("x-forwarded-for") ?? "").split(",").map((s) => s.trim()).filter(Boolean);
  for (let i = chain.length - 1; i >= 0; i--) {
    const hop = chain[i] ?? "";
    if (!toBytes(hop)) return normalise(peer); // garbage from the client side: do not key on it
    if (!inCidr(hop, trusted)) return normalise(hop);
  }
  return normalise(chain[0] ?? peer);
}

let cached: { raw: string | undefined; blocks: Cidr[] } | null = null;
/** The parsed TRUSTED_PROXIES; throws on a bad entry (called at start-up so a typo stops the server). */
export function trustedProxies(): Cidr[] {
  const raw = process.env.TRUSTED_PROXIES;
  if (!cached || cached.raw !== raw) cached = { raw, blocks: parseCidrList(raw) };
  return cached.blocks;
}
