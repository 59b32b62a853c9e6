// Shapes of a comparison. Everything here is plain JSON: a CompareRun is what the compare page
// reads from the database and what a shared comparison freezes in its snapshot, and the
// ComparisonModel built from CompareRuns is what the client components draw.
import type { Better, ChartDraft, ChartRowDraft, NormalisedResult, SectionDraft, TableRowDraft, Tool, XKind } from "../../probes/catalog";

import type { RUN_ORIGINS } from "../run-status";

export type { Better, XKind };

export type RunOriginName = (typeof RUN_ORIGINS)[number];

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
  /** The preset the run was launched with (null: custom parameters or an import); unknown in a share's snapshot. */
  preset?: string | null;
  fsType: string | null;
  medium: string | null;
  /** The profile snapshot, reduced to what a comparison shows (see shareableProfile). */
  profile: Record<string, unknown> | null;
  result: NormalisedResult | null;
  /**
   * What the run's own telemetry said against its result (probes/checks): a flagged run is drawn,
   * but the page says it is not a valid measurement. Absent in snapshots frozen before checks.
   */
  flags?: { code: string; title: string; evidence: string }[];
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

/** A row of a chart: the x value and, per series key, its median, min–max and CV there. */
export interface ChartRow extends Omit<ChartRowDraft, "values"> {
  stats: Record<string, Stat>;
}

/** A probe's chart (probes/<tool>/view.ts) with its repeats summarised. */
export interface ChartModel extends Omit<ChartDraft, "rows"> {
  rows: ChartRow[];
}

export interface TableRow extends Omit<TableRowDraft, "values"> {
  cells: Record<string, Stat | undefined>;
}

/** A probe's section of the comparison (probes/<tool>/view.ts) with its repeats summarised. */
export interface SectionModel extends Omit<SectionDraft, "charts" | "table"> {
  probe: Tool;
  /** Keys of the series of this probe. */
  seriesKeys: string[];
  charts: ChartModel[];
  table: { caption: string; rows: TableRow[] };
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
  /** Runs drawn although their telemetry flagged them, each with what was found. */
  flagged: { id: string; label: string; flags: { code: string; title: string; evidence: string }[] }[];
  folded: boolean;
}
