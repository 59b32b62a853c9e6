import type { Prisma } from "@prisma/client";
import type { z } from "zod";
import type { heartbeatRequestSchema } from "../../../probes/protocol/schemas";
import { db } from "../../db";
import { pgPool } from "../../pg-pool";
import { assertAgentCompatible, reportedAgent } from "./compatibility";

/**
 * One plain statement per beat, since an agent beats every second while a probe runs: the host's
 * and the runs' activity stamps (each written at most every 5 s: the dashboard's 90 s online
 * window and the 60 s LOST sweep need no more, and each write copies a wide row), and the runs
 * whose cancellation a user asked for.
 */
const BEAT_SQL = `
  WITH host AS (
    UPDATE hosts SET last_seen_at = now()
    WHERE id = $1::uuid AND (last_seen_at IS NULL OR last_seen_at < now() - interval '5 seconds')
    RETURNING id
  ), runs AS (
    UPDATE probe_runs SET last_activity_at = now()
    WHERE id = ANY($2::uuid[]) AND host_id = $1::uuid AND (last_activity_at IS NULL OR last_activity_at < now() - interval '5 seconds')
    RETURNING id
  )
  -- The two updates run whether or not this reads them (PostgreSQL runs data-modifying WITH parts once).
  SELECT id::text AS id FROM probe_runs WHERE id = ANY($2::uuid[]) AND host_id = $1::uuid AND cancel_requested_at IS NOT NULL`;

/** Records that the agent is alive and which runs it is working on; answers pending cancellations. */
export async function heartbeat(hostId: string, input: z.infer<typeof heartbeatRequestSchema>) {
  // Every start reports the capabilities: an agent this server does not work with is refused then.
  if (input.capabilities) assertAgentCompatible(input.capabilities);
  if (input.profile || input.capabilities) {
    // A report of the host (at start, after a tools re-check or an arm): rare, and written whole.
    const now = new Date();
    await db().host.update({
      where: { id: hostId },
      data: {
        lastSeenAt: now,
        ...(input.profile ? { profile: input.profile as Prisma.InputJsonValue } : {}),
        ...(input.capabilities ? { capabilities: input.capabilities as Prisma.InputJsonValue, ...reportedAgent(input.capabilities), toolsCheckedAt: now } : {}),
      },
    });
  }
  const { rows } = await pgPool().query<{ id: string }>(BEAT_SQL, [hostId, input.runningRunIds]);
  return { cancelRunIds: rows.map((r) => r.id) };
}
