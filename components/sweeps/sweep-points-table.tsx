import Link from "next/link";
import type { SweepPointResult, SweepView } from "@/lib/sweeps/types";
import { fmtIops, fmtLatNs, fmtMBps } from "./sweep-chart-data";

const STATUS_BADGE: Record<SweepPointResult["status"], string> = {
  pending: "QUEUED",
  running: "RUNNING",
  done: "SUCCEEDED",
  failed: "FAILED",
  cancelled: "CANCELLED",
  invalid: "FAILED",
};

function steadyCell(p: SweepPointResult): string {
  if (!p.steady.enabled) return "off";
  if (p.steady.reached === null) return p.status === "done" ? "not reported" : "–";
  if (!p.steady.reached) return "not reached";
  return p.steady.afterSec === null ? "reached" : `reached after ${Math.round(p.steady.afterSec)} s`;
}

/** Every point in the order it ran, with its figures, its steady state and its run; the problem of a point that does not count. */
export function SweepPointsTable({ view, linkRuns = true }: { view: SweepView; linkRuns?: boolean }) {
  const bsSwept = view.grid.blockSizesKiB.length > 1;
  const rows = [...view.points].sort((a, b) => a.order - b.order);
  return (
    <div className="table-wrap">
      <table className="data" data-testid="sweep-points">
        <thead>
          <tr>
            <th className="num">#</th>
            <th>Point</th>
            <th>Status</th>
            <th className="num">IOPS</th>
            <th className="num">MB/s</th>
            <th className="num">p50</th>
            <th className="num">p99</th>
            <th className="num">p99.9</th>
            <th className="num">Runtime</th>
            <th>Steady</th>
            <th>Run</th>
          </tr>
        </thead>
        <tbody>
          {rows.map((p) => (
            <tr key={`${p.iodepth}-${p.numjobs}-${p.blockSizeKiB}`} data-testid="sweep-point-row" data-status={p.status}>
              <td className="num">{p.order + 1}</td>
              <td style={{ whiteSpace: "nowrap" }}>
                QD {p.iodepth} × {p.numjobs}
                {bsSwept ? ` · ${p.blockSizeKiB} KiB` : ""}
              </td>
              <td>
                <span className={`badge badge-${STATUS_BADGE[p.status]}`}>{p.status}</span>
                {p.problem ? (
                  <div className="small" style={{ color: "var(--warn)" }} data-testid="sweep-point-problem">
                    {p.problem}
                  </div>
                ) : null}
              </td>
              <td className="num">{fmtIops(p.iops)}</td>
              <td className="num">{fmtMBps(p.bandwidthBps)}</td>
              <td className="num">{fmtLatNs(p.latP50Ns)}</td>
              <td className="num">{fmtLatNs(p.latP99Ns)}</td>
              <td className="num">{fmtLatNs(p.latP999Ns)}</td>
              <td className="num">{p.runtimeSec === null ? "–" : `${Math.round(p.runtimeSec)} s`}</td>
              <td className="small">{steadyCell(p)}</td>
              <td>{p.runId && linkRuns ? <Link href={`/runs/${p.runId}`}>{p.runId.slice(0, 8)}</Link> : "–"}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
