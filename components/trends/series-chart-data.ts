// The series chart's data, computed apart from Recharts so it can be tested and shared with the
// page's own text: rows on a time axis, the shaded windows (run ids → the finish times they span),
// the annotations' short labels and the sentence a screen reader hears instead of the picture.
import type { ProfileChange, SeriesAlert, SeriesAnnotation, SeriesPoint, WindowVerdict } from "./types";

export interface ChartRow {
  t: number;
  runId: string;
  /** The value when the run is valid (drawn filled and joined by the line), else null. */
  valid: number | null;
  /** The value when the run is not valid (drawn hollow and grey, not joined), else null. */
  invalid: number | null;
  /** [below, above] the value, as ErrorBar wants it; null without a spread. */
  spread: [number, number] | null;
  low: number | null;
  high: number | null;
  flags: string[];
  notes: string | null;
  status: string;
  scheduled: boolean;
}

export type WindowTone = "baseline" | "recent" | "regression" | "improvement";

export interface ChartWindow {
  key: string;
  label: string;
  tone: WindowTone;
  from: number;
  to: number;
}

export interface ChartMark {
  t: number;
  runId: string;
  label: string;
  title: string;
}

export const fmtValue = (v: number) => v.toLocaleString("en-US", { maximumFractionDigits: v >= 100 ? 0 : v >= 10 ? 1 : 2 });

export function chartRows(points: SeriesPoint[]): ChartRow[] {
  return points
    .filter((p) => p.value !== null && Number.isFinite(Date.parse(p.at)))
    .map((p) => {
      const value = p.value as number;
      // A spread that does not straddle the value (a median outside its own min–max cannot
      // happen, but a rounding can) is clamped rather than drawn as a negative whisker.
      const spread: [number, number] | null = p.low !== null && p.high !== null ? [Math.max(0, value - p.low), Math.max(0, p.high - value)] : null;
      return {
        t: Date.parse(p.at),
        runId: p.runId,
        valid: p.valid ? value : null,
        invalid: p.valid ? null : value,
        spread,
        low: p.low,
        high: p.high,
        flags: p.flags,
        notes: p.notes,
        status: p.status,
        scheduled: p.scheduled,
      };
    })
    .sort((a, b) => a.t - b.t);
}

/** The finish times a set of runs spans on the chart; null when none of them is drawn. */
export function spanOf(rows: ChartRow[], runIds: string[]): { from: number; to: number } | null {
  const ids = new Set(runIds);
  const ts = rows.filter((r) => ids.has(r.runId)).map((r) => r.t);
  return ts.length === 0 ? null : { from: Math.min(...ts), to: Math.max(...ts) };
}

/** The current verdict's two windows and each open alert's, as shaded spans. */
export function chartWindows(rows: ChartRow[], current: WindowVerdict | null, alerts: SeriesAlert[]): ChartWindow[] {
  const out: ChartWindow[] = [];
  const push = (key: string, label: string, tone: WindowTone, runIds: string[]) => {
    const span = spanOf(rows, runIds);
    if (span) out.push({ key, label, tone, ...span });
  };
  if (current) {
    push("current-baseline", "baseline", "baseline", current.baselineRunIds);
    push("current-recent", "recent", "recent", current.recentRunIds);
  }
  for (const a of alerts.filter((x) => x.acknowledgedAt === null)) push(`alert-${a.id}`, a.kind, a.kind, a.recentRunIds);
  return out;
}

/** `vm.dirty_ratio` → vm.dirty_ratio: the chart draws text, not markdown. */
const plain = (s: string) => s.replace(/`/g, "");

/** A profile change in a few words for a reference line: "kernel", "vm.dirty_ratio", "kernel +2". */
export function shortChangeLabel(changes: ProfileChange[]): string {
  const first = changes[0];
  if (!first) return "profile";
  const name = plain(first.label);
  const short = name.length > 18 ? `${name.slice(0, 17)}…` : name;
  return changes.length > 1 ? `${short} +${changes.length - 1}` : short;
}

/** One change in full: "kernel: 6.1.0-25 → 6.1.0-28". */
export function changeText(c: ProfileChange): string {
  return `${plain(c.label)}: ${c.from ?? "none"} → ${c.to ?? "none"}`;
}

export function annotationMarks(rows: ChartRow[], annotations: SeriesAnnotation[]): ChartMark[] {
  const byRun = new Map(rows.map((r) => [r.runId, r.t]));
  return annotations.flatMap((a) => {
    const t = byRun.get(a.runId) ?? Date.parse(a.at);
    if (!Number.isFinite(t)) return [];
    return [{ t, runId: a.runId, label: shortChangeLabel(a.changes), title: a.changes.map(changeText).join("; ") }];
  });
}

export const dayUtc = (t: number) => new Date(t).toISOString().slice(0, 10);
export const minuteUtcOf = (t: number) => new Date(t).toISOString().slice(0, 16).replace("T", " ");

/** What the chart shows, in one paragraph, for readers who cannot see it. */
export function chartSummary(input: { noun: string; unit: string; rows: ChartRow[]; marks: ChartMark[]; windows: ChartWindow[] }): string {
  const { noun, unit, rows, marks, windows } = input;
  if (rows.length === 0) return `${noun}: no run has a value yet.`;
  const valid = rows.filter((r) => r.valid !== null).map((r) => r.valid as number);
  const first = rows[0]!;
  const last = rows[rows.length - 1]!;
  const parts = [`${noun} in ${unit}: ${rows.length} run${rows.length === 1 ? "" : "s"} from ${minuteUtcOf(first.t)} to ${minuteUtcOf(last.t)} UTC`];
  if (valid.length > 0) parts.push(`valid runs range from ${fmtValue(Math.min(...valid))} to ${fmtValue(Math.max(...valid))}, the latest ${fmtValue(valid[valid.length - 1]!)}`);
  const invalid = rows.length - valid.length;
  if (invalid > 0) parts.push(`${invalid} run${invalid === 1 ? " is" : "s are"} not valid and left out of the windows`);
  if (marks.length > 0) parts.push(`profile changes at ${marks.map((m) => `${minuteUtcOf(m.t)} (${m.label})`).join(", ")}`);
  const alerted = windows.filter((w) => w.tone === "regression" || w.tone === "improvement");
  if (alerted.length > 0) parts.push(`${alerted.length} open alert${alerted.length === 1 ? "" : "s"} shaded`);
  return `${parts.join("; ")}. Every run is listed in the points table.`;
}
