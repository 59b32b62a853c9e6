// The one place where runs get their human labels: "host · medium · file system · date".
// Reference runs keep their host label, which names the article, its year and the series.
import type { RunOriginName } from "./types";

export interface LabelFacts {
  origin: RunOriginName;
  /** The run's parameters, used to tell apart runs of one host, medium, file system and day. */
  params?: Record<string, unknown>;
  hostName: string | null;
  medium: string | null;
  fsType: string | null;
  /** ISO timestamp. */
  createdAt: string;
}

const day = (iso: string) => iso.slice(0, 10);
const minute = (iso: string) => iso.slice(0, 16).replace("T", " ");
const second = (iso: string) => iso.slice(0, 19).replace("T", " ");

function parts(f: LabelFacts, date: string): string {
  const out = [f.hostName?.trim() || "unknown host"];
  if (f.medium && f.medium !== "unknown") out.push(f.medium);
  if (f.fsType) out.push(f.fsType);
  out.push(date);
  return out.join(" · ");
}

/** "db1 · ssd · ext4 · 2026-11-21" (UTC date); `precision` adds the time when runs share a day. */
export function runLabel(f: LabelFacts, precision: "day" | "minute" | "second" = "day"): string {
  if (f.origin === "REFERENCE") return f.hostName?.trim() || "reference data";
  const date = precision === "day" ? day(f.createdAt) : precision === "minute" ? `${minute(f.createdAt)} UTC` : `${second(f.createdAt)} UTC`;
  return parts(f, date);
}

/** Appends " #2", " #3", … to repeated labels so every legend entry is distinct. */
export function uniqueLabels(labels: readonly string[]): string[] {
  const seen = new Map<string, number>();
  const taken = new Set(labels);
  return labels.map((l) => {
    const n = (seen.get(l) ?? 0) + 1;
    seen.set(l, n);
    if (n === 1) return l;
    let k = n;
    while (taken.has(`${l} #${k}`)) k++;
    const out = `${l} #${k}`;
    taken.add(out);
    return out;
  });
}

const paramText = (v: unknown) => (typeof v === "string" ? v : JSON.stringify(v));

/**
 * For runs sharing a label: the parameters that tell them apart, per run ("read",
 * "blockSizeKiB=4"). The mode (a direction) comes first; a further parameter is added only if it separates
 * runs the earlier ones do not (a read's fdatasync=false adds nothing to "read"), two at most.
 */
function distinguishingParams(runs: readonly LabelFacts[]): string[] {
  const candidates = [...new Set(runs.flatMap((r) => Object.keys(r.params ?? {})))]
    .filter((k) => k !== "target")
    .sort((a, b) => (a === "mode" ? -1 : b === "mode" ? 1 : a.localeCompare(b)));
  const groups = (keys: string[]) => new Set(runs.map((r) => keys.map((k) => paramText(r.params?.[k])).join("\u0000"))).size;
  const keys: string[] = [];
  for (const k of candidates) {
    if (keys.length === 2 || groups(keys) === runs.length) break;
    if (groups([...keys, k]) > groups(keys)) keys.push(k);
  }
  return runs.map((r) =>
    keys
      .filter((k) => r.params?.[k] !== undefined)
      .map((k) => (k === "mode" ? paramText(r.params?.[k]) : `${k}=${paramText(r.params?.[k])}`))
      .join(", "),
  );
}

function collisions(labels: readonly string[]): Map<string, number[]> {
  const at = new Map<string, number[]>();
  labels.forEach((l, i) => at.set(l, [...(at.get(l) ?? []), i]));
  return new Map([...at].filter(([, idx]) => idx.length > 1));
}

/**
 * Labels for a set of runs, distinct from each other: the date alone when that tells them apart,
 * else the parameters that differ (a direction, a block size), else the time (minute, then
 * second), else a running number.
 */
export function labelRuns(runs: readonly LabelFacts[]): string[] {
  const extras = runs.map(() => "");
  const precision: ("day" | "minute" | "second")[] = runs.map(() => "day");
  const label = (i: number) => `${runLabel(runs[i]!, precision[i])}${extras[i] ? ` · ${extras[i]}` : ""}`;
  for (const idx of collisions(runs.map((_, i) => label(i))).values()) {
    const extra = distinguishingParams(idx.map((i) => runs[i]!));
    idx.forEach((i, j) => (extras[i] = extra[j]!));
  }
  for (const p of ["minute", "second"] as const) {
    for (const idx of collisions(runs.map((_, i) => label(i))).values()) for (const i of idx) precision[i] = p;
  }
  return uniqueLabels(runs.map((_, i) => label(i)));
}

/**
 * The label of a folded series: its single run's label, or the shared "host · medium · file
 * system" with the date (or date range) and the number of runs (or `count`, e.g. "3 writes, 3
 * reads"; "" for none).
 */
export function seriesLabel(runs: readonly (LabelFacts & { label: string })[], count?: string): string {
  if (runs.length === 0) return "no runs";
  if (runs.length === 1) return runs[0]!.label;
  const first = runs[0]!;
  const suffix = count === undefined ? ` (${runs.length} runs)` : count ? ` (${count})` : "";
  if (first.origin === "REFERENCE") return `${runLabel(first)}${suffix}`;
  const days = [...new Set(runs.map((r) => day(r.createdAt)))].sort();
  const span = days.length === 1 ? days[0]! : `${days[0]}…${days[days.length - 1]}`;
  return `${parts(first, span)}${suffix}`;
}

/**
 * A long label shortened for a legend chip from the middle: the start names the source, the end
 * holds what tells series apart (a reference run's series, "… · ext4"), so the end is kept whole.
 * The chip carries the full label as its title.
 */
export function legendText(label: string, max = 48): string {
  if (label.length <= max) return label;
  const lastPart = label.slice(label.lastIndexOf(" · ") + 1).trim();
  const tail = Math.min(max - 8, Math.max(Math.ceil(max / 2), lastPart.length + 3));
  return `${label.slice(0, max - tail - 1).trimEnd()}…${label.slice(label.length - tail).trimStart()}`;
}
