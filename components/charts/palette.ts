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

/**
 * The dark theme's values of the same ten colours, for images drawn outside a page (the share's
 * Open Graph image: Satori resolves no CSS variable). Keep in step with app/globals.css.
 */
const DARK_HEX = ["#4fb3ff", "#f2cc60", "#7ee787", "#ff7b72", "#d2a8ff", "#ffa657", "#56d4dd", "#f778ba", "#a5d6ff", "#c9d36a"];

export function seriesHex(index: number): string {
  return DARK_HEX[index % DARK_HEX.length]!;
}

export function seriesDash(index: number): string {
  return DASHES[Math.floor(index / COLORS.length) % DASHES.length]!;
}

/** Bars of the second round of colours are drawn hollow (outline, faint fill). */
export function seriesHollow(index: number): boolean {
  return Math.floor(index / COLORS.length) % 2 === 1;
}
