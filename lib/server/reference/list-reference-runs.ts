import { db } from "../../db";

/** The guides' published measurements of one probe, to set a run beside. */
export async function listReferenceRuns({ probe, take = 6 }: { probe: string; take?: number }): Promise<Array<{ id: string; hostLabel: string | null }>> {
  return db().probeRun.findMany({ where: { origin: "REFERENCE", probe }, select: { id: true, hostLabel: true }, orderBy: { hostLabel: "asc" }, take });
}
