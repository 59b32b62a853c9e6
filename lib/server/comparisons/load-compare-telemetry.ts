import type { CompareRun } from "../../compare/types";
import { telemetryCompareModel, type TelemetryCompareModel } from "../../timeline/compare-panels";
import { findingsOf, type RunFinding } from "../runs/get-run-findings";
import { readRunTelemetry } from "../runs/get-run-telemetry";

export interface CompareTelemetry {
  model: TelemetryCompareModel;
  findings: { runId: string; label: string; findings: RunFinding[] }[];
}

/** Each compared run's telemetry, overlaid per panel, and its diagnosis findings. */
export async function loadCompareTelemetry(opts: { runs: readonly CompareRun[]; seriesIndex: (runId: string) => number }): Promise<CompareTelemetry> {
  const loaded = await Promise.all(opts.runs.map(async (r) => ({ run: r, samples: await readRunTelemetry(r.id) })));
  const model = telemetryCompareModel(
    loaded.map(({ run, samples }) => ({ runId: run.id, label: run.label, probe: run.probe, index: opts.seriesIndex(run.id), samples })),
  );
  const findings = loaded
    .map(({ run, samples }) => ({ runId: run.id, label: run.label, findings: findingsOf(run, samples) }))
    .filter((f) => f.findings.length > 0);
  return { model, findings };
}
