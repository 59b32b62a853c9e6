"use client";

import { useState } from "react";
import { toCsv } from "@/lib/compare/csv";
import { labelRuns } from "@/lib/compare/label";
import type { RunOriginName } from "@/lib/compare/types";
import styles from "./runs.module.css";

interface ApiRun {
  id: string;
  hostName: string | null;
  probe: string;
  status: string;
  origin: RunOriginName;
  fsType: string | null;
  medium: string | null;
  createdAt: string;
  startedAt: string | null;
  finishedAt: string | null;
  durationMs: number | null;
  exitCode: number | null;
  repeatGroup: string | null;
  notes: string | null;
  params?: Record<string, unknown>;
}

const PAGE = 200;
const MAX_PAGES = 50;

function download(name: string, type: string, text: string) {
  const url = URL.createObjectURL(new Blob([text], { type }));
  const a = document.createElement("a");
  a.href = url;
  a.download = name;
  document.body.append(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}

/** Downloads every run matching the list's filters (all pages) as CSV (one row per run) or JSON. */
export function ExportRuns({ query, total }: { query: string; total: number }) {
  const [busy, setBusy] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);

  async function run(format: "csv" | "json") {
    setError(null);
    const runs: ApiRun[] = [];
    try {
      for (let page = 1; page <= MAX_PAGES; page++) {
        setBusy(`Fetching ${Math.min(runs.length + PAGE, total)} of ${total}…`);
        const params = new URLSearchParams(query);
        params.set("page", String(page));
        params.set("pageSize", String(PAGE));
        const res = await fetch(`/api/runs?${params}`);
        const body = (await res.json()) as { runs?: ApiRun[]; total?: number; error?: string };
        if (!res.ok || !body.runs) throw new Error(body.error ?? `The server answered ${res.status}.`);
        runs.push(...body.runs);
        if (body.runs.length < PAGE || runs.length >= (body.total ?? 0)) break;
      }
      const stamp = new Date().toISOString();
      const name = `probebook-runs-${stamp.slice(0, 10)}`;
      if (format === "json") {
        download(`${name}.json`, "application/json", JSON.stringify({ exportedAt: stamp, filters: Object.fromEntries(new URLSearchParams(query)), total: runs.length, runs }, null, 2));
      } else {
        const labels = labelRuns(runs);
        const header = ["id", "label", "probe", "host", "status", "origin", "fs_type", "medium", "created_at", "started_at", "finished_at", "duration_ms", "exit_code", "repeat_group", "notes"];
        const rows = runs.map((r, i) => [r.id, labels[i], r.probe, r.hostName, r.status, r.origin, r.fsType, r.medium, r.createdAt, r.startedAt, r.finishedAt, r.durationMs, r.exitCode, r.repeatGroup, r.notes]);
        download(`${name}.csv`, "text/csv;charset=utf-8", toCsv(header, rows));
      }
      if (runs.length < total) setError(`Exported the first ${runs.length} of ${total} runs; narrow the filters for the rest.`);
    } catch (err) {
      setError(`Export failed: ${err instanceof Error ? err.message : String(err)}`);
    } finally {
      setBusy(null);
    }
  }

  return (
    <span className={styles.exportBar}>
      <span className="small muted">Export the {total} filtered runs:</span>
      <button type="button" className="btn" disabled={busy !== null || total === 0} onClick={() => void run("csv")}>
        CSV
      </button>
      <button type="button" className="btn" disabled={busy !== null || total === 0} onClick={() => void run("json")}>
        JSON
      </button>
      {busy ? (
        <span className="small muted" role="status">
          {busy}
        </span>
      ) : null}
      {error ? (
        <span className="field-error" role="alert">
          {error}
        </span>
      ) : null}
    </span>
  );
}
