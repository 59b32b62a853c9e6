import { formatCv } from "@/lib/compare/format";
import { CV_WARN_PERCENT } from "@/lib/compare/stats";
import type { ComparisonModel } from "@/lib/compare/types";
import { DiffersPanel } from "./differs-panel";
import { SectionView } from "./section-view";

/** Everything below a comparison's header; the compare page and a shared link both render it. */
export function CompareBody({ model }: { model: ComparisonModel }) {
  return (
    <>
      {model.skipped.length > 0 ? (
        <div className="alert alert-warn" data-testid="skipped-runs">
          Not drawn (no figures to compare):
          <ul>
            {model.skipped.map((s) => (
              <li key={s.id}>
                {s.label}: {s.reason}
              </li>
            ))}
          </ul>
        </div>
      ) : null}
      {model.flagged.length > 0 ? (
        <div className="alert alert-warn" role="status" data-testid="flagged-runs">
          <strong>Not valid measurements:</strong> the machine&apos;s own telemetry during these runs contradicts their figures, so
          they are drawn but should not be compared.
          <ul>
            {model.flagged.map((f) => (
              <li key={f.id}>
                {f.label}:{" "}
                {f.flags.map((x, i) => (
                  <span key={x.code}>
                    {i > 0 ? "; " : ""}
                    <strong>{x.title}</strong>
                    {x.evidence ? ` (${x.evidence})` : ""}
                  </span>
                ))}
              </li>
            ))}
          </ul>
        </div>
      ) : null}
      {model.cvWarnings.length > 0 ? (
        <div className="alert alert-warn" role="status" data-testid="cv-warning">
          <strong>Repeats disagree by more than {CV_WARN_PERCENT} %</strong> (coefficient of variation): treat differences smaller than
          the spread as noise, or run more repeats.
          <ul>
            {model.cvWarnings.map((w) => (
              <li key={w.seriesKey}>
                {w.label}: {w.count} of {w.total} values above {CV_WARN_PERCENT} %, worst {formatCv(w.worst.cv)} at {w.worst.what}
              </li>
            ))}
          </ul>
        </div>
      ) : null}
      {model.folded && model.series.some((s) => s.runIds.length > 1) ? (
        <p className="muted small">
          Repeats of one configuration (same host, probe, parameters, file system and medium, or one repeat group) are folded: each
          point is their median, whiskers span min–max.
        </p>
      ) : null}
      <DiffersPanel differs={model.differs} series={model.series} />
      {model.sections.length === 0 ? (
        <div className="empty">None of these runs has figures to draw yet.</div>
      ) : (
        model.sections.map((s) => <SectionView key={s.probe} section={s} series={model.series} />)
      )}
    </>
  );
}
