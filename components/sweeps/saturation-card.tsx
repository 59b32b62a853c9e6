import type { SweepView } from "@/lib/sweeps/types";

/** Why there is no saturation point (yet): nothing finished, or every finished point was flagged. */
function noSaturationText(view: SweepView): string {
  const flaggedCount = view.points.filter((p) => p.status === "invalid").length;
  const waiting = view.status === "RUNNING" ? " It appears once a point counts." : "";
  if (flaggedCount > 0) return `No saturation point: ${flaggedCount === 1 ? "the one finished point was" : `all ${flaggedCount} finished points were`} flagged by the run checks (see the table), and only points that count are used.${waiting}`;
  return view.status === "RUNNING" ? "No point has finished yet: the saturation point appears once the first points are in." : "No point finished, so there is no saturation point.";
}

/** The saturation point as a sentence, the rule it follows, and where each curve bends. */
export function SaturationCard({ view, heading = "Saturation point" }: { view: SweepView; heading?: string }) {
  const s = view.saturation;
  const bsSwept = view.grid.blockSizesKiB.length > 1;
  return (
    <section className={`verdict-card verdict-${view.status}`} aria-label={heading} data-testid="saturation-card">
      <h2 style={{ marginTop: 0 }}>
        {heading}{" "}
        <span className={`badge badge-${view.status}`} data-testid="sweep-status">
          {view.status.toLowerCase()}
        </span>
      </h2>
      {s ? (
        <>
          <p className="sentence" data-testid="saturation-sentence">
            {s.sentence}
            {view.status === "RUNNING" ? " (so far: points are still running)" : ""}
          </p>
          <p className="muted small" data-testid="saturation-rule">
            Rule: {s.rule}
          </p>
          {s.perCurve.length > 1 ? (
            <p className="small">
              Along each curve:{" "}
              {s.perCurve
                .map((c) => `${c.numjobs} job${c.numjobs === 1 ? "" : "s"}${bsSwept ? ` at ${c.blockSizeKiB} KiB` : ""} ${c.iodepth === null ? "does not saturate within the grid" : `at QD ${c.iodepth}`}`)
                .join("; ")}
              .
            </p>
          ) : null}
        </>
      ) : (
        <p className="muted" data-testid="saturation-pending">
          {noSaturationText(view)}
        </p>
      )}
    </section>
  );
}
