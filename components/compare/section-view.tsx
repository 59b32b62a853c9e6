"use client";

// One probe's part of a comparison: legend (click to hide a series), group selector (e.g.
// file sizes), the charts, and the value table with Δ % against a chosen baseline series.
import { useId, useMemo, useState } from "react";
import { formatCv, formatValue } from "@/lib/compare/format";
import { legendText } from "@/lib/compare/label";
import { CV_WARN_PERCENT, deltaPercent, formatDelta } from "@/lib/compare/stats";
import type { Better, SectionModel, SeriesInfo, Stat } from "@/lib/compare/types";
import { CompareChart } from "./compare-chart";
import styles from "./compare.module.css";
import { TableScroll } from "@/components/table-scroll";
import { Swatch } from "./swatch";

function deltaClass(d: number | null, better: Better): string {
  if (d === null || better === null || Math.abs(d) < 0.05) return "";
  return (d > 0) === (better === "higher") ? styles.better! : styles.worse!;
}

function ValueCell({ stat, base, better, isBase }: { stat: Stat | undefined; base: Stat | undefined; better: Better; isBase: boolean }) {
  if (!stat) return <td className={`num ${isBase ? styles.base : ""}`}>—</td>;
  const d = isBase ? null : deltaPercent(stat.median, base?.median);
  return (
    <td className={`num ${isBase ? styles.base : ""}`}>
      {formatValue(stat.median)}
      {stat.n > 1 ? (
        <span className={`${styles.sub} ${stat.cv !== null && stat.cv > CV_WARN_PERCENT ? styles.cvHigh : ""}`} title={`median of ${stat.n} runs; min ${formatValue(stat.min)}, max ${formatValue(stat.max)}`}>
          {formatValue(stat.min)}–{formatValue(stat.max)} · CV {formatCv(stat.cv)}
        </span>
      ) : null}
      {!isBase && base ? <span className={`${styles.sub} ${deltaClass(d, better)}`}>{formatDelta(d)}</span> : null}
    </td>
  );
}

export function SectionView({ section, series }: { section: SectionModel; series: SeriesInfo[] }) {
  const ids = useId();
  const own = useMemo(() => series.filter((s) => section.seriesKeys.includes(s.key)), [series, section.seriesKeys]);
  const [group, setGroup] = useState(section.defaultGroup);
  const [chosenBaseline, setBaseline] = useState(own[0]?.key ?? "");
  const [hidden, setHidden] = useState<ReadonlySet<string>>(new Set());
  const [logY, setLogY] = useState(false);
  // The probe says whether a log axis fits (time series with many zeros do not).
  const canLog = section.logY;
  const visible = useMemo(() => own.filter((s) => !hidden.has(s.key)), [own, hidden]);
  const charts = section.charts.filter((c) => c.group === undefined || c.group === group);
  const rows = section.table.rows.filter((r) => r.group === undefined || r.group === group);
  // The baseline is a series drawn here: one without values in this file size would make every Δ % empty.
  const drawn = own.filter((s) => charts.some((c) => c.seriesKeys.includes(s.key)));
  const baseline = drawn.some((s) => s.key === chosenBaseline) ? chosenBaseline : (drawn[0]?.key ?? chosenBaseline);
  const toggle = (key: string) =>
    setHidden((h) => {
      const next = new Set(h);
      if (next.has(key)) next.delete(key);
      else next.add(key);
      return next;
    });
  const groupLabel = section.groups?.find((g) => g.id === group)?.label;
  // A big table (91 rows × 20 series for a full auto table) is built when opened, so it does not delay the charts.
  const [tableOpen, setTableOpen] = useState(() => section.table.rows.filter((r) => r.group === undefined || r.group === section.defaultGroup).length * own.length <= 400);

  return (
    <section className={styles.section} aria-labelledby={`${ids}-h`} data-testid={`compare-section-${section.probe}`}>
      <div className={styles.sectionHead}>
        <h2 id={`${ids}-h`}>{section.title}</h2>
        <div className={styles.controls}>
          {section.groups && section.groups.length > 1 ? (
            <label>
              File size
              <select value={group} onChange={(e) => setGroup(e.target.value)} data-testid="file-size-select">
                {section.groups.map((g) => (
                  <option key={g.id} value={g.id}>
                    {g.label}
                  </option>
                ))}
              </select>
            </label>
          ) : groupLabel ? (
            <span className="muted small">{groupLabel}</span>
          ) : null}
          {canLog ? (
            <label className={styles.inline}>
              <input type="checkbox" checked={logY} onChange={(e) => setLogY(e.target.checked)} />
              Log y axis
            </label>
          ) : null}
          {own.length > 1 ? (
            <label>
              Baseline for Δ %
              <select value={baseline} onChange={(e) => setBaseline(e.target.value)} data-testid="baseline-select">
                {(drawn.length > 0 ? drawn : own).map((s) => (
                  <option key={s.key} value={s.key}>
                    {s.label}
                  </option>
                ))}
              </select>
            </label>
          ) : null}
        </div>
      </div>
      {section.notes.length ? (
        <ul className={styles.notes}>
          {section.notes.map((n) => (
            <li key={n}>{n}</li>
          ))}
        </ul>
      ) : null}
      <ul className={styles.legend} aria-label="Series (press to hide or show)">
        {own.map((s) => (
          <li key={s.key}>
            <button type="button" className={styles.legendItem} aria-pressed={!hidden.has(s.key)} onClick={() => toggle(s.key)} title={s.runLabels.length > 1 ? `Runs: ${s.runLabels.join("; ")}` : undefined}>
              <Swatch index={s.index} />
              <span className={styles.legendLabel} title={s.label} data-testid="legend-label">
                {legendText(s.label)}
              </span>
              {s.maxCv !== null && s.maxCv > CV_WARN_PERCENT ? <span className={styles.cv}>CV up to {formatCv(s.maxCv)}</span> : null}
            </button>
          </li>
        ))}
      </ul>
      {visible.length === 0 ? (
        <div className="empty">All series are hidden: press one in the legend to show it.</div>
      ) : charts.length === 0 ? (
        <div className="empty">No chartable figures in these runs.</div>
      ) : (
        <div className={styles.grid}>
          {charts.map((c) => (
            <CompareChart key={c.id} chart={c} series={visible} logY={logY} />
          ))}
        </div>
      )}
      <details open={tableOpen} onToggle={(e) => setTableOpen(e.currentTarget.open)}>
        <summary>
          Values{groupLabel && section.groups && section.groups.length > 1 ? ` (${groupLabel})` : ""} · {rows.length} rows
        </summary>
        {tableOpen ? (
          <TableScroll className={styles.tableWrap} label={`Values of ${section.title}`} testId={`values-scroll-${section.probe}`}>
            <table className={styles.values} data-testid={`values-${section.probe}`}>
              <caption className="muted small" style={{ textAlign: "left", padding: "0.4rem 0.6rem" }}>
                {section.table.caption}. Under each value: min–max and coefficient of variation of folded repeats, then Δ % against the baseline
                (green is better, red worse, where direction is clear).
              </caption>
              <thead>
                <tr>
                  <th className={styles.stick} scope="col">
                    metric
                  </th>
                  <th scope="col">detail</th>
                  <th scope="col">unit</th>
                  {visible.map((s) => (
                    <th key={s.key} scope="col" className={s.key === baseline ? styles.base : undefined}>
                      <span className={styles.seriesHead}>
                        <Swatch index={s.index} />
                        {s.label}
                      </span>
                      {s.key === baseline ? <span className={styles.sub}>baseline</span> : null}
                    </th>
                  ))}
                </tr>
              </thead>
              <tbody>
                {rows.map((r) => (
                  <tr key={r.key}>
                    <th scope="row" className={styles.stick}>
                      {r.metric}
                    </th>
                    <td>{r.dims}</td>
                    <td>{r.unit}</td>
                    {visible.map((s) => (
                      <ValueCell key={s.key} stat={r.cells[s.key]} base={r.cells[baseline]} better={r.better} isBase={s.key === baseline} />
                    ))}
                  </tr>
                ))}
              </tbody>
            </table>
          </TableScroll>
        ) : null}
      </details>
    </section>
  );
}
