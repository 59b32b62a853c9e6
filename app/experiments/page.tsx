import type { Metadata } from "next";
import Link from "next/link";
import { requirePageUser } from "@/lib/auth/page-guard";
import { roleAtLeast } from "@/lib/auth/roles";
import { listExperiments } from "@/lib/server/experiments/list-experiments";

export const metadata: Metadata = { title: "Experiments" };
export const dynamic = "force-dynamic";

export default async function ExperimentsPage() {
  const actor = await requirePageUser("/experiments");
  const rows = await listExperiments({ limit: 100 });
  const operator = roleAtLeast(actor.role, "OPERATOR");
  return (
    <>
      <h1>Experiments</h1>
      <p className="muted">
        A question put to one host — ext4 or xfs for this workload, does this setting matter — answered by interleaved repeats until stable and a ratio with its confidence
        interval.
      </p>
      {operator ? (
        <p>
          <Link className="btn btn-primary" href="/experiments/new">
            New experiment
          </Link>{" "}
          <Link className="btn" href="/experiments/new?kind=sweep">
            New sweep
          </Link>
        </p>
      ) : null}
      {rows.length === 0 ? (
        <div className="empty" data-testid="experiments-empty">
          No experiments yet.{" "}
          {operator ? (
            <>
              Start one from a guide&apos;s &quot;Test this on my host&quot;, the <Link href="/tunables">tunables index</Link>, a compare page, or{" "}
              <Link href="/experiments/new">from scratch</Link>.
            </>
          ) : (
            "An operator can start one."
          )}
        </div>
      ) : (
        <div className="table-wrap">
          <table className="data" data-testid="experiments-table">
            <thead>
              <tr>
                <th>Experiment</th>
                <th>Host</th>
                <th>Arms</th>
                <th>Status</th>
                <th className="num">Runs</th>
                <th>Answer</th>
                <th>Started (UTC)</th>
              </tr>
            </thead>
            <tbody>
              {rows.map((r) => (
                <tr key={r.id}>
                  <td>
                    <Link href={`/experiments/${r.id}`}>{r.title}</Link>
                    {r.kind === "sweep" ? (
                      <span className="badge" style={{ marginLeft: 6 }} data-testid="sweep-badge">
                        sweep
                      </span>
                    ) : null}
                  </td>
                  <td>
                    {r.hostName ?? "–"}
                    {r.hostRemoved ? (
                      <span className="muted small" data-testid="host-removed">
                        {" "}
                        (from a removed host)
                      </span>
                    ) : null}
                  </td>
                  <td>{r.kind === "sweep" ? `${r.arms.length} grid points` : r.arms.join(" · ")}</td>
                  <td>
                    <span className={`badge badge-${r.status}`}>{r.status.toLowerCase()}</span>
                  </td>
                  <td className="num">
                    {r.runs.ended}/{r.runs.total}
                  </td>
                  <td className="small">{r.headline ?? "–"}</td>
                  <td className="small">{r.createdAt.slice(0, 16).replace("T", " ")}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </>
  );
}
