// What a public share may reveal, chosen by the sharer. The defaults hide host names, addresses,
// file-system paths and hardware models: a share link travels further than its author expects.
// The runs, their profiles and an experiment's verdict go through one ShareAliases, so a
// directory is "path 1" in a run's parameters, its profile and the verdict's sentences alike.
import type { ShareInclude } from "../../api/schemas/comparisons";
import { labelRuns } from "../../compare/label";
import type { CompareRun } from "../../compare/types";
import { profileHostname, redactProfile } from "./redact-profile";
import { ShareAliases } from "./share-aliases";
import type { ExperimentSnapshot } from "./snapshot";

type Obj = Record<string, unknown>;

/** Parameters: a string that is a path is aliased whole; other text is scrubbed; numbers stay. */
function redactParam(v: unknown, a: ShareAliases): unknown {
  if (typeof v === "string") return v.startsWith("/") ? a.path(v) : a.text(v);
  if (Array.isArray(v)) return v.map((x) => redactParam(x, a));
  if (v && typeof v === "object") return Object.fromEntries(Object.entries(v as Obj).map(([k, x]) => [k, redactParam(x, a)]));
  return v;
}

/** Learns every path and host name of the runs first, so aliases follow the runs' order and free text finds them all. */
function learn(runs: readonly CompareRun[], a: ShareAliases, keepName: (r: CompareRun) => boolean): void {
  // The runs' target directories first: they are what the labels and an experiment's arms name.
  for (const r of runs) if (typeof r.params.target === "string") a.path(r.params.target);
  for (const r of runs) {
    const t = r.profile?.target as Obj | undefined;
    for (const p of [t?.path, t?.mountPoint]) if (typeof p === "string" && p) a.path(p);
    if (keepName(r)) continue;
    const alias = a.host(r.hostKey);
    a.knowName(r.hostName, alias);
    a.knowName(profileHostname(r.profile), alias);
  }
}

function redactExperiment(e: ExperimentSnapshot, a: ShareAliases): ExperimentSnapshot {
  // An arm's label (by default its target directory) is replaced wherever the verdict repeats it.
  const labels = new Map(e.arms.map((arm) => [arm.label, a.text(arm.label)]));
  const byLabel = [...labels.keys()].sort((x, y) => y.length - x.length);
  const sentence = (s: string) => a.text(byLabel.reduce((out, l) => out.split(l).join(labels.get(l)!), s));
  return {
    ...e,
    decisionMessage: e.decisionMessage === null ? null : sentence(e.decisionMessage),
    arms: e.arms.map((arm) => ({ ...arm, label: labels.get(arm.label)!, setup: a.text(arm.setup) })),
    verdict: e.verdict.map((l) => ({ ...l, sentence: sentence(l.sentence), metric: a.text(l.metric), baseline: labels.get(l.baseline) ?? sentence(l.baseline), arm: labels.get(l.arm) ?? sentence(l.arm) })),
    warnings: e.warnings.map(sentence),
    // A sweep's points are named by their grid values; its title and the runs' errors are free text.
    ...(e.sweep ? { sweep: { ...e.sweep, title: a.text(e.sweep.title), points: e.sweep.points.map((p) => ({ ...p, problem: p.problem === null ? null : a.text(p.problem) })) } } : {}),
  };
}

export interface RedactedShare {
  runs: CompareRun[];
  experiment?: ExperimentSnapshot;
  /** Free text of the share (an experiment's title) redacted with the same aliases. */
  text: (s: string) => string;
}

/**
 * The runs (and an experiment's verdict) as the share will publish them. Hidden host names become
 * "host A", "host B" … (one letter per machine, so folding and "what differs" still work) and the
 * labels are rebuilt from the redacted facts; reference runs keep their label, which names a
 * public article.
 */
export function redactShare(opts: { runs: readonly CompareRun[]; include: ShareInclude; experiment?: ExperimentSnapshot }): RedactedShare {
  const a = new ShareAliases(opts.include);
  const keepName = (r: CompareRun) => opts.include.hostnames || r.origin === "REFERENCE";
  learn(opts.runs, a, keepName);
  const redacted = opts.runs.map((r) => {
    const hostName = keepName(r) ? r.hostName : a.host(r.hostKey);
    return {
      ...r,
      hostName,
      hostKey: keepName(r) ? r.hostKey : `alias:${hostName}`,
      params: redactParam(r.params, a) as Obj,
      fsType: r.fsType === null ? null : a.text(r.fsType),
      profile: redactProfile(r.profile, a, { reference: r.origin === "REFERENCE" }),
      result: r.result ? { ...r.result, warnings: r.result.warnings.map((w) => a.text(w)) } : null,
      // A flag's evidence is free text that may name a device or a directory: a share keeps what
      // was found (code and title) and drops the evidence unless paths may be shown.
      ...(r.flags ? { flags: r.flags.map((f) => ({ ...f, title: a.text(f.title), evidence: opts.include.paths ? a.text(f.evidence) : "" })) } : {}),
    };
  });
  const labels = labelRuns(redacted.map((r) => ({ origin: r.origin, params: r.params, hostName: r.hostName, medium: r.medium, fsType: r.fsType, createdAt: r.createdAt })));
  return {
    runs: redacted.map((r, i) => ({ ...r, label: labels[i]! })),
    ...(opts.experiment ? { experiment: redactExperiment(opts.experiment, a) } : {}),
    text: (s) => a.text(s),
  };
}

/** The runs alone, as a share with these options would publish them (the share form's preview title). */
export function redactForShare(runs: readonly CompareRun[], include: ShareInclude): CompareRun[] {
  return redactShare({ runs, include }).runs;
}
