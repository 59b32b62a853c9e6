import type { PrismaClient } from "@prisma/client";
import { dummyPasswordHash, verifyPassword } from "../../auth/password";
import { db } from "../../db";
import { AppError } from "../../http/app-error";
import { assertNotThrottled, clearThrottle, recordFailure, type ThrottleKey } from "../../http/auth-throttle";
import { recordAudit } from "../audit/record-audit";
import { createSession } from "../../auth/session-store";

export type SignInResult = { ok: true; sessionId: string; userId: string } | { ok: false; message: string };

/**
 * Checks an email and password from a client address: throttled first (per account and
 * address, per account, per address — see lib/http/auth-throttle.ts), then verified; a success
 * opens a server-side session. Disabled users are refused with the same message as a wrong
 * password only after the password matched, so the message does not reveal the state to guessers.
 */
export async function attemptSignIn(
  input: { email: string; password: string; ip: string; userAgent?: string | null },
  now = new Date(),
  client: PrismaClient = db(),
): Promise<SignInResult> {
  const email = input.email.trim().toLowerCase();
  const accountClient: ThrottleKey = { policy: "signInAccountClient", id: `${email}|${input.ip}` };
  const account: ThrottleKey = { policy: "signInAccount", id: email };
  const address: ThrottleKey = { policy: "signInClient", id: input.ip };
  try {
    await assertNotThrottled([accountClient, account, address], now, client);
  } catch (err) {
    if (err instanceof AppError) return { ok: false, message: err.message };
    throw err;
  }
  const user = await client.user.findUnique({ where: { email }, select: { id: true, email: true, passwordHash: true, disabledAt: true } });
  const ok = await verifyPassword(user?.passwordHash ?? (await dummyPasswordHash()), input.password);
  if (!user || !ok) {
    await recordFailure([accountClient, account, address], now, client);
    await recordAudit({ actor: null, action: "sign-in.failed", ip: input.ip, details: { email: email.slice(0, 254) } }, client);
    return { ok: false, message: "Wrong email or password." };
  }
  if (user.disabledAt) {
    await recordAudit({ actor: { userId: user.id, email: user.email }, action: "sign-in.failed", ip: input.ip, details: { reason: "disabled" } }, client);
    return { ok: false, message: "This account is disabled: ask an administrator." };
  }
  // The account-wide counter is left to decay: the owner signing in must not hand a distributed
  // guesser a fresh allowance.
  await clearThrottle([accountClient], client);
  const sessionId = await createSession(user.id, { ip: input.ip, userAgent: input.userAgent }, client);
  await recordAudit({ actor: { userId: user.id, email: user.email }, action: "sign-in", target: { type: "session", id: sessionId }, ip: input.ip }, client);
  return { ok: true, sessionId, userId: user.id };
}
