import type { PrismaClient } from "@prisma/client";
import { revokeUserSessions } from "../../auth/session-store";
import { db } from "../../db";
import { AppError } from "../../http/app-error";

export interface SetUserDisabledOptions {
  userId: string;
  disabled: boolean;
  /** The admin CLI passes its own client; the app uses the shared one. */
  client?: PrismaClient;
}

/**
 * Disables (or re-enables) a user. Disabling also revokes their sessions, so re-enabling later
 * does not bring old cookies back; their API tokens are refused while the user is disabled.
 */
export async function setUserDisabled({ userId, disabled, client = db() }: SetUserDisabledOptions): Promise<{ email: string }> {
  const r = await client.user.updateMany({ where: { id: userId }, data: { disabledAt: disabled ? new Date() : null } });
  if (r.count === 0) throw new AppError("NOT_FOUND", `No user with id ${userId}.`);
  if (disabled) await revokeUserSessions(userId, {}, client);
  const u = await client.user.findUniqueOrThrow({ where: { id: userId }, select: { email: true } });
  return u;
}
