// Applies the rules to a timeline: a finding names the rule, the samples that showed the
// symptom (with the values that made it match) and the guide section that explains it.
import { RULES, type Condition, type Rule } from "./rules";
import type { Timeline } from "./timeline";

export interface Finding {
  rule: string;
  severity: Rule["severity"];
  title: string;
  summary: string;
  guide: { slug: string; section: string; href: string };
  evidence: { matched: number; total: number; samples: { label: string; values: Record<string, number> }[] };
}

/** At most this many matching samples travel as evidence: the first ones show where it began. */
const EVIDENCE_SAMPLES = 5;

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

export function diagnose(timeline: Timeline, rules: readonly Rule[] = RULES): Finding[] {
  const total = timeline.points.length;
  if (total === 0) return [];
  const findings: Finding[] = [];
  for (const rule of rules) {
    const matched = timeline.points.filter((p) => rule.all.every((c) => holds(c, p.values)));
    const needed = rule.minSamples < 1 ? Math.max(1, Math.ceil(rule.minSamples * total)) : rule.minSamples;
    if (matched.length < needed) continue;
    const series = new Set(rule.all.flatMap((c) => [c.series, ...(typeof c.than === "number" ? [] : [c.than.series])]));
    const samples = matched.slice(0, EVIDENCE_SAMPLES).map((p) => ({
      label: p.label,
      values: Object.fromEntries(Object.entries(p.values).filter(([k]) => series.has(k))),
    }));
    const summary = rule.summary
      .replaceAll("{count}", String(matched.length))
      .replaceAll("{total}", String(total))
      .replaceAll("{first}", matched[0]?.label ?? "")
      .replaceAll("{last}", matched.at(-1)?.label ?? "");
    findings.push({
      rule: rule.id,
      severity: rule.severity,
      title: rule.title,
      summary,
      guide: { ...rule.guide, href: `/guides/${rule.guide.slug}#${anchor(rule.guide.section)}` },
      evidence: { matched: matched.length, total, samples },
    });
  }
  // The NUMA-specific reading explains direct reclaim better than the generic one.
  if (findings.some((f) => f.rule === "zone-reclaim")) return findings.filter((f) => f.rule !== "direct-reclaim");
  return findings;
}
