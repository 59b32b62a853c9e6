// The one chart palette: run pages, guides' datasets and the compare page colour series alike.

/**
 * Ten colours, distinguishable on either theme: each is a CSS variable (--series-1 … --series-10,
 * app/globals.css) whose value the theme sets, so SVG and Recharts follow a theme change without
 * re-rendering. Beyond ten series lines also change dash and bars go hollow.
 */
const COLORS = Array.from({ length: 10 }, (_, i) => `var(--series-${i + 1})`);
const DASHES = ["", "7 4", "2 3"];

export function seriesColor(index: number): string {
  return COLORS[index % COLORS.length]!;
}

export function seriesDash(index: number): string {
  return DASHES[Math.floor(index / COLORS.length) % DASHES.length]!;
}

/** Bars of the second round of colours are drawn hollow (outline, faint fill). */
export function seriesHollow(index: number): boolean {
  return Math.floor(index / COLORS.length) % 2 === 1;
}
