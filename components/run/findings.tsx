import { FindingBasis, FindingSource } from "@/components/run/finding-source";
import type { RunFinding } from "@/lib/server/runs/get-run-findings";

const fmt = (v: number) => v.toLocaleString("en-US", { maximumFractionDigits: 2 });

/** Diagnosis findings with the samples that showed them and the guide section (or document) that explains them. */
export function Findings({ findings, heading = "Diagnosis" }: { findings: readonly RunFinding[]; heading?: string }) {
  if (findings.length === 0) return null;
  return (
    <section data-testid="findings">
      <h2>{heading}</h2>
      {findings.map((f, i) => (
        <div key={`${f.rule}-${i}`} className={`alert ${f.severity === "info" ? "" : f.severity === "critical" ? "alert-error" : "alert-warn"}`} data-testid="finding" data-rule={f.rule}>
          <strong>{f.title}</strong> <span className="muted small">({f.severity})</span>
          <p>{f.summary}</p>
          <details>
            <summary className="small">
              Evidence: {f.evidence.matched} of {f.evidence.total} samples
            </summary>
            <table className="small">
              <tbody>
                {f.evidence.samples.map((s) => (
                  <tr key={s.label}>
                    <td>{s.label}</td>
                    <td>
                      {Object.entries(s.values)
                        .map(([k, v]) => `${k} ${fmt(v)}`)
                        .join(" · ")}
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </details>
          <FindingBasis finding={f} />
          <FindingSource finding={f} />
        </div>
      ))}
    </section>
  );
}
