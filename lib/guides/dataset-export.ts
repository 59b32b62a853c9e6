/**
 * Downloads of a dataset: CSV (RFC 4180, one column per declared column, keyed by column key so
 * scripts can rely on the names) and JSON (the dataset file as stored, validated).
 */
import type { Cell, Dataset } from "@/content/schema";

function csvField(value: Cell | undefined): string {
  if (value === null || value === undefined) return "";
  const s = String(value);
  return /[",\r\n]/.test(s) || /^\s|\s$/.test(s) ? `"${s.replace(/"/g, '""')}"` : s;
}

export function datasetToCsv(dataset: Dataset): string {
  const keys = dataset.columns.map((c) => c.key);
  const lines = [keys.map(csvField).join(",")];
  for (const row of dataset.rows) lines.push(keys.map((k) => csvField(row[k])).join(","));
  return `${lines.join("\r\n")}\r\n`;
}

export function datasetToJson(dataset: Dataset): string {
  return `${JSON.stringify(dataset, null, 2)}\n`;
}

export type DownloadFormat = "csv" | "json";

/** File name of a download, also the last URL segment: "<dataset id>.csv". */
export function downloadFileName(id: string, format: DownloadFormat): string {
  return `${id}.${format}`;
}

export function downloadHref(id: string, format: DownloadFormat): string {
  return `/guides/data/${downloadFileName(id, format)}`;
}

/** "<dataset id>.csv" → { id, format }; null for anything else. */
export function parseDownloadFileName(file: string): { id: string; format: DownloadFormat } | null {
  const m = /^([a-z0-9]+(?:-[a-z0-9]+)*)\.(csv|json)$/.exec(file);
  return m ? { id: m[1]!, format: m[2] as DownloadFormat } : null;
}
