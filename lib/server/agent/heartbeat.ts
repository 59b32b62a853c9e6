import type { Prisma } from "@prisma/client";
import type { z } from "zod";
import type { heartbeatRequestSchema } from "../../../probes/protocol/schemas";
import { db } from "../../db";

/** Records that the agent is alive and which runs it is working on; answers pending cancellations. */
export async function heartbeat(hostId: string, input: z.infer<typeof heartbeatRequestSchema>) {
  const now = new Date();
  await db().host.update({
    where: { id: hostId },
    data: {
      lastSeenAt: now,
      ...(input.profile ? { profile: input.profile as Prisma.InputJsonValue } : {}),
      ...(input.capabilities ? { capabilities: input.capabilities as Prisma.InputJsonValue, toolsCheckedAt: now } : {}),
    },
  });
  if (input.runningRunIds.length === 0) return { cancelRunIds: [] };
  await db().probeRun.updateMany({
    where: { id: { in: input.runningRunIds }, hostId },
    data: { lastActivityAt: now },
  });
  const cancelled = await db().probeRun.findMany({
    where: { id: { in: input.runningRunIds }, hostId, cancelRequestedAt: { not: null } },
    select: { id: true },
  });
  return { cancelRunIds: cancelled.map((r) => r.id) };
}
