// The dots and median mark of each arm for one headline figure. The mark is the table's
// median (ratio-interval.ts `median`, the mean of the middle two for an even count), so the
// chart and the table never show two different "medians" of the same runs.
import { median } from "./ratio-interval";
import type { ExperimentSummary } from "./summarise";

export interface ArmPoints {
  label: string;
  values: number[];
  median: number | null;
}

export function armPoints(summary: Pick<ExperimentSummary, "arms">, key: string): ArmPoints[] {
  return summary.arms.map((a) => {
    const values = a.values[key] ?? [];
    return { label: a.label, values, median: values.length ? median(values) : null };
  });
}
