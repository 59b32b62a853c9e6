// How a result chart lays out its x axis at a given width: on a phone, category names at an angle
// with only as many ticks as fit, and the axis titles as text under the chart, where nothing cuts them.

export const NARROW_CHART_PX = 560;
/** Pixels an angled tick label needs beside the next one. */
const ANGLED_TICK_PX = 22;
/** Pixels per character of a level tick label at the chart's font size. */
const CHAR_PX = 7;

export interface XAxisLayout {
  /** Tick label angle in degrees (0 = level). */
  angle: number;
  /** Draw every (interval + 1)-th tick (Recharts' interval). */
  interval: number;
  /** Height of the x axis band, room for angled labels. */
  height: number;
  /** Axis titles under the chart rather than inside the SVG. */
  titlesBelow: boolean;
  /** Longest tick label, characters; longer ones end in "…". */
  maxLabelChars: number;
}

/**
 * The x axis for `labels` at a chart `width` in pixels (0 before it was measured). A numeric axis
 * (`numeric`: explicit ticks such as fio's nines) keeps level labels and draws fewer of them: an
 * angled first label would run into the value axis' lowest one.
 */
export function xAxisLayout(width: number, labels: readonly string[], numeric = false): XAxisLayout {
  const narrow = width > 0 && width < NARROW_CHART_PX;
  const plot = Math.max(width - 130, 100);
  const longest = Math.max(1, ...labels.map((l) => l.length));
  const levelFits = !narrow || longest * CHAR_PX * labels.length <= plot;
  if (levelFits) return { angle: 0, interval: 0, height: 30, titlesBelow: narrow, maxLabelChars: 40 };
  if (numeric) {
    const interval = Math.max(0, Math.ceil((labels.length * (longest + 2) * CHAR_PX) / plot) - 1);
    return { angle: 0, interval, height: 30, titlesBelow: true, maxLabelChars: 40 };
  }
  const maxLabelChars = 16;
  const interval = Math.max(0, Math.ceil((labels.length * ANGLED_TICK_PX) / plot) - 1);
  return { angle: -40, interval, height: Math.min(longest, maxLabelChars) * CHAR_PX * 0.7 + 16, titlesBelow: true, maxLabelChars };
}

/** A tick label cut to `max` characters. */
export function tickText(label: string, max: number): string {
  return label.length <= max ? label : `${label.slice(0, max - 1)}…`;
}
