import { db } from "../../db";

/**
 * A host's most recent runs, newest first, for its page. History days have their own list
 * (list-history-days.ts): a month of them would otherwise push every launched run off this one.
 */
export async function listHostRuns({ hostId, take = 20 }: { hostId: string; take?: number }) {
  return db().probeRun.findMany({
    where: { hostId, origin: { not: "HISTORY" } },
    orderBy: { createdAt: "desc" },
    take,
    select: { id: true, probe: true, status: true, createdAt: true },
  });
}
