import type { Metadata } from "next";
import Link from "next/link";
import { FindingSource } from "@/components/run/finding-source";
import { notFound } from "next/navigation";
import { ArmSpreadChart } from "@/components/experiments/arm-spread-chart";
import { CancelExperimentButton, RefreshWhile, ShareExperimentButton } from "@/components/experiments/experiment-actions";
import { armLabText, LabPageCacheWarning } from "@/components/experiments/lab-kind";
import { driverText } from "@/components/experiments/setup-report";
import { RunLiveOutput } from "@/components/run/run-live";
import { RunLiveProvider } from "@/components/run/run-live-provider";
import { TableScroll } from "@/components/table-scroll";
import { requirePageUser } from "@/lib/auth/page-guard";
import { roleAtLeast } from "@/lib/auth/roles";
import { AppError } from "@/lib/http/app-error";
import { isUuid } from "@/lib/http/params";
import { armPoints } from "@/lib/experiments/chart-points";
import { getExperiment, type ExperimentView } from "@/lib/server/experiments/get-experiment";
import { getExperimentFindings } from "@/lib/server/experiments/get-experiment-findings";
import { listExperiments } from "@/lib/server/experiments/list-experiments";
import { getSweepView } from "@/lib/server/sweeps/get-sweep";
import { SweepExperimentPage } from "@/components/sweeps/sweep-page";

export const metadata: Metadata = { title: "Experiment" };
export const dynamic = "force-dynamic";

const letter = (i: number) => String.fromCharCode(65 + i);
const fmt = (v: number | null) => (v === null ? "–" : v.toLocaleString("en-US", { maximumFractionDigits: 2 }));

function armSetupText(v: ExperimentView, i: number): string {
  const a = v.arms[i];
  if (!a) return "";
  const parts: string[] = [];
  if (a.fs) parts.push(armLabText(a, v.labImageBytes));
  if (a.target) parts.push(`in ${a.target}`);
  for (const [k, val] of Object.entries(a.tunables ?? {})) parts.push(`${k} = ${val}`);
  return parts.join("; ");
}

/** Where the stop rule stands while the experiment runs: "±9 % after 4 runs per arm; target ±5 %; 3 of 15 min". */
function precisionText(v: ExperimentView): string {
  const p = v.precision;
  const width = p.halfWidthPct === null ? `${p.validPerArm} of ${v.policy.min} valid runs per arm` : `±${p.halfWidthPct.toFixed(p.halfWidthPct >= 10 ? 0 : 1)} % after ${p.validPerArm} runs per arm`;
  const target = v.policy.stop === "precision" ? `target ±${p.targetPct} %` : `stop when every CV is under ${v.policy.cvTarget} %`;
  const clock = p.budgetMin === null ? `${Math.round(p.minutesElapsed)} min` : `${Math.round(p.minutesElapsed)} of ${p.budgetMin} min`;
  return `${width}; ${target}; ${clock}`;
}

function VerdictCard({ v }: { v: ExperimentView }) {
  // An experiment that failed or was cancelled gives no ratio: the summary has no lines then.
  const lines = v.summary.verdict;
  const shown = lines.slice(0, 6);
  const ended = v.status === "FAILED" || v.status === "CANCELLED";
  return (
    <section className={`verdict-card verdict-${v.status}`} data-testid="verdict-card" aria-label="Verdict">
      <h2 style={{ marginTop: 0 }}>
        {v.status === "RUNNING" ? "Verdict so far" : "Verdict"}{" "}
        <span className={`badge badge-${v.status}`} data-testid="experiment-status">
          {v.status.toLowerCase()}
        </span>
      </h2>
      {v.decisionMessage ? (
        <p className="muted" data-testid="experiment-decision">
          {v.decisionMessage}
        </p>
      ) : null}
      {v.status === "RUNNING" ? (
        <p className="small" data-testid="experiment-precision">
          {precisionText(v)}
        </p>
      ) : null}
      {ended ? (
        <p className="muted" data-testid="no-verdict">
          No ratio: the experiment {v.status === "FAILED" ? "failed" : "was cancelled"} before it could give one. Its runs are listed below.
        </p>
      ) : lines.length === 0 ? (
        <p className="muted">No verdict yet: every arm needs at least {v.policy.min} valid runs.</p>
      ) : null}
      {shown.map((l) => (
        <p key={`${l.metric}|${JSON.stringify(l.dims)}|${l.arm}`} className={l.state === "collecting" ? "muted" : "sentence"} data-testid="verdict-sentence" data-state={l.state}>
          {l.state === "collecting" ? `${l.arm} vs ${l.baseline}: ${l.sentence}` : l.sentence}
        </p>
      ))}
      {lines.some((l) => l.confidence !== null) ? (
        <p className="muted small" data-testid="confidence-explained">
          How sure: each interval is an exact distribution-free interval (Hodges–Lehmann ratio, Mann–Whitney ranks) at 95 % where the runs allow it. With 3 runs per arm the
          most any interval can reach is 90 %, with 4 it is 97 %, so each sentence states the level it actually has. Only valid runs count: not warm-ups, not runs the checks
          flagged.
        </p>
      ) : null}
      {lines.length > shown.length ? (
        <details>
          <summary>{lines.length - shown.length} more comparisons</summary>
          {lines.slice(shown.length).map((l) => (
            <p key={`${l.metric}|${JSON.stringify(l.dims)}|${l.arm}`}>{l.sentence}</p>
          ))}
        </details>
      ) : null}
      {v.reverted !== null ? (
        <p data-testid="experiment-reverted">{v.reverted ? "Every change was put back and every lab volume removed, as the agent reported." : "Not every change is confirmed as put back: see the runs' setup reports."}</p>
      ) : v.status !== "RUNNING" ? (
        <p className="muted">Waiting for the last run&apos;s report of what it put back…</p>
      ) : null}
      {v.summary.warnings.length > 0 ? (
        <div className="alert alert-warn" data-testid="experiment-warnings">
          <strong>Warnings</strong>
          <ul>
            {v.summary.warnings.map((w) => (
              <li key={w}>{w}</li>
            ))}
          </ul>
        </div>
      ) : null}
    </section>
  );
}

export default async function ExperimentPage({ params }: { params: Promise<{ id: string }> }) {
  const { id } = await params;
  const actor = await requirePageUser(`/experiments/${id}`);
  if (!isUuid(id)) notFound();
  // A sweep has its own view (lib/server/sweeps/get-sweep.ts); null for any other kind.
  const sweep = await getSweepView(id);
  if (sweep) {
    const others = (await listExperiments({ limit: 100 })).filter((e) => e.kind === "sweep" && e.id !== id).map((e) => ({ id: e.id, title: `${e.title} (${e.hostName ?? "a removed host"})` }));
    return <SweepExperimentPage view={sweep} operator={roleAtLeast(actor.role, "OPERATOR")} otherSweeps={others} />;
  }
  const v = await getExperiment({ id }).catch((err: unknown) => {
    if (err instanceof AppError && err.code === "NOT_FOUND") notFound();
    throw err;
  });
  const running = v.status === "RUNNING" || v.runs.some((r) => r.status === "RUNNING");
  const current = v.runs.find((r) => r.id === v.progress.currentRunId);
  const first = v.summary.headlines[0];
  const charts = v.summary.headlines.slice(0, 6);
  const finishedIds = v.runs.filter((r) => r.status === "SUCCEEDED").map((r) => r.id);
  const findings = await getExperimentFindings({ runIds: finishedIds });
  const armOfRun = new Map(v.runs.map((r) => [r.id, `${v.arms[r.armIndex]?.label ?? "arm"} #${r.round + 1}`]));
  return (
    <>
      <RefreshWhile active={running} />
      <p className="muted small">
        <Link href="/experiments">Experiments</Link> / {v.id.slice(0, 8)}
      </p>
      <h1>{v.title}</h1>
      <p className="muted">
        {v.probe}
        {v.preset ? ` (${v.preset})` : ""} on{" "}
        {v.hostId ? (
          <Link href={`/hosts/${v.hostId}`}>{v.hostName}</Link>
        ) : (
          <span data-testid="host-removed">
            {v.hostName ?? "a host"} (from a removed host)
          </span>
        )}{" "}
        · started{" "}
        {new Date(v.createdAt).toLocaleString("en-GB", { timeZone: "UTC" })} UTC
      </p>
      <VerdictCard v={v} />
      {v.status === "RUNNING" && roleAtLeast(actor.role, "OPERATOR") ? <CancelExperimentButton id={v.id} /> : null}

      <h2>Progress</h2>
      <progress className="experiment-progress" value={v.progress.ended} max={Math.max(1, v.progress.planned)} aria-label="Runs finished" data-testid="experiment-progress" />
      <p className="muted small" data-testid="experiment-progress-text">
        {v.progress.ended} of {v.progress.planned} runs done
        {v.progress.cancelled > 0 ? `, ${v.progress.cancelled} cancelled before they started` : ""}
        {v.status === "RUNNING" && v.progress.maxPlanned > v.progress.planned ? ` (up to ${v.progress.maxPlanned} if the intervals stay wide and the budget lasts)` : ""}
      </p>
      {current ? (
        <>
          <h3>
            Now: {v.arms[current.armIndex]?.label}, {current.warmup ? "warm-up" : `round ${current.round + 1 - (v.policy.warmup ? 1 : 0)}`} (<Link href={`/runs/${current.id}`}>run {current.id.slice(0, 8)}</Link>)
          </h3>
          <RunLiveProvider key={current.id} runId={current.id} probe={v.probe} params={v.params} live status={current.status} samples={[]} progress={[]}>
            <RunLiveOutput />
          </RunLiveProvider>
        </>
      ) : null}

      <h2>Plan</h2>
      <div className="table-wrap">
        <table className="data" data-testid="experiment-plan">
          <thead>
            <tr>
              <th>Arm</th>
              <th>Label</th>
              <th>Setup</th>
            </tr>
          </thead>
          <tbody>
            {v.arms.map((a, i) => (
              <tr key={a.label}>
                <td>
                  {letter(i)}
                  {i === 0 ? " (baseline)" : ""}
                </td>
                <td>{a.label}</td>
                <td>{armSetupText(v, i)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      <LabPageCacheWarning runs={v.runs} />
      <p className="small">
        Order: {v.rounds.map((r) => r.map(letter).join(" ")).join(" · ") || "–"} ({v.policy.order === "abba" ? "alternating" : "shuffled blocks"}). Policy: at least {v.policy.min} valid, at most {v.policy.max}{" "}
        runs per arm{v.policy.warmup ? " after one warm-up run each" : ""}; stop when{" "}
        {v.policy.stop === "precision" ? `every interval is within ±${v.policy.precisionPct} % of its ratio` : `every arm's coefficient of variation is under ${v.policy.cvTarget} %`}
        {v.policy.budgetMin !== null ? ` or after ${v.policy.budgetMin} min` : ""}
        {v.policy.dropCaches ? "; page cache dropped before each run" : ""}.
      </p>

      <h2>Results per arm</h2>
      {first ? (
        <TableScroll label="Results per arm" testId="arm-results-scroll">
          <table className="data" data-testid="arm-results">
            <thead>
              <tr>
                <th>Arm</th>
                <th className="num">Valid runs</th>
                <th className="num">Left out</th>
                <th className="num">
                  Median {first.noun} ({first.unit})
                </th>
                <th className="num">CV</th>
              </tr>
            </thead>
            <tbody>
              {v.summary.arms.map((a) => (
                <tr key={a.label}>
                  <td>{a.label}</td>
                  <td className="num">{(a.values[first.key] ?? []).length}</td>
                  <td className="num">{a.excluded}</td>
                  <td className="num">{fmt(a.median)}</td>
                  <td className="num">{a.cv === null ? "–" : `${(a.cv * 100).toFixed(1)} %`}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </TableScroll>
      ) : (
        <p className="muted">No results yet.</p>
      )}
      {charts.map((h) => (
        <ArmSpreadChart
          key={h.key}
          title={`${h.noun}${Object.keys(h.dims).length ? ` (${Object.entries(h.dims).map(([k, val]) => `${k} ${val}`).join(", ")})` : ""}`}
          unit={h.unit}
          arms={armPoints(v.summary, h.key)}
        />
      ))}
      {v.summary.headlines.length > charts.length ? <p className="muted small">{v.summary.headlines.length - charts.length} more figures are in the verdict and the exports.</p> : null}

      {findings.length > 0 ? (
        <section data-testid="experiment-findings">
          <h2>Diagnosis across the runs</h2>
          {findings.map((f) => (
            <div key={f.rule} className={`alert ${f.severity === "info" ? "" : f.severity === "critical" ? "alert-error" : "alert-warn"}`} data-rule={f.rule}>
              <strong>{f.title}</strong>{" "}
              <span className="muted small">
                in {f.runs.length} of {finishedIds.length} runs:{" "}
                {f.runs.map((r, i) => (
                  <span key={r.runId}>
                    {i > 0 ? ", " : ""}
                    <Link href={`/runs/${r.runId}`} title={r.summary}>
                      {armOfRun.get(r.runId) ?? r.runId.slice(0, 8)}
                    </Link>
                  </span>
                ))}
              </span>
              <FindingSource finding={f} />
            </div>
          ))}
        </section>
      ) : null}

      <h2>Runs</h2>
      <div className="table-wrap">
        <table className="data" data-testid="experiment-runs">
          <thead>
            <tr>
              <th>Round</th>
              <th>Arm</th>
              <th>Status</th>
              <th>Counted</th>
              <th>File system</th>
              <th>Setup</th>
              <th>Run</th>
            </tr>
          </thead>
          <tbody>
            {v.runs.map((r) => (
              <tr key={r.id} data-testid="experiment-run-row" data-excluded={r.excludedBecause.length > 0 ? "true" : "false"}>
                <td>{r.warmup ? "warm-up" : r.round + 1 - (v.policy.warmup ? 1 : 0)}</td>
                <td>{v.arms[r.armIndex]?.label}</td>
                <td>
                  <span className={`badge badge-${r.status}`}>{r.status.toLowerCase()}</span>
                </td>
                <td className="small" data-testid="run-counted">
                  {r.excludedBecause.length === 0 ? (r.status === "SUCCEEDED" ? "yes" : "–") : r.warmup ? "warm-up (not counted)" : `no: ${r.excludedBecause.join("; ")}`}
                </td>
                <td>{r.fsType ?? "–"}</td>
                <td className="small">
                  {r.setup?.lab ? `${driverText(r.setup.lab)} on ${r.setup.lab.loopDevice}${r.setup.lab.removed ? ", removed" : ", NOT removed"}` : ""}
                  {r.setup?.tunables.map((t) => ` ${t.name} ${t.from}→${t.to}${t.restored ? " (restored)" : " (NOT restored)"}`).join(";")}
                  {r.errorMessage && r.status !== "SUCCEEDED" ? ` ${r.errorMessage}` : ""}
                </td>
                <td>
                  <Link href={`/runs/${r.id}`}>{r.id.slice(0, 8)}</Link>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      <p className="small">
        <a href={`/api/experiments/${v.id}/export?format=csv`}>CSV</a> · <a href={`/api/experiments/${v.id}/export?format=json`}>JSON</a> ·{" "}
        <Link href={`/compare?runs=${v.runs.filter((r) => r.status === "SUCCEEDED").map((r) => r.id).join(",")}`}>Compare the runs</Link>
      </p>
      {roleAtLeast(actor.role, "OPERATOR") && v.runs.some((r) => r.status === "SUCCEEDED") ? (
        <div>
          <ShareExperimentButton id={v.id} />
        </div>
      ) : null}
    </>
  );
}
