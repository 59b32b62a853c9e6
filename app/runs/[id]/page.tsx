import type { Metadata } from "next";
import Link from "next/link";
import { notFound } from "next/navigation";
import { DeleteButton } from "@/components/delete-button";
import { CancelButton } from "@/components/run/cancel-button";
import { SetupReportView } from "@/components/experiments/setup-report";
import { DiagnosisView } from "@/components/run/diagnosis-view";
import { HistoryOutput } from "@/components/run/history-output";
import { LiveStatusBadge } from "@/components/run/live-status-badge";
import { RepeatNav } from "@/components/run/repeat-nav";
import { RunProfile } from "@/components/run/run-profile";
import { RunAnnotations } from "@/components/run/run-annotations";
import { ResultView } from "@/components/run/result-view";
import { Findings } from "@/components/run/findings";
import { RunLive } from "@/components/run/run-live";
import { RunLiveProvider } from "@/components/run/run-live-provider";
import { RunChecks } from "@/components/run/run-checks";
import { RunCommandView } from "@/components/run/run-command";
import { requirePageUser } from "@/lib/auth/page-guard";
import { mayChange } from "@/lib/auth/ownership";
import { roleAtLeast } from "@/lib/auth/roles";
import { contextFromProfile } from "@/lib/diagnosis/context";
import { diagnoseResult, telemetryPanelsDrawnBy } from "@/lib/diagnosis/run-diagnosis";
import { AppError } from "@/lib/http/app-error";
import { isUuid } from "@/lib/http/params";
import { listReferenceRuns } from "@/lib/server/reference/list-reference-runs";
import type { RunJson } from "@/lib/api/schemas/runs";
import { getRun } from "@/lib/server/runs/get-run";
import { findingsOf } from "@/lib/server/runs/get-run-findings";
import { getRunTimeline } from "@/lib/server/runs/get-run-timeline";
import { listRepeats } from "@/lib/server/runs/list-repeats";
import { prunedLogNotice } from "@/lib/server/runs/prune-raw-logs";
import { runCommand } from "@/lib/server/runs/run-command";
import { setupReportSchema } from "@/probes/protocol/schemas";
import { runWhen } from "@/components/format-time";

export const metadata: Metadata = { title: "Run" };
export const dynamic = "force-dynamic";

/** Which output form the parser recognised (e.g. a JSON form, another implementation), when it said. */
function readAs(result: unknown): string | null {
  const format = typeof result === "object" && result !== null ? (result as { format?: unknown }).format : undefined;
  return typeof format === "string" ? format : null;
}

const ORIGIN_VERB: Record<RunJson["origin"], string> = {
  AGENT: "Launched",
  IMPORTED: "Imported",
  REFERENCE: "Reference data",
  HISTORY: "Host history, uploaded",
};

export default async function RunPage({ params }: { params: Promise<{ id: string }> }) {
  const { id } = await params;
  const actor = await requirePageUser(`/runs/${id}`);
  if (!isUuid(id)) notFound();
  const run = await getRun({ id }).catch((err: unknown) => {
    if (err instanceof AppError && err.code === "NOT_FOUND") notFound();
    throw err;
  });
  const live = run.status === "QUEUED" || run.status === "RUNNING";
  const timeline = await getRunTimeline({ runId: run.id, probe: run.probe, result: run.result });
  const findings = findingsOf(run, timeline.samples);
  const repeats = run.repeatGroup ? await listRepeats({ repeatGroup: run.repeatGroup }) : [];
  const parsedSetup = setupReportSchema.safeParse(run.setup);
  const setup = run.setup && parsedSetup.success ? parsedSetup.data : null;
  // The guides' published measurements of the same probe, to set this run beside.
  // Probes that sample the machine are read by the guides' rules from their own result.
  const diagnosis = run.status === "SUCCEEDED" ? diagnoseResult(run.result, contextFromProfile(run.profile)) : null;
  const references =
    run.status === "SUCCEEDED" && run.origin !== "REFERENCE" ? await listReferenceRuns({ probe: run.probe, take: 6 }) : [];
  return (
    // One event stream for the page: the badge in the heading and the output below both read it.
    <RunLiveProvider runId={run.id} probe={run.probe} params={run.params} live={live} status={run.status} samples={timeline.samples} progress={timeline.progress}>
      <p className="muted small">
        <Link href="/runs">Runs</Link> / {run.id.slice(0, 8)}
      </p>
      <h1>
        {run.probe} on {run.hostName ?? "unknown host"}
        {run.historyDay ? `, ${run.historyDay}` : ""}
        {run.hostRemoved ? (
          <span className="muted small" data-testid="host-removed">
            {" "}
            (from a removed host)
          </span>
        ) : null}{" "}
        <LiveStatusBadge initial={run.status} />
      </h1>
      <p className="muted">
        <span data-testid="run-origin">{ORIGIN_VERB[run.origin]}</span>{" "}
        {run.origin === "REFERENCE" ? runWhen(run) : `${new Date(run.createdAt).toLocaleString("en-GB", { timeZone: "UTC" })} UTC`}
        {run.durationMs !== null ? ` · ${(run.durationMs / 1000).toFixed(1)} s` : ""}
        {run.exitCode !== null ? ` · exit ${run.exitCode}` : ""}
        {run.fsType ? ` · ${run.fsType}` : ""}
        {run.medium ? ` · ${run.medium}` : ""}
      </p>
      <RepeatNav runId={run.id} repeats={repeats} />
      {readAs(run.result) ? (
        <p className="muted small" data-testid="run-format">
          Read as {readAs(run.result)}
        </p>
      ) : null}
      {run.experiment ? (
        <p data-testid="run-experiment">
          Part of experiment <Link href={`/experiments/${run.experiment.id}`}>{run.experiment.title}</Link>: arm {run.experiment.arm}, round {run.experiment.round}.
        </p>
      ) : null}
      {run.tags.length > 0 ? (
        <p data-testid="run-tags">
          {run.tags.map((t) => (
            <Link key={t} className="badge" href={`/runs?tag=${encodeURIComponent(t)}`} style={{ marginRight: 4 }}>
              {t}
            </Link>
          ))}
        </p>
      ) : null}
      {run.notes ? (
        <p data-testid="run-notes" style={{ whiteSpace: "pre-wrap" }}>
          {run.notes}
        </p>
      ) : null}
      {mayChange(actor, run.createdById) ? <RunAnnotations runId={run.id} tags={run.tags} notes={run.notes} /> : null}
      {setup ? (
        <>
          <h2>Setup</h2>
          <SetupReportView setup={setup} />
        </>
      ) : null}
      {run.error ? (
        <div role="alert" className="alert alert-error">
          {run.error}
        </div>
      ) : null}
      {run.warnings.length > 0 ? (
        <div className="alert alert-warn" data-testid="run-warnings">
          <strong>Quality warnings</strong>
          <ul>
            {run.warnings.map((w) => (
              <li key={w}>{w}</li>
            ))}
          </ul>
        </div>
      ) : null}
      {live && roleAtLeast(actor.role, "OPERATOR") && !run.cancelRequested ? <CancelButton runId={run.id} /> : null}
      {live && run.cancelRequested ? <p className="muted">Cancellation requested; waiting for the agent…</p> : null}
      {!live && mayChange(actor, run.createdById) ? (
        <p>
          <DeleteButton url={`/api/runs/${run.id}`} label="Delete run" consequence="The run, its output and its results are deleted for good (share links keep their copy)." after="/runs" />
        </p>
      ) : null}
      {run.origin === "AGENT" ? <RunCommandView command={runCommand(run.probe, run.params)} /> : null}
      <h2>Output</h2>
      <RunLive
        prunedNotice={run.logPrunedAt ? prunedLogNotice(run.logPrunedAt) : null}
        origin={run.origin}
        drawnElsewhere={diagnosis ? telemetryPanelsDrawnBy(diagnosis.timeline) : []}
        output={run.origin === "HISTORY" ? <HistoryOutput runId={run.id} samples={diagnosis?.timeline.points.length ?? 0} day={run.historyDay} /> : null}
      />
      <p className="small">
        <a href={`/api/runs/${run.id}/log`}>Raw log</a> · <a href={`/api/runs/${run.id}/export?format=csv`}>CSV</a> ·{" "}
        <a href={`/api/runs/${run.id}/export?format=json`}>JSON</a>
      </p>
      {references.length > 0 ? (
        <p>
          <Link className="btn" href={`/compare?runs=${[run.id, ...references.map((r) => r.id)].join(",")}`} data-testid="compare-reference">
            Compare with the guides&apos; reference runs
          </Link>{" "}
          {/* Their labels name article and series (~150 characters each): the compare page shows them. */}
          <span className="muted small" title={references.map((r) => r.hostLabel).join("\n")}>
            {references.length} published run{references.length === 1 ? "" : "s"} of {run.probe}
          </span>
        </p>
      ) : null}
      {diagnosis ? <DiagnosisView diagnosis={diagnosis} /> : null}
      {/* What the telemetry showed beyond what the run's own samples (above) already say. */}
      <Findings findings={findings.filter((f) => !diagnosis?.findings.some((d) => d.rule === f.rule))} heading={diagnosis ? "Diagnosis from telemetry" : "Diagnosis"} />
      {run.result ? (
        <>
          <h2>Results</h2>
          <RunChecks run={run} />
          <ResultView result={run.result} />
        </>
      ) : null}
      <RunProfile profile={run.profile} />
    </RunLiveProvider>
  );
}
