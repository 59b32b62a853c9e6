import crypto from "node:crypto";
import { AppError } from "./app-error";

// The scheme is case-insensitive (RFC 7235); the token is one run of visible characters.
const BEARER = /^Bearer\s+(\S+)$/i;

/**
 * The token of an `Authorization: Bearer <token>` header. undefined when there is no header
 * (the caller may fall back to a session), null when there is one but it is not a bearer token.
 */
export function bearerToken(authorization: string | null | undefined): string | null | undefined {
  if (!authorization) return undefined;
  return BEARER.exec(authorization)?.[1] ?? null;
}

/** The bearer token, which must start with `prefix`; otherwise 401 with `message`. */
export function requireBearer(authorization: string | null | undefined, prefix: string, message: string): string {
  const token = bearerToken(authorization);
  if (!token?.startsWith(prefix)) throw new AppError("UNAUTHORIZED", message);
  return token;
}

/**
 * Whether the header carries exactly `expected` as its bearer token, compared in constant time
 * (of SHA-256 digests, which have one length whatever the token's), so the answer's timing tells
 * nothing of how much of a guess was right.
 */
export function bearerMatches(authorization: string | null | undefined, expected: string): boolean {
  const token = bearerToken(authorization);
  if (!token) return false;
  const digest = (s: string) => crypto.createHash("sha256").update(s).digest();
  return crypto.timingSafeEqual(digest(token), digest(expected));
}
