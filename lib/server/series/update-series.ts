import type { Actor } from "../../auth/actor";
import { roleAtLeast } from "../../auth/roles";
import { db } from "../../db";
import { AppError } from "../../http/app-error";
import type { SeriesDetail, UpdateSeriesInput } from "../../api/schemas/series";
import { recordAudit } from "../audit/record-audit";
import { getSeries } from "./get-series";
import { headlineChoices, loadSeriesRuns } from "./series-runs";

/**
 * An operator sets which figure a series follows, its window and its threshold; answers the
 * series as it now reads. A metric key the series' runs do not have is refused with the choices.
 */
export async function updateSeries({ id, input, actor, ip = null }: { id: string; input: UpdateSeriesInput; actor: Actor; ip?: string | null }): Promise<SeriesDetail> {
  if (!roleAtLeast(actor.role, "OPERATOR")) throw new AppError("FORBIDDEN", "Changing a series takes the operator role.");
  const s = await db().series.findUnique({ where: { id }, select: { id: true, probe: true, metricKey: true, windowRuns: true, thresholdPct: true } });
  if (!s) throw new AppError("NOT_FOUND", `No series ${id}.`);
  if (input.metricKey) {
    const choices = headlineChoices(await loadSeriesRuns(s.id, s.probe));
    if (!choices.some((c) => c.key === input.metricKey)) {
      const list = choices.map((c) => `${c.key} (${c.noun})`).join(", ") || "none yet";
      throw new AppError("BAD_REQUEST", `metricKey is not a headline figure of this series' runs; they have: ${list}.`, { metricKey: ["not a headline figure of this series"] });
    }
  }
  await db().series.update({
    where: { id },
    data: {
      ...(input.metricKey !== undefined ? { metricKey: input.metricKey } : {}),
      ...(input.windowRuns !== undefined ? { windowRuns: input.windowRuns } : {}),
      ...(input.thresholdPct !== undefined ? { thresholdPct: input.thresholdPct } : {}),
    },
  });
  await recordAudit({
    actor,
    action: "series.update",
    target: { type: "series", id },
    ip,
    details: { before: { metricKey: s.metricKey, windowRuns: s.windowRuns, thresholdPct: s.thresholdPct }, changes: input },
  });
  const now = await getSeries({ id });
  if (!now) throw new AppError("NOT_FOUND", `No series ${id}.`);
  return now;
}
