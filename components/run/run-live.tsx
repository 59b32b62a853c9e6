"use client";

import type { ReactNode } from "react";
import { ENDED_STATUSES } from "@/lib/run-status";
import type { TelemetryOrigin } from "@/lib/timeline/panels";
import { useRunLive } from "./run-live-provider";
import { RunTerminal } from "./run-terminal";
import { RunTimeline } from "./run-timeline";

/**
 * The run's output, its progress bar and its timeline, as the live view (RunLiveProvider) reads
 * them from the run's event stream: chunks feed the terminal and the probe's progress, telemetry
 * events the panels.
 */
export function RunLive({
  prunedNotice = null,
  origin = "AGENT",
  drawnElsewhere = [],
  output = null,
}: {
  prunedNotice?: string | null;
  origin?: TelemetryOrigin;
  /** Telemetry panels the page draws elsewhere (a sar run's diagnosis). */
  drawnElsewhere?: readonly string[];
  /** Stands in for the terminal when the output is a data file rather than a tool's text. */
  output?: ReactNode;
} = {}) {
  const run = useRunLive();
  if (!run) return null;
  return (
    <>
      {prunedNotice ? (
        // The retention setting dropped the chunks: say so rather than draw an empty terminal.
        <p className="alert alert-warn" data-testid="log-pruned">
          {prunedNotice}
        </p>
      ) : (
        (output ?? <RunLiveOutput />)
      )}
      <h2>Timeline</h2>
      <div data-testid="timeline-live-received" data-count={run.liveReceived} hidden />
      <RunTimeline samples={run.samples} progress={run.series} live={run.live} origin={origin} drawnElsewhere={drawnElsewhere} />
    </>
  );
}

/** The progress bar while the run is live and says how far it is, above the terminal. */
export function RunLiveOutput() {
  const run = useRunLive();
  if (!run) return null;
  const { live, status, bar, output } = run;
  const running = live && !ENDED_STATUSES.has(status);
  return (
    <div>
      {running && bar ? (
        <div style={{ margin: "0.5rem 0" }}>
          <div className="progress" role="progressbar" aria-label="Run progress" aria-valuemin={0} aria-valuemax={100} aria-valuenow={Math.round(bar.fraction * 100)} aria-valuetext={bar.withinStepUnknown ? bar.label : undefined}>
            <div style={{ width: `${(bar.fraction * 100).toFixed(1)}%` }} />
          </div>
          <div className="muted small" data-testid="run-progress">
            {/* A step the tool cannot size has no honest percentage: the label names the step. */}
            {bar.withinStepUnknown ? bar.label : `${bar.label} · ${Math.round(bar.fraction * 100)} %`}
          </div>
        </div>
      ) : null}
      <RunTerminal output={output} />
    </div>
  );
}
