import { ResultChart } from "@/components/charts/result-chart";
import { displayMeasurement, getProbe, normalisedResultSchema } from "@/probes/catalog";

const fmt = (v: number) => v.toLocaleString("en-US", { maximumFractionDigits: 3 });

/** A run's parsed numbers: charts first (people look before they read), then the table. */
export function ResultView({ result }: { result: unknown }) {
  const parsed = normalisedResultSchema.safeParse(result);
  if (!parsed.success) return <div className="empty">No parsed result for this run.</div>;
  const r = parsed.data;
  // The probe draws its result (probes/<tool>/view.ts); values in the units compare and exports use.
  const charts = getProbe(r.tool).view.runCharts(r);
  const measurements = r.measurements.slice(0, 2000).map(displayMeasurement);
  const dimKeys = [...new Set(r.measurements.flatMap((m) => Object.keys(m.dims)))];
  return (
    <section aria-label="Results">
      <p className="muted small">
        {r.tool}
        {r.toolVersion ? ` ${r.toolVersion}` : ""} · {r.measurements.length} measurements
      </p>
      {charts.map((c) => (
        <ResultChart key={c.title} {...c} />
      ))}
      <details open={r.measurements.length <= 40}>
        <summary>All measurements</summary>
        <div className="table-wrap">
          <table className="data" data-testid="measurements">
            <thead>
              <tr>
                <th>metric</th>
                {dimKeys.map((k) => (
                  <th key={k}>{k}</th>
                ))}
                <th className="num">value</th>
                <th>unit</th>
              </tr>
            </thead>
            <tbody>
              {measurements.map((m, i) => (
                <tr key={i}>
                  <td>{m.metric}</td>
                  {dimKeys.map((k) => (
                    <td key={k}>{m.dims[k] ?? ""}</td>
                  ))}
                  <td className="num">{fmt(m.value)}</td>
                  <td>{m.unit}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      </details>
    </section>
  );
}
