import { z } from "zod";
import { generateSecret, hashSecret } from "../../auth/secret-token";
import { db } from "../../db";

export const REGISTRATION_TTL_MS = 24 * 60 * 60 * 1000;

export const hostNameSchema = z
  .string()
  .trim()
  .min(1, "Give the host a name.")
  .max(100, "Host names are at most 100 characters.")
  .regex(/^[\p{L}\p{N} ._:@()-]+$/u, "Use letters, digits, spaces and . _ - : @ ( ) only.");

export const createHostSchema = z.object({ name: hostNameSchema });

/** Creates a host and its one-time registration token (shown once, valid 24 h, stored hashed). */
export async function createHost(input: { name: string; createdById?: string | null }) {
  const token = generateSecret("pbr");
  const host = await db().host.create({
    data: {
      name: input.name,
      createdById: input.createdById,
      registrationTokenHash: hashSecret(token),
      registrationExpiresAt: new Date(Date.now() + REGISTRATION_TTL_MS),
    },
    select: { id: true, name: true, registrationExpiresAt: true },
  });
  return { ...host, registrationToken: token };
}

/** Revokes the agent credential and issues a fresh registration token ("revoke and re-register"). */
export async function reissueRegistration(hostId: string) {
  const token = generateSecret("pbr");
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
