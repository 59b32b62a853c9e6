import crypto from "node:crypto";

/** A new signing secret: 32 random bytes, base64url (shown to the admin once). */
export function newWebhookSecret(): string {
  return crypto.randomBytes(32).toString("base64url");
}

/**
 * X-Probebook-Signature's value: HMAC-SHA256 keyed with the target's secret over
 * "<timestamp>.<raw body>". The timestamp inside the signed text lets a receiver refuse replays
 * of an old request (its X-Probebook-Timestamp far from its own clock).
 */
export function signWebhook(secret: string, timestamp: number, body: string): string {
  return `sha256=${crypto.createHmac("sha256", secret).update(`${timestamp}.${body}`).digest("hex")}`;
}

/** What a receiver does (README, "Alerts and webhooks"); used by the tests as a receiver would. */
export function verifyWebhookSignature(secret: string, timestamp: string, body: string, signature: string): boolean {
  const expected = Buffer.from(signWebhook(secret, Number(timestamp), body));
  const given = Buffer.from(signature);
  return /^\d+$/.test(timestamp) && expected.length === given.length && crypto.timingSafeEqual(expected, given);
}
