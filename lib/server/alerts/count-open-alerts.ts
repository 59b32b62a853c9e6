import { db } from "../../db";

/** Alerts nobody has acknowledged yet, by kind (the nav's badge). */
export async function countOpenAlerts(): Promise<{ regressions: number; improvements: number }> {
  const rows = await db().alert.groupBy({ by: ["kind"], where: { acknowledgedAt: null }, _count: { _all: true } });
  const of = (k: "REGRESSION" | "IMPROVEMENT") => rows.find((r) => r.kind === k)?._count._all ?? 0;
  return { regressions: of("REGRESSION"), improvements: of("IMPROVEMENT") };
}
