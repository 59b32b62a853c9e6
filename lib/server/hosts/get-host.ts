import { db } from "../../db";
import { AppError } from "../../http/app-error";

/** One host with its agent's reports and the per-device medium overrides; 404 when unknown. */
export async function getHost({ id }: { id: string }) {
  const host = await db().host.findUnique({
    where: { id },
    select: {
      id: true,
      name: true,
      lastSeenAt: true,
      agentRegisteredAt: true,
      registrationExpiresAt: true,
      createdAt: true,
      capabilities: true,
      profile: true,
      mediumOverrides: true,
      toolsCheckedAt: true,
      toolsRecheckRequestedAt: true,
      agentVersion: true,
      createdById: true,
    },
  });
  if (!host) throw new AppError("NOT_FOUND", `No host ${id}.`);
  return host;
}
