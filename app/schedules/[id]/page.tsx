import type { Metadata } from "next";
import Link from "next/link";
import { notFound } from "next/navigation";
import { DeleteButton } from "@/components/delete-button";
import { FiringBadge } from "@/components/schedules/firing-badge";
import { ScheduleForm } from "@/components/schedules/schedule-form";
import { mayChange } from "@/lib/auth/ownership";
import { requirePageUser } from "@/lib/auth/page-guard";
import { AppError } from "@/lib/http/app-error";
import { isUuid } from "@/lib/http/params";
import { getSchedule } from "@/lib/server/schedules/get-schedule";
import { scheduleFormChoices } from "@/lib/server/schedules/schedule-form-choices";
import { setPausedAction, updateScheduleAction } from "../actions";

export const metadata: Metadata = { title: "Schedule" };
export const dynamic = "force-dynamic";

const utc = (iso: string | null) => (iso ? `${iso.slice(0, 16).replace("T", " ")} UTC` : "—");

export default async function SchedulePage({ params }: { params: Promise<{ id: string }> }) {
  const { id } = await params;
  const actor = await requirePageUser(`/schedules/${id}`);
  if (!isUuid(id)) notFound();
  const s = await getSchedule({ id }).catch((err: unknown) => {
    if (err instanceof AppError && err.code === "NOT_FOUND") notFound();
    throw err;
  });
  const canChange = mayChange(actor, s.createdById);
  const choices = canChange ? await scheduleFormChoices(s.probe) : null;
  return (
    <>
      <p className="muted">
        <Link href="/schedules">Schedules</Link>
      </p>
      <h1>{s.name}</h1>
      <dl className="facts">
        <dt>What</dt>
        <dd>
          {s.kind === "experiment" ? "experiment: " : ""}
          {s.probe}
          {s.preset ? `:${s.preset}` : ""}
          {typeof s.params.target === "string" ? ` on ${s.params.target}` : ""}
        </dd>
        <dt>When</dt>
        <dd>{s.describe}</dd>
        <dt>Hosts</dt>
        <dd>
          {s.hosts.map((h, i) => (
            <span key={h.id}>
              {i > 0 ? ", " : ""}
              {h.name ? <Link href={`/hosts/${h.id}`}>{h.name}</Link> : "(removed host)"}
            </span>
          ))}
        </dd>
        <dt>Busy hosts</dt>
        <dd>{s.skipIfBusy ? "skipped" : "queued behind their runs"}</dd>
        <dt>State</dt>
        <dd>{s.paused ? <span className="badge badge-paused">paused</span> : <span className="badge badge-SUCCEEDED">active</span>}</dd>
        <dt>Next</dt>
        <dd>{s.paused ? "—" : utc(s.nextFireAt)}</dd>
        <dt>Last fired</dt>
        <dd>{utc(s.lastFiredAt)}</dd>
      </dl>
      {canChange ? (
        <div className="schedule-actions">
          <form action={setPausedAction}>
            <input type="hidden" name="id" value={s.id} />
            <input type="hidden" name="paused" value={s.paused ? "false" : "true"} />
            <button className="btn" type="submit">
              {s.paused ? "Resume" : "Pause"}
            </button>
          </form>
          <DeleteButton url={`/api/schedules/${s.id}`} label="Delete schedule" consequence="Its firings log goes too; the runs it queued stay." after="/schedules" />
        </div>
      ) : null}

      <h2>Firings</h2>
      {s.firings.length === 0 ? (
        <div className="empty">Not fired yet.</div>
      ) : (
        <div className="table-wrap">
          <table className="data" data-testid="firings-table">
            <thead>
              <tr>
                <th>Due</th>
                <th>Host</th>
                <th>Outcome</th>
                <th>Run</th>
              </tr>
            </thead>
            <tbody>
              {s.firings.map((f) => (
                <tr key={f.id}>
                  <td>{utc(f.dueAt)}</td>
                  <td>{f.hostName ?? "(removed host)"}</td>
                  <td>
                    <FiringBadge outcome={f.outcome} />
                    {f.message ? <div className="muted">{f.message}</div> : null}
                  </td>
                  <td>
                    {f.runId ? <Link href={`/runs/${f.runId}`}>run</Link> : f.experimentId ? <Link href={`/experiments/${f.experimentId}`}>experiment</Link> : "—"}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}

      {canChange && choices && s.kind === "run" ? (
        <>
          <h2>Edit</h2>
          <ScheduleForm
            action={updateScheduleAction}
            hosts={choices.hosts}
            presets={choices.presets}
            submitLabel="Save changes"
            initial={{
              id: s.id,
              name: s.name,
              hostIds: s.hosts.map((h) => h.id),
              probePreset: s.preset ?? "",
              target: typeof s.params.target === "string" ? s.params.target : "",
              cron: s.cron,
              intervalMinutes: s.intervalMinutes,
              timezone: s.timezone,
              jitterSeconds: s.jitterSeconds,
              skipIfBusy: s.skipIfBusy,
              quietStart: s.quietStart,
              quietEnd: s.quietEnd,
            }}
          />
        </>
      ) : null}
    </>
  );
}
