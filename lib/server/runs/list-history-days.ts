import { db } from "../../db";

export interface HistoryDayRow {
  runId: string;
  /** YYYY-MM-DD, the sysstat file's own date. */
  day: string;
  warnings: number;
}

/** The sysstat days a host's agent uploaded (--history), newest day first. */
export async function listHistoryDays({ hostId, take = 62 }: { hostId: string; take?: number }): Promise<HistoryDayRow[]> {
  const rows = await db().probeRun.findMany({
    where: { hostId, origin: "HISTORY", historyDay: { not: null } },
    orderBy: { historyDay: "desc" },
    take,
    select: { id: true, historyDay: true, warnings: true },
  });
  return rows.map((r) => ({
    runId: r.id,
    day: r.historyDay!.toISOString().slice(0, 10),
    warnings: Array.isArray(r.warnings) ? r.warnings.length : 0,
  }));
}
