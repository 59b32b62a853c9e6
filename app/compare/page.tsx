import type { Metadata } from "next";
import Link from "next/link";
import { CompareBody } from "@/components/compare/compare-body";
import styles from "@/components/compare/compare.module.css";
import { ShareButton } from "@/components/compare/share-button";
import { TelemetrySection } from "@/components/compare/telemetry-section";
import { requirePageUser } from "@/lib/auth/page-guard";
import { roleAtLeast } from "@/lib/auth/roles";
import { buildComparison } from "@/lib/compare/model";
import { compareExperimentHref } from "@/lib/experiments/start-points";
import { MAX_COMPARE_RUNS, parseRunIds } from "@/lib/compare/run-ids";
import { shareIncludeSchema } from "@/lib/api/schemas/comparisons";
import { redactForShare } from "@/lib/server/comparisons/redact-share";
import { suggestTitle } from "@/lib/compare/title";
import { loadCompareRuns } from "@/lib/server/comparisons/load-runs";
import { loadCompareTelemetry } from "@/lib/server/comparisons/load-compare-telemetry";

export const metadata: Metadata = { title: "Compare" };
export const dynamic = "force-dynamic";

type Search = Record<string, string | string[] | undefined>;

export default async function ComparePage({ searchParams }: { searchParams: Promise<Search> }) {
  const sp = await searchParams;
  const runsParam = sp.runs;
  const fold = sp.fold !== "0";
  const self = `/compare?${new URLSearchParams(Object.entries(sp).flatMap(([k, v]) => (typeof v === "string" ? [[k, v]] : [])))}`;
  const actor = await requirePageUser(self);
  const parsed = parseRunIds(runsParam);

  if (parsed.ids.length === 0) {
    return (
      <>
        <h1>Compare</h1>
        {parsed.invalid.length > 0 ? (
          <div role="alert" className="alert alert-error">
            These are not run ids: {parsed.invalid.join(", ")}.
          </div>
        ) : null}
        <div className="empty" data-testid="compare-empty">
          <p style={{ marginTop: 0 }}>
            Compare draws runs side by side, each probe its own way (throughput against record size, write and read bars,
            time series, bandwidth, IOPS and tail latency) — with what differs between the hosts (file system, mount options,
            device, kernel, vm sysctls…), repeats folded into medians with their spread, and a value table with Δ % against a
            baseline.
          </p>
          <p>
            Pick runs on the <Link href="/runs">Runs</Link> page (tick their boxes, then “Compare selected”), or open{" "}
            <code>/compare?runs=&lt;id&gt;,&lt;id&gt;,…</code> with up to {MAX_COMPARE_RUNS} run ids.
          </p>
          <p style={{ marginBottom: 0 }}>
            <Link className="btn btn-primary" href="/runs">
              Choose runs
            </Link>
          </p>
        </div>
      </>
    );
  }

  const { runs, missing } = await loadCompareRuns(parsed.ids);
  const model = buildComparison(runs, { fold });
  const telemetry = await loadCompareTelemetry({
    runs,
    seriesIndex: (runId) => Math.max(0, model.series.findIndex((s) => s.runIds.includes(runId))),
  });
  const ids = runs.map((r) => r.id).join(",");
  const exportHref = (format: "csv" | "json") => `/api/comparisons/preview?${new URLSearchParams({ runs: ids, format })}`;
  const foldHref = `/compare?${new URLSearchParams({ runs: ids, ...(fold ? { fold: "0" } : {}) })}`;
  const canShare = roleAtLeast(actor.role, "OPERATOR");
  // The same probe, preset, parameters and target on the first run's host; the compared file systems, or the one setting that differs, as arms.
  const experimentHref = compareExperimentHref(
    runs.map((r) => ({
      probe: r.probe,
      preset: r.preset ?? null,
      params: r.params,
      hostId: r.hostKey.startsWith("host:") ? r.hostKey.slice(5) : null,
      fsType: r.fsType,
      sysctls: (r.profile?.sysctls as Record<string, string> | undefined) ?? null,
    })),
  );
  const shareable = runs.filter((r) => r.result).map((r) => r.id);
  const hasRepeats = model.series.some((s) => s.runIds.length > 1) || (!fold && runs.length > 1);

  return (
    <>
      <p className="muted small">
        <Link href="/runs">Runs</Link> / Compare
      </p>
      <h1>
        {runs.length === 0 ? "Compare" : `Compare ${runs.length} run${runs.length === 1 ? "" : "s"}`}
        {runs.length > 0 && model.series.length !== runs.length ? ` in ${model.series.length} series` : ""}
      </h1>
      {parsed.invalid.length > 0 ? (
        <div role="alert" className="alert alert-error">
          Ignored, not run ids: {parsed.invalid.join(", ")}.
        </div>
      ) : null}
      {missing.length > 0 ? (
        <div role="alert" className="alert alert-error" data-testid="missing-runs">
          No run with id {missing.join(", ")} (deleted, or a mistyped link).{runs.length > 0 ? " The others are compared below." : ""}
        </div>
      ) : null}
      {parsed.dropped > 0 ? (
        <div role="alert" className="alert alert-warn">
          A comparison holds at most {MAX_COMPARE_RUNS} runs: the last {parsed.dropped} were left out.
        </div>
      ) : null}
      {runs.length === 0 ? (
        <div className="empty">
          None of these runs exists. <Link href="/runs">Choose runs</Link>.
        </div>
      ) : (
        <>
          <div className={styles.toolbar}>
            {canShare && shareable.length > 0 ? (
              <ShareButton
                runIds={shareable}
                suggestedTitle={suggestTitle(model)}
                privateTitle={suggestTitle(buildComparison(redactForShare(runs, shareIncludeSchema.parse(undefined)), { fold }))}
              />
            ) : !canShare ? (
              <span className="muted small">Sharing needs the operator role.</span>
            ) : null}
            {canShare && experimentHref ? (
              <Link className="small" href={experimentHref} data-testid="compare-to-experiment">
                Turn this into an experiment
              </Link>
            ) : null}
            <span className={styles.spacer} />
            <span className="small">
              Download: <a href={exportHref("csv")}>CSV</a> · <a href={exportHref("json")}>JSON</a>
            </span>
            {hasRepeats ? (
              <Link className="small" href={foldHref}>
                {fold ? "Show every run separately" : "Fold repeats into medians"}
              </Link>
            ) : null}
          </div>
          <CompareBody model={model} />
          <TelemetrySection data={telemetry} />
        </>
      )}
    </>
  );
}
