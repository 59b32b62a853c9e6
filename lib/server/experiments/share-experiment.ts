import { AppError } from "../../http/app-error";
import { createComparison } from "../comparisons/create-comparison";
import type { ExperimentSnapshot } from "../comparisons/snapshot";
import type { ShareInclude } from "../../api/schemas/comparisons";
import { getSweepView } from "../sweeps/get-sweep";
import { getExperiment } from "./get-experiment";

/**
 * A share link of an experiment: its successful runs frozen like a shared comparison (host names
 * and paths left out), with the verdict as it stands now frozen beside them.
 */
export async function shareExperiment(opts: { id: string; createdById: string | null; include?: ShareInclude; expiresInDays?: number }): Promise<{ slug: string }> {
  const v = await getExperiment({ id: opts.id });
  // A sweep's view goes with it: its host name only when the sharer chose host names, its target
  // only when they chose paths (a share link's defaults keep both out).
  const sweepView = v.kind === "sweep" ? await getSweepView(v.id, { hideHost: !opts.include?.hostnames }) : null;
  const sweep = sweepView ? { ...sweepView, target: opts.include?.paths ? sweepView.target : null, experimentId: "" } : null;
  // The shared runs are the ones the verdict counts: flagged and warm-up runs stay out.
  const counted = new Set(v.summary.arms.flatMap((a) => a.validRunIds));
  const runIds = v.runs.filter((r) => r.status === "SUCCEEDED" && (counted.has(r.id) || counted.size === 0)).map((r) => r.id);
  if (runIds.length === 0) throw new AppError("BAD_REQUEST", "No run of this experiment has a result yet: share it once some runs have finished.");
  const first = v.summary.headlines[0];
  const experiment: ExperimentSnapshot = {
    status: v.status,
    decisionMessage: v.decisionMessage,
    reverted: v.reverted,
    policy: { min: v.policy.min, max: v.policy.max, cvTarget: v.policy.cvTarget },
    arms: v.summary.arms.map((a, i) => {
      const arm = v.arms[i];
      const setup = [arm?.fs ? `${arm.fs} lab volume` : "", ...Object.entries(arm?.tunables ?? {}).map(([k, x]) => `${k}=${x}`)].filter(Boolean).join(", ");
      return { label: a.label, setup, median: a.median, cv: a.cv, runs: first ? (a.values[first.key] ?? []).length : 0 };
    }),
    unit: first?.unit ?? null,
    // Only lines with a ratio are frozen: a line still collecting has no answer to share.
    verdict: v.summary.verdict.flatMap((l) =>
      l.ratio !== null && l.ciLow !== null && l.ciHigh !== null ? [{ sentence: l.sentence, metric: l.metric, baseline: l.baseline, arm: l.arm, ratio: l.ratio, ciLow: l.ciLow, ciHigh: l.ciHigh }] : [],
    ),
    warnings: v.summary.warnings,
    hostRemoved: v.hostRemoved,
    ...(sweep ? { sweep } : {}),
  };
  const { slug } = await createComparison({ runIds: runIds.slice(0, 30), title: v.title, ...(opts.include ? { include: opts.include } : {}), ...(opts.expiresInDays ? { expiresInDays: opts.expiresInDays } : {}) }, opts.createdById, { experiment });
  return { slug };
}
