import type { Cell, Dataset, DatasetPivot } from "@/content/schema";
import { labelWithUnit } from "@/lib/guides/chart-data";
import { downloadFileName, downloadHref } from "@/lib/guides/dataset-export";
import { formatNumber } from "@/lib/guides/format";
import styles from "./guides.module.css";

/** Tables longer than this get a scroll box so a 273-row table does not bury the prose after it. */
const SCROLL_AFTER_ROWS = 20;

function isNumericColumn(dataset: Dataset, key: string): boolean {
  const values = dataset.rows.map((r) => r[key]).filter((v) => v !== null && v !== undefined);
  return values.length > 0 && values.every((v) => typeof v === "number");
}

function CellContent({ value }: { value: Cell | undefined }) {
  if (value === null || value === undefined) {
    return <span className="muted" title="no value">—</span>;
  }
  if (typeof value === "number") return <>{formatNumber(value)}</>;
  if (typeof value === "boolean") return <>{value ? "yes" : "no"}</>;
  return <>{value}</>;
}

function columnHeading(dataset: Dataset, key: string): string {
  const c = dataset.columns.find((col) => col.key === key);
  return labelWithUnit(c?.label ?? key, c?.unit ?? dataset.units[key] ?? null);
}

/**
 * The dataset as a grid: one row per `pivot.row` value (one per `pivot.group` value beneath it),
 * one column per `pivot.column` value. 273 benchmark cells read as 21 rows × 13 operations.
 */
function PivotTable({ dataset, pivot }: { dataset: Dataset; pivot: DatasetPivot }) {
  const text = (v: Cell | undefined) => String(v ?? "");
  const distinct = (key: string) => [...new Map(dataset.rows.map((r) => [text(r[key]), r[key]])).entries()];
  const rowValues = distinct(pivot.row);
  const groupValues = pivot.group ? distinct(pivot.group) : [["", null] as [string, Cell]];
  const columnValues = distinct(pivot.column);
  const cells = new Map<string, Cell>();
  for (const r of dataset.rows) cells.set([text(r[pivot.row]), pivot.group ? text(r[pivot.group]) : "", text(r[pivot.column])].join("\u0000"), r[pivot.value] ?? null);
  const unit = dataset.columns.find((c) => c.key === pivot.value)?.unit ?? dataset.units[pivot.value];
  return (
    <table className={`data ${styles.pivot}`}>
      <caption className={styles.tableCaption}>
        {dataset.title}
        {unit ? ` (${unit})` : ""}: {columnHeading(dataset, pivot.row).toLowerCase()} × {columnHeading(dataset, pivot.column).toLowerCase()}
      </caption>
      <thead>
        <tr>
          <th scope="col">{columnHeading(dataset, pivot.row)}</th>
          {pivot.group && <th scope="col">{columnHeading(dataset, pivot.group)}</th>}
          {columnValues.map(([k, v]) => (
            <th key={k} scope="col" className="num">
              <CellContent value={v} />
            </th>
          ))}
        </tr>
      </thead>
      <tbody>
        {rowValues.flatMap(([rk, rv]) =>
          groupValues.map(([gk, gv], gi) => (
            <tr key={`${rk}|${gk}`} className={gi === 0 ? styles.pivotFirst : undefined}>
              {gi === 0 && (
                <th scope="rowgroup" rowSpan={groupValues.length}>
                  <CellContent value={rv} />
                </th>
              )}
              {pivot.group && (
                <th scope="row">
                  <CellContent value={gv} />
                </th>
              )}
              {columnValues.map(([ck]) => (
                <td key={ck} className="num">
                  <CellContent value={cells.get([rk, gk, ck].join("\u0000"))} />
                </td>
              ))}
            </tr>
          )),
        )}
      </tbody>
    </table>
  );
}

/** A dataset as an HTML table with its note and CSV / JSON downloads. */
export function DatasetTable({ dataset }: { dataset: Dataset }) {
  const numeric = new Set(dataset.columns.filter((c) => isNumericColumn(dataset, c.key)).map((c) => c.key));
  const scroll = !dataset.pivot && dataset.rows.length > SCROLL_AFTER_ROWS;
  const table = dataset.pivot ? <PivotTable dataset={dataset} pivot={dataset.pivot} /> : (
    <table className="data">
      <caption className={styles.tableCaption}>{dataset.title}</caption>
      <thead>
        <tr>
          {dataset.columns.map((c) => (
            <th key={c.key} scope="col" className={numeric.has(c.key) ? "num" : undefined} title={c.description}>
              {labelWithUnit(c.label, c.unit ?? dataset.units[c.key] ?? null)}
            </th>
          ))}
        </tr>
      </thead>
      <tbody>
        {dataset.rows.map((row, i) => (
          <tr key={i}>
            {dataset.columns.map((c) => (
              <td key={c.key} className={numeric.has(c.key) ? "num" : undefined}>
                <CellContent value={row[c.key]} />
              </td>
            ))}
          </tr>
        ))}
      </tbody>
    </table>
  );
  return (
    <div className={styles.datasetTable} data-testid="dataset-table">
      {scroll ? (
        // A scrollable region must be focusable so keyboard users can scroll it.
        <div
          className={`table-wrap ${styles.scrollBox}`}
          tabIndex={0}
          role="region"
          aria-label={`${dataset.title} (${dataset.rows.length} rows, scrollable)`}
        >
          {table}
        </div>
      ) : (
        <div className="table-wrap">{table}</div>
      )}
      {dataset.note && <p className={styles.tableNote}>{dataset.note}</p>}
      <p className={styles.downloads}>
        <span className="muted">Download the data:</span>{" "}
        <a href={downloadHref(dataset.id, "csv")} download={downloadFileName(dataset.id, "csv")}>
          Download CSV
        </a>
        {" · "}
        <a href={downloadHref(dataset.id, "json")} download={downloadFileName(dataset.id, "json")}>
          Download JSON
        </a>
        <span className="muted"> · source: {dataset.source}</span>
      </p>
    </div>
  );
}
