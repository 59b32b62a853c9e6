import type { Prisma } from "@prisma/client";
import type { z } from "zod";
import type { registerRequestSchema } from "../../../probes/protocol/schemas";
import { generateSecret, hashSecret } from "../../auth/secret-token";
import { db } from "../../db";
import { AppError } from "../../http/app-error";

/** Trades a single-use registration token for the host's agent credential. */
export async function registerAgent(input: z.infer<typeof registerRequestSchema>) {
  const tokenHash = hashSecret(input.registrationToken);
  const credential = generateSecret("pba");
  // Clearing the token hash in the same conditional update makes it single-use under races.
  const now = new Date();
  const updated = await db().host.updateMany({
    where: { registrationTokenHash: tokenHash, registrationExpiresAt: { gt: now } },
    data: {
      registrationTokenHash: null,
      registrationExpiresAt: null,
      agentCredentialHash: hashSecret(credential),
      agentRegisteredAt: now,
      lastSeenAt: now,
      profile: input.profile as Prisma.InputJsonValue,
      capabilities: input.capabilities as Prisma.InputJsonValue,
      toolsCheckedAt: now,
    },
  });
  if (updated.count !== 1) {
    const expired = await db().host.findUnique({ where: { registrationTokenHash: tokenHash }, select: { id: true } });
    throw new AppError(
      "UNAUTHORIZED",
      expired
        ? "This registration token has expired: open the host page and issue a new one."
        : "This registration token is unknown or was already used: open the host page and issue a new one.",
    );
  }
  const host = await db().host.findUniqueOrThrow({ where: { agentCredentialHash: hashSecret(credential) }, select: { id: true, name: true } });
  return { hostId: host.id, hostName: host.name, credential };
}
