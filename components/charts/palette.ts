// The one chart palette: run pages, guides' datasets and the compare page colour series alike.

/** Distinguishable on the dark theme; beyond ten series lines also change dash and bars go hollow. */
const COLORS = ["#4fb3ff", "#f2cc60", "#7ee787", "#ff7b72", "#d2a8ff", "#ffa657", "#56d4dd", "#f778ba", "#a5d6ff", "#c9d36a"];
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
