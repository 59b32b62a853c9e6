// Where an experiment can start from: a guide's question, a tunable from the index, a comparison.
// Each is a link to the new-experiment form with its fields filled in through the query string.
// A tunable's link names its trial (lib/experiments/trials.ts): the form sizes the workload for
// the chosen host so that the setting binds, or shows why it cannot.
import { GUIDE_EXPERIMENTS, offeredSpec, TUNABLE_TRIALS } from "@/content/experiment-start-points";
import { getTunable } from "../../probes/tunables/catalogue";

const href = (q: Record<string, string>) => `/experiments/new?${new URLSearchParams(q)}`;

/** "Try on a host" for a name of the tunables index; null when an experiment cannot change it. */
export function tunableExperimentHref(name: string): string | null {
  const trial = offeredSpec(TUNABLE_TRIALS[name]);
  if (!trial || !getTunable(name)) return null;
  return href({ kind: "tunables", tunable: name, probe: trial.probe, preset: trial.preset, values: trial.values, trial: name, min: "3", max: "10" });
}

/** Why no experiment is offered for a tunable the catalogue has (shown instead of a link). */
export function tunableNotOfferedReason(name: string): string | null {
  const trial = TUNABLE_TRIALS[name];
  return trial && !offeredSpec(trial) ? (trial.notOffered ?? null) : null;
}
export interface GuideExperiment {
  label: string;
  href: string;
  note: string;
}

export function guideExperiment(slug: string): GuideExperiment | null {
  const spec = GUIDE_EXPERIMENTS[slug];
  return spec ? { label: spec.label, href: href(spec.query), note: spec.note } : null;
}

/**
 * "Turn this into an experiment" from compared runs: the same probe on the first run's host; the
 * file systems the runs differ by become lab arms.
 */
export function compareExperimentHref(runs: readonly { probe: string; hostId: string | null; fsType: string | null }[]): string | null {
  const first = runs[0];
  if (!first) return null;
  const lab = ["ext2", "ext3", "ext4", "xfs", "btrfs"];
  const fs = [...new Set(runs.flatMap((r) => (r.fsType && lab.includes(r.fsType) ? [r.fsType] : [])))];
  return href({ probe: first.probe, ...(first.hostId ? { host: first.hostId } : {}), ...(fs.length >= 2 ? { kind: "lab", fs: fs.join(",") } : {}), min: "3", max: "10" });
}
