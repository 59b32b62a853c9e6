// What a one-click experiment (a trial) shows on the chosen host: what it measures and how it was
// sized, its risk before it starts, or why the host cannot show the setting's effect.
import type { TrialOffer } from "@/lib/experiments/trials";

export function TrialPanel({ offer }: { offer: TrialOffer }) {
  if (!offer.offered) {
    return (
      <div className="alert alert-warn" role="status" data-testid="trial-not-offered">
        {offer.tunable} not offered: {offer.reason}
      </div>
    );
  }
  return (
    <div className="stack" data-testid="trial-offered">
      <p className="muted small">
        <strong>What it measures:</strong> {offer.headline}
      </p>
      {offer.warnings.map((w) => (
        <p key={w} className="muted small" data-testid="trial-warning">
          {w}
        </p>
      ))}
      {offer.risk ? (
        <div className="alert alert-warn" role="status" data-testid="trial-risk">
          {offer.risk}
        </div>
      ) : null}
    </div>
  );
}
