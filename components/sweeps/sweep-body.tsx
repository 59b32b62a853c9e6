import type { SweepView } from "@/lib/sweeps/types";
import { SaturationCard } from "./saturation-card";
import { progressCounts } from "./sweep-chart-data";
import { SweepCharts } from "./sweep-charts";
import { SweepHeatmap } from "./sweep-heatmap";
import { SweepPointsTable } from "./sweep-points-table";
import { steadyText, workloadText } from "./sweep-text";

/**
 * A sweep experiment's whole read view, shared by its page and its share link: what ran where,
 * the saturation sentence, the charts, the heatmap and the points. Host facts come from the view
 * itself, which a share without host details already has as null.
 */
export function SweepBody({ view, linkRuns = true }: { view: SweepView; linkRuns?: boolean }) {
  const n = progressCounts(view);
  const g = view.grid;
  return (
    <>
      <dl className="facts" data-testid="sweep-facts">
        {view.hostLabel !== null ? (
          <>
            <dt>Host</dt>
            <dd>{view.hostLabel}</dd>
          </>
        ) : null}
        {view.target !== null ? (
          <>
            <dt>Target</dt>
            <dd>
              <code>{view.target}</code>
              {view.fsType ? ` (${view.fsType})` : ""}
            </dd>
          </>
        ) : view.fsType ? (
          <>
            <dt>File system</dt>
            <dd>{view.fsType}</dd>
          </>
        ) : null}
        <dt>Workload</dt>
        <dd>{workloadText(view)}</dd>
        <dt>Grid</dt>
        <dd>
          QD {g.iodepths.join(", ")} × jobs {g.numjobs.join(", ")}
          {g.blockSizesKiB.length > 1 ? ` × ${g.blockSizesKiB.join(", ")} KiB` : ""} = {view.points.length} points, run interleaved
        </dd>
        <dt>Steady state</dt>
        <dd>{steadyText(view.workload.steadyState)}</dd>
        <dt>fio</dt>
        <dd>{view.fioVersion ?? "version not reported yet"}</dd>
      </dl>
      <SaturationCard view={view} />
      <progress className="experiment-progress" value={n.ended} max={Math.max(1, n.total)} aria-label="Points finished" data-testid="sweep-progress" />
      <p className="muted small" data-testid="sweep-progress-text">
        {n.ended} of {n.total} points ended{n.running > 0 ? `, ${n.running} running` : ""}
        {n.problems > 0 ? `; ${n.problems} did not count (see the table)` : ""}.
      </p>
      <h2>Charts</h2>
      <SweepCharts view={view} />
      <SweepHeatmap view={view} />
      <h2>Points</h2>
      <SweepPointsTable view={view} linkRuns={linkRuns} />
    </>
  );
}
