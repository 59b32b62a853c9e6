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

/** A compared run as the link needs it: its probe, preset, parameters, where it ran and its host's vm sysctls. */
export interface CompareStartRun {
  probe: string;
  preset: string | null;
  params: Record<string, unknown>;
  hostId: string | null;
  fsType: string | null;
  sysctls: Record<string, string> | null;
}

/**
 * "Turn this into an experiment" from compared runs: the same probe, preset, parameters and target
 * on the first run's host; the file systems the runs differ by become lab arms, or else the one
 * kernel setting they differ by becomes a tunables experiment over its values.
 */
export function compareExperimentHref(runs: readonly CompareStartRun[]): string | null {
  const first = runs[0];
  if (!first) return null;
  const lab = ["ext2", "ext3", "ext4", "xfs", "btrfs"];
  const fs = [...new Set(runs.flatMap((r) => (r.fsType && lab.includes(r.fsType) ? [r.fsType] : [])))];
  const { target, ...params } = first.params;
  const differing = fs.length >= 2 ? null : differingSetting(runs);
  const arms: Record<string, string> = fs.length >= 2 ? { kind: "lab", fs: fs.join(",") } : differing ? { kind: "tunables", tunable: differing.name, values: differing.values.join(",") } : {};
  return href({
    probe: first.probe,
    ...(first.preset ? { preset: first.preset } : {}),
    ...(Object.keys(params).length ? { params: JSON.stringify(params) } : {}),
    ...(typeof target === "string" ? { target } : {}),
    ...(first.hostId ? { host: first.hostId } : {}),
    ...arms,
    min: "3",
    max: "10",
  });
}

/** The one catalogued kernel setting whose value differs between the runs (exactly one), with its values in run order. */
function differingSetting(runs: readonly CompareStartRun[]): { name: string; values: string[] } | null {
  const names = new Set(runs.flatMap((r) => Object.keys(r.sysctls ?? {})));
  const differ = [...names].filter((n) => getTunable(n) && runs.every((r) => r.sysctls?.[n] !== undefined) && new Set(runs.map((r) => r.sysctls![n])).size > 1);
  if (differ.length !== 1) return null;
  const name = differ[0]!;
  return { name, values: [...new Set(runs.map((r) => r.sysctls![name]!))] };
}
