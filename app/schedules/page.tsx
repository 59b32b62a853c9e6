import type { Metadata } from "next";
import Link from "next/link";
import { FiringBadge } from "@/components/schedules/firing-badge";
import { mayChange } from "@/lib/auth/ownership";
import { requirePageUser } from "@/lib/auth/page-guard";
import { roleAtLeast } from "@/lib/auth/roles";
import { latestFiringOutcomes, listSchedules } from "@/lib/server/schedules/list-schedules";
import { setPausedAction } from "./actions";

export const metadata: Metadata = { title: "Schedules" };
export const dynamic = "force-dynamic";

const utc = (iso: string | null) => (iso ? `${iso.slice(0, 16).replace("T", " ")} UTC` : "—");

export default async function SchedulesPage() {
  const actor = await requirePageUser("/schedules");
  const schedules = await listSchedules();
  const outcomes = await latestFiringOutcomes(schedules.map((s) => s.id));
  return (
    <>
      <h1>Schedules</h1>
      <p className="muted">
        A probe preset run on hosts at an interval or by cron, so each host builds a series to watch for regressions.{" "}
        {roleAtLeast(actor.role, "OPERATOR") ? (
          <Link className="btn btn-primary" href="/schedules/new">
            New schedule
          </Link>
        ) : null}
      </p>
      {schedules.length === 0 ? (
        <div className="empty">No schedules yet. Create one to run a probe on your hosts every night or every hour.</div>
      ) : (
        <div className="table-wrap">
          <table className="data" data-testid="schedules-table">
            <thead>
              <tr>
                <th>Name</th>
                <th>Hosts</th>
                <th>What</th>
                <th>When</th>
                <th>Next</th>
                <th>Last outcomes</th>
                <th>State</th>
              </tr>
            </thead>
            <tbody>
              {schedules.map((s) => {
                const last = outcomes.get(s.id);
                return (
                  <tr key={s.id}>
                    <td>
                      <Link href={`/schedules/${s.id}`}>{s.name}</Link>
                    </td>
                    <td>{s.hosts.map((h) => h.name ?? "(removed)").join(", ")}</td>
                    <td>
                      {s.probe}
                      {s.preset ? `:${s.preset}` : ""}
                      {typeof s.params.target === "string" ? ` on ${s.params.target}` : ""}
                    </td>
                    <td>{s.describe}</td>
                    <td>{s.paused ? "—" : utc(s.nextFireAt)}</td>
                    <td>
                      {last
                        ? Object.entries(last.outcomes).map(([o, n]) => (
                            <span key={o}>
                              <FiringBadge outcome={o} count={n} />{" "}
                            </span>
                          ))
                        : <span className="muted">not fired yet</span>}
                    </td>
                    <td>
                      {s.paused ? <span className="badge badge-paused">paused</span> : <span className="badge badge-SUCCEEDED">active</span>}{" "}
                      {mayChange(actor, s.createdById) ? (
                        <form action={setPausedAction} style={{ display: "inline" }}>
                          <input type="hidden" name="id" value={s.id} />
                          <input type="hidden" name="paused" value={s.paused ? "false" : "true"} />
                          <button className="btn" type="submit" aria-label={`${s.paused ? "Resume" : "Pause"} ${s.name}`}>
                            {s.paused ? "Resume" : "Pause"}
                          </button>
                        </form>
                      ) : null}
                    </td>
                  </tr>
                );
              })}
            </tbody>
          </table>
        </div>
      )}
    </>
  );
}
