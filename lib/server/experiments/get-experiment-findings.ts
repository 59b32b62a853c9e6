import { getRunFindings, type RunFinding } from "../runs/get-run-findings";

/** One rule that fired in an experiment, with the runs that showed it (the same run order as the page). */
export interface ExperimentFinding {
  rule: string;
  title: string;
  severity: RunFinding["severity"];
  guide: RunFinding["guide"];
  doc: RunFinding["doc"];
  next: RunFinding["next"];
  mechanism: string;
  limits: string;
  runs: { runId: string; summary: string }[];
}

/**
 * The guides' rules over every finished run of an experiment, grouped by rule: "page cache, not
 * disk" in three of six runs says more about a verdict than any one run page does. Each run is
 * read with its own context (getRunFindings reads the run's profile snapshot): arms differ in
 * exactly such facts (vm.zone_reclaim_mode, dirty sysctls, the lab's device).
 */
export async function getExperimentFindings(opts: { runIds: readonly string[] }): Promise<ExperimentFinding[]> {
  const perRun = await Promise.all(opts.runIds.map(async (runId) => ({ runId, findings: await getRunFindings({ runId }) })));
  const byRule = new Map<string, ExperimentFinding>();
  for (const { runId, findings } of perRun) {
    for (const f of findings) {
      const entry = byRule.get(f.rule) ?? { rule: f.rule, title: f.title, severity: f.severity, guide: f.guide, doc: f.doc, next: f.next, mechanism: f.mechanism, limits: f.limits, runs: [] };
      entry.runs.push({ runId, summary: f.summary });
      byRule.set(f.rule, entry);
    }
  }
  return [...byRule.values()];
}
