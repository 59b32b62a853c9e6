// A host's series in a table: each with its latest value, a sparkline of the recent ones and the
// trend; the host page's "Series" section.
import Link from "next/link";
import { fmtValue } from "./series-chart-data";
import { Sparkline } from "./sparkline";
import type { SeriesSummary } from "./types";

export function SeriesList({ series }: { series: SeriesSummary[] }) {
  if (series.length === 0) {
    return (
      <div className="empty" data-testid="series-empty">
        No series yet. A series forms when the same test runs again on this host: the same probe with the same preset or parameters in the same directory. Run one again, or put it on a{" "}
        <Link href="/schedules">schedule</Link>, and each run adds a point.
      </div>
    );
  }
  return (
    <div className="table-wrap">
      <table className="data" data-testid="series-list">
        <thead>
          <tr>
            <th>Series</th>
            <th className="num">Latest</th>
            <th>Recent runs</th>
            <th className="num">Runs</th>
          </tr>
        </thead>
        <tbody>
          {series.map((s) => (
            <tr key={s.id}>
              <td>
                <Link href={`/series/${s.id}`}>{s.title}</Link>
                {s.metric ? <div className="muted small">{s.metric.noun}</div> : null}
                {s.openAlerts > 0 ? (
                  <span className="badge badge-regression" title="Open alerts">
                    {s.openAlerts} open alert{s.openAlerts === 1 ? "" : "s"}
                  </span>
                ) : null}
              </td>
              <td className="num" data-testid="series-latest">
                {s.latest === null ? "–" : `${fmtValue(s.latest)} ${s.metric?.unit ?? ""}`}
              </td>
              <td>
                <Sparkline
                  values={s.recent}
                  trend={s.trend}
                  betterWhen={s.metric?.betterWhen ?? null}
                  label={`${s.metric?.noun ?? "value"} of the last ${s.recent.length} valid runs: ${s.recent.map(fmtValue).join(", ")}${s.metric ? ` ${s.metric.unit}` : ""}`}
                />
              </td>
              <td className="num">{s.runs}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
