// Alerts as a list: what changed, by how much, where, and (for operators) the button that
// acknowledges one. The message already names the profile changes, so they are not listed again. Used by /alerts, the series page and the home page's panel.
import Link from "next/link";
import { minuteUtcOf } from "./series-chart-data";
import type { SeriesAlert } from "./types";

export function AlertKindBadge({ kind }: { kind: SeriesAlert["kind"] }) {
  return (
    <span className={`badge badge-${kind}`} data-testid="alert-kind">
      {kind}
    </span>
  );
}

export function AlertList({ alerts, acknowledge, showSeries = true }: { alerts: SeriesAlert[]; acknowledge?: (form: FormData) => Promise<void>; showSeries?: boolean }) {
  return (
    <ul className="alert-list" data-testid="alert-list">
      {alerts.map((a) => (
        <li key={a.id} data-testid="alert-item" data-alert-id={a.id} data-acknowledged={a.acknowledgedAt ? "yes" : "no"}>
          <div style={{ display: "flex", gap: "0.5rem", alignItems: "baseline", flexWrap: "wrap" }}>
            <AlertKindBadge kind={a.kind} />
            <span data-testid="alert-message" style={{ overflowWrap: "anywhere" }}>
              {a.message}
            </span>
          </div>
          <p className="muted small" style={{ margin: "0.3rem 0" }}>
            {showSeries ? (
              <>
                <Link href={`/series/${a.seriesId}`}>{a.seriesTitle}</Link>
                {" · "}
              </>
            ) : null}
            {a.hostId ? <Link href={`/hosts/${a.hostId}`}>{a.hostName}</Link> : <span>{a.hostName ?? "removed host"}</span>}
            {" · "}
            {minuteUtcOf(Date.parse(a.createdAt))} UTC
            {a.acknowledgedAt ? ` · acknowledged ${minuteUtcOf(Date.parse(a.acknowledgedAt))} UTC` : ""}
          </p>
          {acknowledge && !a.acknowledgedAt ? (
            <form action={acknowledge}>
              <input type="hidden" name="alertId" value={a.id} />
              <button className="btn" type="submit" aria-label={`Acknowledge: ${a.message}`}>
                Acknowledge
              </button>
            </form>
          ) : null}
        </li>
      ))}
    </ul>
  );
}
