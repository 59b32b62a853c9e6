import type { Prisma } from "@prisma/client";
import type { z } from "zod";
import type { registerRequestSchema } from "../../../probes/protocol/schemas";
import { generateSecret, hashSecret } from "../../auth/secret-token";
import { db } from "../../db";
import { AppError } from "../../http/app-error";
import { pgPool } from "../../pg-pool";
import { assertAgentCompatible, reportedAgent } from "./compatibility";

/**
 * Whether the token would register now (known, unused, unexpired). A client address blocked for
 * failed registrations still enrols hosts with good tokens: a fleet behind one NAT must not be
 * shut out by a few stale tokens among its hosts, and a 256-bit token cannot be guessed anyway.
 */
export async function registrationTokenIsLive(registrationToken: string): Promise<boolean> {
  const { rows } = await pgPool().query("SELECT 1 FROM hosts WHERE registration_token_hash = $1 AND registration_expires_at > now()", [hashSecret(registrationToken)]);
  return rows.length > 0;
}

/** Trades a single-use registration token for the host's agent credential. */
export async function registerAgent(input: z.infer<typeof registerRequestSchema>) {
  // Before the token is spent: after an upgrade the same token registers.
  assertAgentCompatible(input.capabilities);
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
      ...reportedAgent(input.capabilities),
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
