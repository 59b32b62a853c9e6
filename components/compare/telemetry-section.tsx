import { Findings } from "@/components/run/findings";
import type { CompareTelemetry } from "@/lib/server/comparisons/load-compare-telemetry";
import { CompareChart } from "./compare-chart";
import styles from "./compare.module.css";

/** The runs' telemetry panels overlaid (one line per run) and each run's diagnosis findings. */
export function TelemetrySection({ data }: { data: CompareTelemetry }) {
  const { model, findings } = data;
  if (model.charts.length === 0 && findings.length === 0) return null;
  return (
    <section className={styles.section} data-testid="compare-telemetry">
      <div className={styles.sectionHead}>
        <h2>The machine during each run</h2>
      </div>
      {model.charts.length > 0 ? (
        <>
          <p className="muted small">Telemetry the agent sampled once a second, on seconds since each run&apos;s probe started: one line per run.</p>
          <div className={styles.grid}>
            {model.charts.map((c) => (
              <CompareChart key={c.id} chart={c} series={model.series} />
            ))}
          </div>
        </>
      ) : null}
      {findings.map((f) => (
        <Findings key={f.runId} findings={f.findings} heading={`Diagnosis: ${f.label}`} />
      ))}
    </section>
  );
}
