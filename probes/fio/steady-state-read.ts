// What a fio run's stored measurements say about its steady state. Apart from steady-state.ts
// (the option's schema and argv) because the run page's live charts read it in the browser, where
// zod's classic build has no place (e2e/foundation/client-bundles.spec.ts bounds that page).
import type { Measurement } from "../core/types";

/** What a run's measurements say about steady state: null when fio checked none. */
export function readSteadyState(measurements: readonly Pick<Measurement, "metric" | "value">[]): { reached: boolean; afterSec: number | null } | null {
  const attained = measurements.filter((m) => m.metric === "ss_attained");
  if (attained.length === 0) return null;
  const reached = attained.every((m) => m.value === 1);
  const after = measurements.filter((m) => m.metric === "ss_after").map((m) => m.value);
  return { reached, afterSec: reached && after.length > 0 ? Math.max(...after) / 1000 : null };
}

/** "steady after 4 s" / "not steady within the runtime". */
export function steadyStateText(s: { reached: boolean; afterSec: number | null }): string {
  if (!s.reached) return "not steady within the runtime";
  return s.afterSec === null ? "steady" : `steady after ${Number(s.afterSec.toFixed(1))} s`;
}
