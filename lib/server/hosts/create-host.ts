import type { Prisma } from "@prisma/client";
import { z } from "zod";
import { generateSecret, hashSecret } from "../../auth/secret-token";
import { db } from "../../db";
import { AppError } from "../../http/app-error";

export const REGISTRATION_TTL_MS = 24 * 60 * 60 * 1000;

export const hostNameSchema = z
  .string()
  .trim()
  .min(1, "Give the host a name.")
  .max(100, "Host names are at most 100 characters.")
  .regex(/^[\p{L}\p{N} ._:@()-]+$/u, "Use letters, digits, spaces and . _ - : @ ( ) only.");

export const createHostSchema = z.object({ name: hostNameSchema });

/** Per-user limits; PROBEBOOK_MAX_HOSTS_PER_USER and PROBEBOOK_MAX_PENDING_REGISTRATIONS override them. */
export function hostLimits(): { hosts: number; pending: number } {
  const num = (v: string | undefined, d: number) => (v && /^\d+$/.test(v) && Number(v) > 0 ? Number(v) : d);
  return { hosts: num(process.env.PROBEBOOK_MAX_HOSTS_PER_USER, 200), pending: num(process.env.PROBEBOOK_MAX_PENDING_REGISTRATIONS, 10) };
}

/**
 * Refuses (429) when the user already has the maximum of hosts or of unused, unexpired
 * registration tokens. Runs under a per-user advisory lock inside the caller's transaction, so
 * a burst of concurrent requests cannot all pass the count.
 */
async function assertUnderHostLimits(tx: Prisma.TransactionClient, userId: string, newHost: boolean): Promise<void> {
  const limits = hostLimits();
  await tx.$executeRaw`SELECT pg_advisory_xact_lock(hashtext(${`hosts:${userId}`}))`;
  if (newHost) {
    const hosts = await tx.host.count({ where: { createdById: userId } });
    if (hosts >= limits.hosts) {
      throw new AppError("RATE_LIMITED", `You have ${hosts} hosts, the most one user may register (${limits.hosts}): delete unused hosts or ask an administrator to raise PROBEBOOK_MAX_HOSTS_PER_USER.`);
    }
  }
  const pending = await tx.host.count({ where: { createdById: userId, registrationTokenHash: { not: null }, registrationExpiresAt: { gt: new Date() } } });
  if (pending >= limits.pending) {
    throw new AppError("RATE_LIMITED", `You have ${pending} registration tokens not used yet (the most is ${limits.pending}): register those agents or wait until the tokens expire (24 h).`);
  }
}

/** Creates a host and its one-time registration token (shown once, valid 24 h, stored hashed). */
export async function createHost(input: { name: string; createdById?: string | null }) {
  const token = generateSecret("pbr");
  const host = await db().$transaction(async (tx) => {
    if (input.createdById) await assertUnderHostLimits(tx, input.createdById, true);
    return tx.host.create({
      data: {
        name: input.name,
        createdById: input.createdById,
        registrationTokenHash: hashSecret(token),
        registrationExpiresAt: new Date(Date.now() + REGISTRATION_TTL_MS),
      },
      select: { id: true, name: true, registrationExpiresAt: true },
    });
  });
  return { ...host, registrationToken: token };
}

/** Revokes the agent credential and issues a fresh registration token ("revoke and re-register"). */
export async function reissueRegistration(hostId: string, byUserId?: string) {
  const token = generateSecret("pbr");
  if (byUserId) await db().$transaction((tx) => assertUnderHostLimits(tx, byUserId, false));
  const host = await db().host.update({
    where: { id: hostId },
    data: {
      agentCredentialHash: null,
      registrationTokenHash: hashSecret(token),
      registrationExpiresAt: new Date(Date.now() + REGISTRATION_TTL_MS),
    },
    select: { id: true, name: true, registrationExpiresAt: true },
  });
  return { ...host, registrationToken: token };
}
