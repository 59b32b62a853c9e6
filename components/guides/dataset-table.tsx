import type { Cell, Dataset } from "@/content/schema";
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

/** A dataset as an HTML table with its note and CSV / JSON downloads. */
export function DatasetTable({ dataset }: { dataset: Dataset }) {
  const numeric = new Set(dataset.columns.filter((c) => isNumericColumn(dataset, c.key)).map((c) => c.key));
  const scroll = dataset.rows.length > SCROLL_AFTER_ROWS;
  const table = (
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
