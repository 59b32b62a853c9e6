// A verdict between two windows of a series: the current one (last N valid runs against the N
// before) on the series page, and the answer of "Compare two windows" in the same shape.
import { changeText } from "./series-chart-data";
import type { ProfileChange, WindowVerdict } from "./types";

/** A ratio as a signed change: 0.82 → "−18 %". */
export function pctText(ratio: number): string {
  const pct = (ratio - 1) * 100;
  const digits = Math.abs(pct) >= 10 ? 0 : 1;
  const n = Math.abs(pct).toFixed(digits);
  return `${pct < 0 ? "−" : pct > 0 ? "+" : "±"}${n} %`;
}

export function ProfileChangeList({ changes }: { changes: ProfileChange[] }) {
  if (changes.length === 0) return null;
  return (
    <ul className="profile-changes" data-testid="profile-changes">
      {changes.map((c) => (
        <li key={`${c.field}-${c.from}-${c.to}`}>{changeText(c)}</li>
      ))}
    </ul>
  );
}

const STATE_WORDS: Record<WindowVerdict["state"], string> = {
  collecting: "collecting",
  decided: "changed",
  "no-difference-detected": "no difference seen",
};

export function VerdictCard({ title, verdict, testId = "series-verdict" }: { title: string; verdict: WindowVerdict; testId?: string }) {
  const v = verdict;
  return (
    <section className={`verdict-card verdict-${v.state}`} data-testid={testId} data-state={v.state} aria-label={title}>
      <h3 style={{ marginTop: 0 }}>
        {title} <span className="badge">{STATE_WORDS[v.state]}</span>
      </h3>
      <p className={v.state === "collecting" ? "muted" : "sentence"} data-testid="verdict-sentence">
        {v.sentence}
      </p>
      {v.ratio !== null ? (
        <dl className="facts small">
          <dt>Change</dt>
          <dd data-testid="verdict-ratio">
            {pctText(v.ratio)} (ratio {v.ratio.toFixed(3)})
          </dd>
          {v.ciLow !== null && v.ciHigh !== null ? (
            <>
              <dt>Interval</dt>
              <dd>
                {pctText(v.ciLow)} to {pctText(v.ciHigh)}
                {v.halfWidthPct !== null ? ` (±${v.halfWidthPct.toFixed(1)} %)` : ""}
              </dd>
            </>
          ) : null}
          {v.confidence !== null ? (
            <>
              <dt>Confidence</dt>
              <dd>{(v.confidence * 100).toFixed(0)} %</dd>
            </>
          ) : null}
          <dt>Runs</dt>
          <dd>
            {v.baselineRunIds.length} before, {v.recentRunIds.length} after
          </dd>
        </dl>
      ) : null}
      {v.changes.length > 0 ? (
        <>
          <p className="small" style={{ marginBottom: 0 }}>
            What changed on the host between the windows:
          </p>
          <ProfileChangeList changes={v.changes} />
        </>
      ) : null}
    </section>
  );
}
