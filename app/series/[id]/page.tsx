import type { Metadata } from "next";
import Link from "next/link";
import { notFound } from "next/navigation";
import { AlertList } from "@/components/trends/alert-list";
import { CompareWindowsForm } from "@/components/trends/compare-windows-form";
import { SeriesChart } from "@/components/trends/series-chart";
import { changeText, fmtValue, minuteUtcOf } from "@/components/trends/series-chart-data";
import { SeriesSettingsForm } from "@/components/trends/series-settings-form";
import { TrendWord } from "@/components/trends/sparkline";
import type { SeriesDetail } from "@/components/trends/types";
import { ProfileChangeList, VerdictCard } from "@/components/trends/verdict-card";
import { requirePageUser } from "@/lib/auth/page-guard";
import { roleAtLeast } from "@/lib/auth/roles";
import { isUuid } from "@/lib/http/params";
import { getSeries } from "@/lib/server/series/get-series";
import { acknowledgeAlertAction } from "../../alerts/actions";
import { compareWindowsAction, updateSeriesAction } from "./actions";

export const metadata: Metadata = { title: "Series" };
export const dynamic = "force-dynamic";

const day = (iso: string) => iso.slice(0, 10);

/** Preset, else the parameters in short: "size=64m, bs=1m". */
function paramsText(s: SeriesDetail): string {
  if (s.preset) return `preset ${s.preset}`;
  const text = Object.entries(s.params)
    .map(([k, v]) => `${k}=${typeof v === "string" ? v : JSON.stringify(v)}`)
    .join(", ");
  return text.length > 160 ? `${text.slice(0, 159)}…` : text || "default parameters";
}

/** The compare form starts on the valid runs' first half against their second half. */
function compareDefaults(s: SeriesDetail) {
  const ats = s.points.filter((p) => p.valid).map((p) => p.at);
  const all = ats.length >= 2 ? ats : s.points.map((p) => p.at);
  const today = new Date().toISOString().slice(0, 10);
  if (all.length === 0) return { aFrom: today, aTo: today, bFrom: today, bTo: today };
  const mid = Math.max(1, Math.floor(all.length / 2));
  return { aFrom: day(all[0]!), aTo: day(all[mid - 1]!), bFrom: day(all[Math.min(mid, all.length - 1)]!), bTo: day(all[all.length - 1]!) };
}

export default async function SeriesPage({ params }: { params: Promise<{ id: string }> }) {
  const { id } = await params;
  const actor = await requirePageUser(`/series/${id}`);
  if (!isUuid(id)) notFound();
  const s = await getSeries({ id });
  if (!s) notFound();
  const operator = roleAtLeast(actor.role, "OPERATOR");
  const metric = s.metric;
  const unit = metric?.unit ?? "";
  const validRuns = s.points.filter((p) => p.valid).length;
  const needed = 2 * s.windowRuns;
  const openAlerts = s.alerts.filter((a) => a.acknowledgedAt === null);
  return (
    <>
      <p className="muted small">
        <Link href="/hosts">Hosts</Link> / {s.hostId ? <Link href={`/hosts/${s.hostId}`}>{s.hostName}</Link> : (s.hostName ?? "removed host")} / series
      </p>
      <h1>{s.title}</h1>
      <p className="muted" data-testid="series-facts">
        <code>{s.probe}</code> · {paramsText(s)}
        {s.target ? (
          <>
            {" "}
            · in <code>{s.target}</code>
          </>
        ) : null}{" "}
        · {s.runs} run{s.runs === 1 ? "" : "s"}
        {s.lastRunAt ? `, the last ${minuteUtcOf(Date.parse(s.lastRunAt))} UTC` : ""} · <TrendWord trend={s.trend} betterWhen={metric?.betterWhen ?? null} />
      </p>
      {metric ? (
        <p>
          Following <strong>{metric.noun}</strong> ({unit}, {metric.betterWhen} is better)
          {s.latest !== null ? (
            <>
              ; latest valid run{" "}
              <strong data-testid="series-latest">
                {fmtValue(s.latest)} {unit}
              </strong>
            </>
          ) : null}
          .
        </p>
      ) : (
        <div className="empty">These runs have no headline figure to follow yet: a series draws once a run succeeds and is parsed.</div>
      )}
      {metric ? <SeriesChart noun={metric.noun} unit={unit} points={s.points} annotations={s.annotations} current={s.current} alerts={openAlerts} /> : null}

      <h2>Is it getting slower?</h2>
      {s.current && s.current.state !== "collecting" ? (
        <VerdictCard title={`The last ${s.windowRuns} valid runs against the ${s.windowRuns} before`} verdict={s.current} />
      ) : (
        <div className="empty" data-testid="series-collecting">
          Collecting: {Math.min(validRuns, needed)} of {needed} valid runs. The verdict compares the last {s.windowRuns} valid runs with the {s.windowRuns} before them; a series grows each time the same
          probe runs again with the same parameters on this host (a <Link href="/schedules">schedule</Link> does it for you).
        </div>
      )}
      {openAlerts.length > 0 || s.alerts.length > 0 ? (
        <>
          <h2>Alerts</h2>
          <AlertList alerts={s.alerts} acknowledge={operator ? acknowledgeAlertAction : undefined} showSeries={false} />
        </>
      ) : null}

      <h2>Compare two windows</h2>
      <p className="muted small">Any two date ranges of this series&apos; valid runs, compared the way the verdict compares its windows (finish dates in UTC, both ends included).</p>
      <CompareWindowsForm seriesId={s.id} defaults={compareDefaults(s)} compare={compareWindowsAction} />

      <h2>Profile changes</h2>
      {s.annotations.length === 0 ? (
        <p className="muted">The host profile (kernel, mount options, sysctls, tool version) has not changed between this series&apos; runs.</p>
      ) : (
        <ul data-testid="series-annotations">
          {s.annotations.map((a) => (
            <li key={a.runId}>
              <Link href={`/runs/${a.runId}`}>{minuteUtcOf(Date.parse(a.at))} UTC</Link>
              <span className="visually-hidden">: {a.changes.map(changeText).join("; ")}</span>
              <ProfileChangeList changes={a.changes} />
            </li>
          ))}
        </ul>
      )}

      {operator ? (
        <>
          <h2>Settings</h2>
          <SeriesSettingsForm
            seriesId={s.id}
            metrics={s.metrics}
            current={{ metricKey: metric?.key ?? null, windowRuns: s.windowRuns, thresholdPct: s.thresholdPct }}
            save={updateSeriesAction}
          />
        </>
      ) : (
        <p className="muted small">
          Windows of {s.windowRuns} runs; an alert needs a change beyond {s.thresholdPct} %. Operators can change these.
        </p>
      )}

      <h2>Runs</h2>
      <PointsTable s={s} />
    </>
  );
}

function PointsTable({ s }: { s: SeriesDetail }) {
  if (s.points.length === 0) return <div className="empty">No run in this series yet.</div>;
  const unit = s.metric?.unit ?? "";
  return (
    <div className="table-wrap">
      <table className="data" data-testid="series-points">
        <caption className="visually-hidden">Every run of this series, newest first, with its {s.metric?.noun ?? "value"}.</caption>
        <thead>
          <tr>
            <th>Finished (UTC)</th>
            <th>Status</th>
            <th className="num">Value{unit ? ` (${unit})` : ""}</th>
            <th className="num">Spread</th>
            <th>Valid</th>
            <th>Notes</th>
          </tr>
        </thead>
        <tbody>
          {[...s.points].reverse().map((p) => (
            <tr key={p.runId} data-valid={p.valid ? "yes" : "no"}>
              <td>
                <Link href={`/runs/${p.runId}`}>{minuteUtcOf(Date.parse(p.at))}</Link>
                {p.scheduled ? <span className="muted small"> · scheduled</span> : null}
              </td>
              <td>
                <span className={`badge badge-${p.status}`}>{p.status.toLowerCase()}</span>
              </td>
              <td className="num">{p.value === null ? "–" : fmtValue(p.value)}</td>
              <td className="num">{p.low !== null && p.high !== null ? `${fmtValue(p.low)}–${fmtValue(p.high)}` : "–"}</td>
              <td>{p.valid ? "yes" : <span className="muted">no{p.flags.length > 0 ? `: ${p.flags.join("; ")}` : ""}</span>}</td>
              <td className="small" style={{ overflowWrap: "anywhere" }}>
                {p.notes ?? ""}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
