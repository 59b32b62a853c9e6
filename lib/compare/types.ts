// Shapes of a comparison. Everything here is plain JSON: a CompareRun is what the compare page
// reads from the database and what a shared comparison freezes in its snapshot, and the
// ComparisonModel built from CompareRuns is what the client components draw.
import type { NormalisedResult, Tool } from "../../probes/core/types";

export type RunOriginName = "AGENT" | "IMPORTED" | "REFERENCE";

/** One run as a comparison sees it: facts for labels and "what differs", plus its result. */
export interface CompareRun {
  id: string;
  /** "host · medium · file system · date" (lib/compare/label.ts), unique within the comparison. */
  label: string;
  probe: Tool;
  origin: RunOriginName;
  status: string;
  /** The registered host's name, or the free-text host label of imported and reference runs. */
  hostName: string | null;
  /** Identifies the machine for folding: "host:<id>" or "label:<host label>". */
  hostKey: string;
  createdAt: string;
  repeatGroup: string | null;
  params: Record<string, unknown>;
  fsType: string | null;
  medium: string | null;
  /** The profile snapshot, reduced to what a comparison shows (see shareableProfile). */
  profile: Record<string, unknown> | null;
  result: NormalisedResult | null;
}

/** Median with min–max and the coefficient of variation of a series' repeats at one point. */
export interface Stat {
  n: number;
  median: number;
  min: number;
  max: number;
  /** Sample standard deviation ÷ mean, in %; null for a single value or a zero mean. */
  cv: number | null;
}

/** A line or a bar group in every chart: one run, or the runs of one configuration folded. */
export interface SeriesInfo {
  /** Record field in chart rows ("s0", "s1", …): series labels are free text. */
  key: string;
  label: string;
  probe: Tool;
  runIds: string[];
  runLabels: string[];
  /** Position in the comparison, for a stable colour. */
  index: number;
  /** Highest CV of this series over its values (null when it is a single run). */
  maxCv: number | null;
}

export type XKind = "log2" | "linear" | "category";

/** A row of a chart: the x value and, per series key, its median, min–max and CV there. */
export interface ChartRow {
  x: number | string;
  xLabel: string;
  stats: Record<string, Stat>;
}

export interface ChartModel {
  id: string;
  title: string;
  note?: string;
  kind: "line" | "bar";
  xKind: XKind;
  xLabel: string;
  yUnit: string;
  xTicks?: number[];
  /** Series keys drawn in this chart, in legend order. */
  seriesKeys: string[];
  rows: ChartRow[];
  /** The file size (iozone) this chart belongs to, for the file-size selector. */
  group?: string;
}

export type Better = "higher" | "lower" | null;

export interface TableRow {
  key: string;
  metric: string;
  /** The dims as "k=v, k=v" (empty when none). */
  dims: string;
  unit: string;
  better: Better;
  group?: string;
  /** Follows from another row (dd's size and elapsed time): not counted in repeat-variation warnings. */
  secondary?: boolean;
  cells: Record<string, Stat | undefined>;
}

export interface SectionModel {
  probe: Tool;
  title: string;
  /** Keys of the series of this probe. */
  seriesKeys: string[];
  charts: ChartModel[];
  table: { caption: string; rows: TableRow[] };
  /** File sizes (iozone) to choose from; the charts and rows carry `group`. */
  groups?: { id: string; label: string }[];
  defaultGroup?: string;
  notes: string[];
}

export interface DiffField {
  id: string;
  label: string;
  /** Per series key: the value(s), or null when unknown for that series. */
  values: Record<string, string | null>;
}

export interface DiffersModel {
  fields: DiffField[];
  /** Fields compared (for the "identical" sentence). */
  compared: string[];
  /** Series without any profile (imported output): their fields are unknown, not different. */
  withoutProfile: string[];
}

export interface CvWarning {
  seriesKey: string;
  label: string;
  count: number;
  total: number;
  worst: { what: string; cv: number };
}

export interface ComparisonModel {
  series: SeriesInfo[];
  sections: SectionModel[];
  differs: DiffersModel;
  cvWarnings: CvWarning[];
  /** Runs that could not be drawn (no result yet, failed, unknown probe). */
  skipped: { id: string; label: string; reason: string }[];
  folded: boolean;
}
