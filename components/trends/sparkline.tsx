// A series' recent values as a tiny inline line, and its trend in a word.
//
// Drawn here as plain SVG on the server rather than with Recharts: a host page lists many series
// and each sparkline is a handful of points with no axes, tooltip or resizing. Recharts would
// ship its client bundle and mount a ResponsiveContainer per row to draw what one <polyline>
// draws, and nothing would show until the browser ran it.
import type { Trend } from "./types";

const W = 96;
const H = 24;

/** The polyline's points, scaled into the box (a flat series sits in the middle). */
export function sparkPoints(values: number[], width = W, height = H): string {
  if (values.length === 0) return "";
  const min = Math.min(...values);
  const max = Math.max(...values);
  const step = values.length > 1 ? (width - 4) / (values.length - 1) : 0;
  return values
    .map((v, i) => {
      const x = 2 + i * step;
      const y = max === min ? height / 2 : 2 + (1 - (v - min) / (max - min)) * (height - 4);
      return `${x.toFixed(1)},${y.toFixed(1)}`;
    })
    .join(" ");
}

/**
 * The arrow follows the value, the word says whether that is good: a throughput that fell and a
 * latency that rose are both a regression, one ↘ and one ↗.
 */
export function trendText(trend: Trend, betterWhen: "higher" | "lower" | null): { arrow: string; word: string } {
  if (trend === "collecting") return { arrow: "…", word: "collecting" };
  if (trend === "steady") return { arrow: "→", word: "steady" };
  const up = (trend === "improvement") === (betterWhen !== "lower");
  return { arrow: up ? "↗" : "↘", word: trend };
}

export function TrendWord({ trend, betterWhen }: { trend: Trend; betterWhen: "higher" | "lower" | null }) {
  const t = trendText(trend, betterWhen);
  return (
    <span className={`trend trend-${trend}`} data-testid="trend" data-trend={trend}>
      <span aria-hidden="true">{t.arrow}</span> {t.word}
    </span>
  );
}

export function Sparkline({ values, trend, betterWhen, label }: { values: number[]; trend: Trend; betterWhen: "higher" | "lower" | null; label: string }) {
  const points = sparkPoints(values);
  const last = points.split(" ").at(-1)?.split(",");
  return (
    <span className="sparkline" data-testid="sparkline">
      {values.length > 0 ? (
        <svg width={W} height={H} viewBox={`0 0 ${W} ${H}`} role="img" aria-label={label}>
          <polyline points={points} fill="none" stroke="currentColor" strokeWidth={1.5} strokeLinejoin="round" />
          {last && last.length === 2 ? <circle cx={last[0]} cy={last[1]} r={2.2} fill="currentColor" /> : null}
        </svg>
      ) : null}{" "}
      <TrendWord trend={trend} betterWhen={betterWhen} />
    </span>
  );
}
