import type { SweepView } from "@/lib/sweeps/types";

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
          {view.status === "RUNNING" ? "No point has finished yet: the saturation point appears once the first points are in." : "No valid point finished, so there is no saturation point."}
        </p>
      )}
    </section>
  );
}
