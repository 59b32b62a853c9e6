// Number formatting shared by the server-rendered table and the client charts; a fixed locale
// keeps server HTML and hydrated output identical.

const grouped = [0, 1, 2, 3].map((d) => new Intl.NumberFormat("en-US", { maximumFractionDigits: d, minimumFractionDigits: 0 }));

/** Three significant digits at least, no more decimals than that needs: 1,234,567 · 12.3 · 0.0123. */
export function formatValue(v: number | null | undefined): string {
  if (v === null || v === undefined || !Number.isFinite(v)) return "—";
  const a = Math.abs(v);
  if (a >= 100 || a === 0) return grouped[0]!.format(v);
  if (a >= 10) return grouped[1]!.format(v);
  if (a >= 1) return grouped[2]!.format(v);
  if (a >= 0.001) return grouped[3]!.format(v);
  return v.toExponential(2);
}

/** Axis ticks: compact thousands (1.2M, 350k) so long numbers do not eat the plot. */
export function formatTick(v: number): string {
  const a = Math.abs(v);
  if (a >= 1e9) return `${grouped[1]!.format(v / 1e9)}G`;
  if (a >= 1e6) return `${grouped[1]!.format(v / 1e6)}M`;
  if (a >= 1e4) return `${grouped[0]!.format(v / 1e3)}k`;
  return formatValue(v);
}

export { formatKiB } from "../../probes/core/text";

export function formatCv(cv: number | null): string {
  return cv === null ? "—" : `${cv < 10 ? cv.toFixed(1) : Math.round(cv)} %`;
}
