import Link from "next/link";
import { CancelExperimentButton, RefreshWhile } from "@/components/experiments/experiment-actions";
import type { SweepView } from "@/lib/sweeps/types";
import { SweepBody } from "./sweep-body";
import { ShareSweepButton } from "./share-sweep-button";

/**
 * A sweep experiment's page: the view, re-read every few seconds while points remain (as the
 * experiment page follows its runs), the exports, the share and the way to overlay another sweep.
 */
export function SweepExperimentPage({ view, operator, otherSweeps }: { view: SweepView; operator: boolean; otherSweeps: { id: string; title: string }[] }) {
  const running = view.status === "RUNNING";
  const anyDone = view.points.some((p) => p.status === "done");
  return (
    <>
      <RefreshWhile active={running} />
      <p className="muted small">
        <Link href="/experiments">Experiments</Link> / sweep {view.experimentId.slice(0, 8)}
      </p>
      <h1>{view.title}</h1>
      <p className="muted">
        fio sweep · started {new Date(view.createdAt).toLocaleString("en-GB", { timeZone: "UTC" })} UTC
        {view.finishedAt ? ` · ended ${new Date(view.finishedAt).toLocaleString("en-GB", { timeZone: "UTC" })} UTC` : ""}
      </p>
      {running && operator ? <CancelExperimentButton id={view.experimentId} /> : null}
      <SweepBody view={view} />
      <p className="small" data-testid="sweep-exports">
        Download: <a href={`/api/experiments/${view.experimentId}/export?format=csv`}>CSV</a> · <a href={`/api/experiments/${view.experimentId}/export?format=json`}>JSON</a>
      </p>
      {operator && anyDone ? (
        <p>
          <ShareSweepButton id={view.experimentId} />
        </p>
      ) : null}
      <section className="panel" aria-label="Overlay another sweep">
        <h2 style={{ marginTop: 0 }}>Overlay another sweep</h2>
        {otherSweeps.length === 0 ? (
          <p className="muted">No other sweep yet: run one on another host, device, file system or setting and overlay the two here.</p>
        ) : (
          <form method="get" action="/experiments/compare-sweeps" className="stack" data-testid="overlay-form">
            <input type="hidden" name="a" value={view.experimentId} />
            <label>
              Sweep to draw with this one
              <select name="b" defaultValue={otherSweeps[0]?.id}>
                {otherSweeps.map((s) => (
                  <option key={s.id} value={s.id}>
                    {s.title}
                  </option>
                ))}
              </select>
            </label>
            <div>
              <button className="btn" type="submit">
                Overlay
              </button>
            </div>
          </form>
        )}
      </section>
    </>
  );
}
