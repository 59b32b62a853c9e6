import { db } from "../../db";

/** A host's most recent runs, newest first, for its page. */
export async function listHostRuns({ hostId, take = 20 }: { hostId: string; take?: number }) {
  return db().probeRun.findMany({ where: { hostId }, orderBy: { createdAt: "desc" }, take, select: { id: true, probe: true, status: true, createdAt: true } });
}
