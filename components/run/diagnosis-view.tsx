import { ResultChart } from "@/components/charts/result-chart";
import { FindingBasis, FindingSource } from "@/components/run/finding-source";
import { timelineCharts, type ResultDiagnosis } from "@/lib/diagnosis/run-diagnosis";

const fmt = (v: number) => v.toLocaleString("en-US", { maximumFractionDigits: 2 });

/** The machine over the run's samples and what the guides' rules read in it. */
export function DiagnosisView({ diagnosis }: { diagnosis: ResultDiagnosis }) {
  const { timeline, findings } = diagnosis;
  return (
    <section aria-label="Diagnosis" data-testid="diagnosis">
      <h2>Diagnosis</h2>
      <p className="muted small" data-testid="diagnosis-summary">
        {timeline.points.length} samples read by the guides&apos; rules ·{" "}
        {findings.length === 0 ? "no symptom found" : `${findings.length} finding${findings.length === 1 ? "" : "s"}`}
      </p>
      {findings.map((f) => (
        <div key={f.rule} className={`alert ${f.severity === "info" ? "" : "alert-warn"}`} data-testid="finding" data-rule={f.rule}>
          <strong>{f.title}</strong> <span className="badge">{f.severity}</span>
          <p>{f.summary}</p>
          <details>
            <summary>
              Evidence: {f.evidence.matched} of {f.evidence.total} samples
            </summary>
            <ul className="small">
              {f.evidence.samples.map((s) => (
                <li key={s.label}>
                  {s.label}:{" "}
                  {Object.entries(s.values)
                    .map(([k, v]) => `${k} ${fmt(v)}`)
                    .join(", ")}
                </li>
              ))}
            </ul>
          </details>
          <FindingBasis finding={f} />
          <FindingSource finding={f} />
        </div>
      ))}
      <h3>Timeline</h3>
      <div data-testid="timeline">
        {timelineCharts(timeline).map((c) => (
          <ResultChart key={c.title} {...c} />
        ))}
      </div>
    </section>
  );
}
