"use client";

// The runs list with checkboxes: the selection survives paging and filtering (session storage)
// and leads to /compare?runs=… in the order the runs were picked.
import Link from "next/link";
import { useEffect, useRef, useState } from "react";
import styles from "./runs.module.css";
import { formatValue } from "@/lib/compare/format";
import { RUN_ORIGIN_LABELS } from "@/lib/run-status";
import { runWhen } from "@/components/format-time";

export interface RunRowView {
  id: string;
  label: string;
  probe: string;
  hostName: string | null;
  hostRemoved?: boolean;
  tags?: string[];
  notes?: string | null;
  status: string;
  origin: string;
  fsType: string | null;
  medium: string | null;
  createdAt: string;
  repeatGroup: string | null;
  /** The result at a glance: the probe's first headline figure; null without a result. */
  headline?: { value: number; unit: string; noun: string } | null;
  /** The preset it was launched with; null for custom parameters. */
  preset?: string | null;
}

export interface SortHeader {
  key: string;
  label: string;
  /** Link that sorts by this column (toggling the order when it is the current one); absent = not sortable. */
  href?: string;
  sort?: "ascending" | "descending";
}

interface Picked {
  id: string;
  label: string;
  probe: string;
}

const STORAGE_KEY = "probebook:compare-selection";
const MAX = 30;

function load(): Picked[] {
  try {
    const v = JSON.parse(sessionStorage.getItem(STORAGE_KEY) ?? "[]") as unknown;
    return Array.isArray(v) ? (v.filter((p) => p && typeof p.id === "string" && typeof p.label === "string") as Picked[]) : [];
  } catch {
    return [];
  }
}

const ORIGIN: Record<string, string> = RUN_ORIGIN_LABELS;

export function RunsTable({ rows, headers }: { rows: RunRowView[]; headers: SortHeader[] }) {
  const [picked, setPicked] = useState<Picked[]>([]);
  const [loaded, setLoaded] = useState(false);
  const allRef = useRef<HTMLInputElement>(null);

  useEffect(() => {
    setPicked(load());
    setLoaded(true);
  }, []);
  useEffect(() => {
    if (loaded) sessionStorage.setItem(STORAGE_KEY, JSON.stringify(picked));
  }, [picked, loaded]);

  const isPicked = (id: string) => picked.some((p) => p.id === id);
  const onPage = rows.filter((r) => isPicked(r.id)).length;
  useEffect(() => {
    if (allRef.current) allRef.current.indeterminate = onPage > 0 && onPage < rows.length;
  }, [onPage, rows.length]);

  const toggle = (r: RunRowView) =>
    setPicked((p) => (p.some((x) => x.id === r.id) ? p.filter((x) => x.id !== r.id) : [...p, { id: r.id, label: r.label, probe: r.probe }]));
  const toggleAll = () =>
    setPicked((p) =>
      onPage === rows.length
        ? p.filter((x) => !rows.some((r) => r.id === x.id))
        : [...p, ...rows.filter((r) => !p.some((x) => x.id === r.id)).map((r) => ({ id: r.id, label: r.label, probe: r.probe }))],
    );
  const tooMany = picked.length > MAX;
  const compareHref = `/compare?runs=${picked.map((p) => p.id).join(",")}`;
  const repeatCount = new Map<string, number>();
  for (const r of rows) if (r.repeatGroup) repeatCount.set(r.repeatGroup, (repeatCount.get(r.repeatGroup) ?? 0) + 1);

  return (
    <>
      <div className="table-wrap">
        <table className="data" data-testid="runs-table">
          <thead>
            <tr>
              <th scope="col" className={styles.check}>
                <input ref={allRef} type="checkbox" checked={rows.length > 0 && onPage === rows.length} onChange={toggleAll} aria-label="Select every run on this page" />
              </th>
              {headers.map((h) => (
                <th key={h.key} scope="col" aria-sort={h.sort ?? (h.href ? "none" : undefined)}>
                  {h.href ? (
                    <Link href={h.href} className={styles.sortLink}>
                      {h.label}
                      <span aria-hidden="true" className={styles.sortMark}>
                        {h.sort === "ascending" ? "▲" : h.sort === "descending" ? "▼" : "↕"}
                      </span>
                    </Link>
                  ) : (
                    h.label
                  )}
                </th>
              ))}
            </tr>
          </thead>
          <tbody>
            {rows.map((r) => (
              <tr key={r.id} className={isPicked(r.id) ? styles.picked : undefined}>
                <td className={styles.check}>
                  <input type="checkbox" checked={isPicked(r.id)} onChange={() => toggle(r)} aria-label={`Select ${r.probe} run ${r.label}`} data-run-id={r.id} />
                </td>
                <td>
                  <Link href={`/runs/${r.id}`}>{r.probe}</Link>
                  {r.preset ? (
                    <span className="muted small" style={{ marginLeft: 6 }} title="Preset" data-testid="run-preset">
                      {r.preset}
                    </span>
                  ) : null}
                  {r.repeatGroup ? (
                    <span className="badge" style={{ marginLeft: 6 }} title="Launched as one of a set of repeats">
                      repeat{(repeatCount.get(r.repeatGroup) ?? 0) > 1 ? ` ×${repeatCount.get(r.repeatGroup)}` : ""}
                    </span>
                  ) : null}
                  {r.tags?.map((t) => (
                    <Link key={t} className="badge" href={`/runs?tag=${encodeURIComponent(t)}`} style={{ marginLeft: 6 }} data-testid="run-tag">
                      {t}
                    </Link>
                  ))}
                  {r.notes ? (
                    <div className="muted small" title={r.notes} data-testid="run-note">
                      {r.notes.length > 80 ? `${r.notes.slice(0, 79)}…` : r.notes}
                    </div>
                  ) : null}
                </td>
                <td className={styles.host}>
                  {r.hostName ?? "—"}
                  {r.hostRemoved ? <span className="muted small"> (removed host)</span> : null}
                </td>
                <td>
                  <span className={`badge badge-${r.status}`}>{r.status.toLowerCase()}</span>
                </td>
                <td className={styles.nowrap} data-testid="run-result" title={r.headline?.noun}>
                  {r.headline ? `${formatValue(r.headline.value)} ${r.headline.unit}` : "—"}
                </td>
                <td>{ORIGIN[r.origin] ?? r.origin.toLowerCase()}</td>
                <td>{r.fsType ?? "—"}</td>
                <td>{r.medium ?? "—"}</td>
                <td className={styles.nowrap}>{runWhen(r)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      {/* Sticky only with a selection: an empty bar would cover a phone's screen (and the export buttons) for nothing. */}
      <div className={picked.length > 0 ? `${styles.selectionBar} ${styles.selectionSticky}` : styles.selectionBar} data-testid="selection-bar" aria-live="polite">
        <span>
          <strong>{picked.length}</strong> selected{picked.length > 0 ? "" : " — tick runs to compare them (the selection is kept across pages and filters)"}
        </span>
        {picked.length > 0 ? (
          <ul className={styles.chips} aria-label="Selected runs">
            {picked.map((p) => (
              <li key={p.id}>
                <span>
                  {p.probe} · {p.label}
                </span>
                <button type="button" className={styles.chipX} onClick={() => setPicked((all) => all.filter((x) => x.id !== p.id))} aria-label={`Remove ${p.label} from the selection`}>
                  ×
                </button>
              </li>
            ))}
          </ul>
        ) : null}
        <span className={styles.barActions}>
          {tooMany ? <span className="field-error">At most {MAX} runs can be compared.</span> : null}
          {picked.length > 0 ? (
            <button type="button" className="btn" onClick={() => setPicked([])}>
              Clear
            </button>
          ) : null}
          {picked.length > 0 && !tooMany ? (
            <Link className="btn btn-primary" href={compareHref} data-testid="compare-selected">
              Compare selected
            </Link>
          ) : (
            <button type="button" className="btn btn-primary" disabled>
              Compare selected
            </button>
          )}
        </span>
      </div>
    </>
  );
}
