// fio 3.x prints a direction's bandwidth three ways on one line, each rounded by its num2str() to
// 4 characters:  "read: IOPS=2558, BW=9.00MiB/s (10.5MB/s)(300MiB/30000msec)" — in kb_base units,
// in the other base, and as io/runtime. Before fio 3.26 num2str() did not carry when the fraction
// rounded up to 1 ("precision loss bug when the fractional part is close to 1", fio commit
// c736b361): 9.995 MiB/s printed "9.00MiB/s", 24.985 kB/s "24.0kB/s". Either figure may be the
// wrong one, so every figure counts with its rounding interval — and a figure whose decimals are
// all zero also as one unit more — and the value is the middle of where the figures agree.

export interface Figure {
  value: number;
  /** Half the last printed digit, in the same unit as value. */
  half: number;
  /** One unit of the printed prefix (1 MiB for "9.00MiB"); the carry bug loses exactly that. */
  unit: number;
  /** Decimals printed and all zero: the carry bug may have dropped one unit. */
  carryMayBeLost: boolean;
}

const FIGURE_RE = /^(\d+)(?:\.(\d+))?([KkMGTP]i?B|B)$/;

/** "9.00MiB" → 9.00 × 1024² bytes with its rounding; "KB" of fio 3.x is SI like "kB". */
export function readFigure(text: string): Figure | null {
  const m = FIGURE_RE.exec(text);
  if (!m) return null;
  const unitText = m[3] ?? "B";
  const power = ["", "K", "M", "G", "T", "P"].indexOf(unitText.replace(/i?B$/, "").toUpperCase());
  if (power < 0) return null;
  const unit = (unitText.includes("i") ? 1024 : 1000) ** power;
  const decimals = m[2] ?? "";
  const value = Number(`${m[1]}${decimals ? `.${decimals}` : ""}`) * unit;
  // num2str keeps only the last division's remainder: allow a thousandth of a unit more.
  const half = 0.5 * 10 ** -decimals.length * unit + unit / 1000;
  return { value, half, unit, carryMayBeLost: decimals.length > 0 && /^0+$/.test(decimals) };
}

interface Interval { low: number; high: number; corrections: number }

function intervalsOf(f: Figure, scale = 1): Interval[] {
  const plain = { low: (f.value - f.half) * scale, high: (f.value + f.half) * scale, corrections: 0 };
  if (!f.carryMayBeLost) return [plain];
  return [plain, { low: (f.value + f.unit - f.half) * scale, high: (f.value + f.unit + f.half) * scale, corrections: 1 }];
}

export interface ExactBandwidth {
  /** Bytes per second. */
  value: number;
  /** The first figure was one unit short (fio < 3.26's num2str) and was corrected. */
  corrected: boolean;
}

/**
 * The bandwidth in B/s from "BW=<primary> (<alt>)(<io>/<ms>msec)": the middle of the interval all
 * figures agree on, preferring readings with fewer carry corrections; the primary figure as
 * printed when they do not agree at all (or it is the only one).
 */
export function exactBandwidth(primary: Figure, alt: Figure | null, io: Figure | null, runtimeMs: number | null): ExactBandwidth {
  const lists: Interval[][] = [intervalsOf(primary)];
  if (alt) lists.push(intervalsOf(alt));
  if (io && runtimeMs !== null && runtimeMs > 0) lists.push(intervalsOf(io, 1000 / runtimeMs));
  let best: { low: number; high: number; corrections: number; primaryCorrected: boolean } | null = null;
  const walk = (i: number, low: number, high: number, corrections: number, primaryCorrected: boolean): void => {
    if (low > high) return;
    if (i === lists.length) {
      if (!best || corrections < best.corrections) best = { low, high, corrections, primaryCorrected };
      return;
    }
    for (const iv of lists[i] ?? []) {
      walk(i + 1, Math.max(low, iv.low), Math.min(high, iv.high), corrections + iv.corrections, i === 0 ? iv.corrections > 0 : primaryCorrected);
    }
  };
  walk(0, -Infinity, Infinity, 0, false);
  const found = best as { low: number; high: number; primaryCorrected: boolean } | null;
  if (!found || lists.length === 1) return { value: primary.value, corrected: false };
  return { value: Math.round((found.low + found.high) / 2), corrected: found.primaryCorrected };
}
