// The row labels sar prints instead of a time, in every language sysstat ships (nls/*.po of
// sysstat 12.8). "Average:" rows are averages; with -x sar adds "Minimum:" and "Maximum:" rows
// under a "Summary:" header, which must not be read as averages.

const MINIMUM = ["Minimum:", "Minim:", "Minimalt:", "Minimum", "Minimums:", "Minimum :", "Mínimo:", "Минимум:", "Мінімум:", "Најмање:", "მინიმუმი:", "最小：", "최소:"];
const MAXIMUM = ["Maximum:", "Maksimum", "Maksimum:", "Maksimums:", "Maxim:", "Maximalt:", "Maximum :", "Máximo:", "Максимум:", "Максымум:", "Највише:", "მაქსიმუმი:", "最大：", "최대:"];

const key = (label: string) => label.replace(/[\s:：]/g, "").toLowerCase();
const MIN = new Set(MINIMUM.map(key));
const MAX = new Set(MAXIMUM.map(key));

/** "min" or "max" for a summary row label, null for an average (or any other) label. */
export function extremeOf(label: string): "min" | "max" | null {
  const k = key(label);
  if (MIN.has(k)) return "min";
  if (MAX.has(k)) return "max";
  return null;
}
