import crypto from "node:crypto";

/**
 * Bearer secrets (API tokens, host registration tokens, agent credentials): 32 random bytes,
 * prefixed by their kind so a leaked one is recognisable. Only the SHA-256 is stored; the
 * token has 256 bits of entropy, so a slow hash adds nothing.
 */
export type SecretKind = "pbt" | "pbr" | "pba";

export function generateSecret(kind: SecretKind): string {
  return `${kind}_${crypto.randomBytes(32).toString("base64url")}`;
}

export function hashSecret(secret: string): string {
  return crypto.createHash("sha256").update(secret, "utf8").digest("hex");
}

/** Constant-time comparison of a presented secret against a stored hash. */
export function secretMatches(secret: string, storedHash: string): boolean {
  const a = Buffer.from(hashSecret(secret), "hex");
  const b = Buffer.from(storedHash, "hex");
  return a.length === b.length && crypto.timingSafeEqual(a, b);
}
