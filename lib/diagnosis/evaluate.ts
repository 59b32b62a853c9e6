// Applies the rules to a timeline: a finding names the rule, the samples that showed the
// symptom (with the values that made it match), the mechanism and limits of the rule, and the
// guide section (or external document) that explains it.
import { UNKNOWN_CONTEXT, type DiagnosisContext } from "./context";
import { RULES, type Condition, type Rule } from "./rules";
import type { Timeline } from "./timeline";

export interface Finding {
  rule: string;
  severity: Rule["severity"];
  title: string;
  summary: string;
  mechanism: string;
  limits: string;
  /** The guide section that explains the symptom; null when no guide discusses it (see `doc`). */
  guide: { slug: string; section: string; href: string } | null;
  /** An external document, for rules no guide covers. */
  doc: { title: string; href: string } | null;
  /** A run that tests what the finding leaves open. */
  next: { title: string; href: string } | null;
  evidence: { matched: number; total: number; samples: { label: string; values: Record<string, number> }[] };
}

/** At most this many matching samples travel as evidence: the first ones show where it began. */
const EVIDENCE_SAMPLES = 5;

/**
 * A warning or critical finding needs the symptom in at least this many samples; fewer are
 * reported as info. One second of pgscand or steal happens on healthy hosts, and a judgement
 * on a host should not rest on it.
 */
export const SUSTAINED_SAMPLES = 3;

function holds(c: Condition, values: Record<string, number>): boolean {
  const left = values[c.series];
  const right = typeof c.than === "number" ? c.than : values[c.than.series] !== undefined ? (values[c.than.series] as number) * c.than.times : undefined;
  if (left === undefined || right === undefined) return false;
  switch (c.op) {
    case ">":
      return left > right;
    case ">=":
      return left >= right;
    case "<":
      return left < right;
    case "<=":
      return left <= right;
  }
}

const anchor = (section: string) => section.toLowerCase().replace(/[^a-z0-9]+/g, "-").replace(/^-|-$/g, "");

/** Rules whose finding explains another one's better: that other one is dropped when both fire. */
const SUPERSEDES: Record<string, string> = { "zone-reclaim": "direct-reclaim", "numa-local-reclaim": "direct-reclaim" };

export function diagnose(timeline: Timeline, ctx: DiagnosisContext = UNKNOWN_CONTEXT, rules: readonly Rule[] = RULES): Finding[] {
  const total = timeline.points.length;
  if (total === 0) return [];
  const findings: Finding[] = [];
  for (const rule of rules) {
    if (rule.applies && !rule.applies(ctx)) continue;
    const matched = timeline.points.filter((p) => rule.all.every((c) => holds(c, p.values)));
    const needed = rule.minSamples < 1 ? Math.max(1, Math.ceil(rule.minSamples * total)) : rule.minSamples;
    if (matched.length < needed) continue;
    const series = new Set([...rule.all.flatMap((c) => [c.series, ...(typeof c.than === "number" ? [] : [c.than.series])]), ...(rule.show ?? [])]);
    const samples = matched.slice(0, EVIDENCE_SAMPLES).map((p) => ({
      label: p.label,
      values: Object.fromEntries(Object.entries(p.values).filter(([k]) => series.has(k))),
    }));
    const text = typeof rule.summary === "function" ? rule.summary(ctx) : rule.summary;
    const summary = text
      .replaceAll("{count}", String(matched.length))
      .replaceAll("{total}", String(total))
      .replaceAll("{first}", matched[0]?.label ?? "")
      .replaceAll("{last}", matched.at(-1)?.label ?? "");
    const brief = rule.severity !== "info" && matched.length < SUSTAINED_SAMPLES;
    const source = rule.guide;
    findings.push({
      rule: rule.id,
      severity: brief ? "info" : rule.severity,
      title: rule.title,
      summary: brief ? `${summary} Seen in fewer than ${SUSTAINED_SAMPLES} samples, so it is noted, not judged.` : summary,
      mechanism: rule.mechanism,
      limits: rule.limits,
      guide: "slug" in source ? { ...source, href: `/guides/${source.slug}#${anchor(source.section)}` } : null,
      doc: "href" in source ? source : null,
      next: rule.next ?? null,
      evidence: { matched: matched.length, total, samples },
    });
  }
  const dropped = new Set(findings.flatMap((f) => (SUPERSEDES[f.rule] ? [SUPERSEDES[f.rule] as string] : [])));
  return findings.filter((f) => !dropped.has(f.rule));
}
