import { getProbe } from "../../../probes/catalog";
import type { NormalisedResult } from "../../../probes/core/types";
import type { ProgressSeries } from "../../../probes/core/view";
import { readRunTelemetry, type TelemetryPoint } from "./get-run-telemetry";
import { readRunLog } from "./read-log";

export interface RunTimelineData {
  samples: TelemetryPoint[];
  progress: ProgressSeries[];
}

/** What the run page's timeline starts from: the stored samples and the probe's progress over time. */
export async function getRunTimeline(opts: { runId: string; probe: string; result: unknown }): Promise<RunTimelineData> {
  const view = getProbe(opts.probe)?.view;
  const [samples, log] = await Promise.all([readRunTelemetry(opts.runId), view?.progress ? readRunLog(opts.runId) : Promise.resolve("")]);
  let progress: ProgressSeries[] = [];
  try {
    progress = view?.progress?.((opts.result as NormalisedResult | null) ?? null, log) ?? [];
  } catch {
    // A log the progress reader does not understand leaves the telemetry panels on their own.
  }
  return { samples, progress };
}
