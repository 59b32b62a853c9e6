import type { Metadata } from "next";
import Link from "next/link";
import { ExportRuns } from "@/components/compare/export-runs";
import styles from "@/components/compare/runs.module.css";
import { RunsTable, type RunRowView, type SortHeader } from "@/components/compare/runs-table";
import { requirePageUser } from "@/lib/auth/page-guard";
import { roleAtLeast } from "@/lib/auth/roles";
import { labelRuns } from "@/lib/compare/label";
import { runFilterChoices } from "@/lib/server/comparisons/run-filters";
import { RUN_ORIGINS, RUN_ORIGIN_LABELS, RUN_STATUSES } from "@/lib/run-status";
import { listRunsQuerySchema } from "@/lib/api/schemas/runs";
import { listRuns } from "@/lib/server/runs/list-runs";
import { TOOL_IDS } from "@/probes/catalog";

export const metadata: Metadata = { title: "Runs" };
export const dynamic = "force-dynamic";

type Search = Record<string, string | string[] | undefined>;

const FILTER_KEYS = ["host", "hostId", "tag", "probe", "status", "origin", "fsType", "medium", "from", "to"] as const;
const FILTER_NAMES: Record<string, string> = { host: "host", hostId: "host", tag: "tag", probe: "probe", status: "status", origin: "origin", fsType: "file system", medium: "medium", from: "from", to: "to", sort: "sort", order: "order", page: "page", pageSize: "page size" };
const DATE_ONLY = /^\d{4}-\d{2}-\d{2}$/;

function pick(sp: Search): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(sp)) if (typeof v === "string" && v.trim() !== "") out[k] = v.trim();
  return out;
}

/** The list query: a date-only "to" includes that whole day; invalid parameters are dropped (and named). */
function listQuery(raw: Record<string, string>) {
  const input: Record<string, string> = { ...raw };
  if (input.to && DATE_ONLY.test(input.to)) input.to = `${input.to}T23:59:59.999Z`;
  const ignored: string[] = [];
  for (;;) {
    const parsed = listRunsQuerySchema.safeParse(input);
    if (parsed.success) return { q: parsed.data, input, ignored };
    const bad = [...new Set(parsed.error.issues.map((i) => String(i.path[0] ?? "")))].filter((k) => k in input);
    if (bad.length === 0) return { q: listRunsQuerySchema.parse({}), input: {}, ignored: Object.keys(raw) };
    for (const k of bad) {
      ignored.push(FILTER_NAMES[k] ?? k);
      delete input[k];
    }
  }
}

export default async function RunsPage({ searchParams }: { searchParams: Promise<Search> }) {
  const actor = await requirePageUser("/runs");
  // Launch and import are for operators and admins; a viewer would land on "Not allowed".
  const operator = roleAtLeast(actor.role, "OPERATOR");
  const raw = pick(await searchParams);
  const { q, input, ignored } = listQuery(raw);
  const [{ runs, total, page, pageSize }, choices] = await Promise.all([listRuns(q), runFilterChoices()]);
  const pages = Math.max(1, Math.ceil(total / pageSize));
  const filtered = FILTER_KEYS.some((k) => raw[k] !== undefined);
  const href = (over: Record<string, string | undefined>) => {
    const p = new URLSearchParams();
    for (const [k, v] of Object.entries({ ...raw, ...over })) if (v !== undefined && v !== "") p.set(k, v);
    const s = p.toString();
    return s ? `/runs?${s}` : "/runs";
  };
  const sortHeader = (key: string, label: string, sort?: "createdAt" | "probe" | "status" | "host"): SortHeader => {
    if (!sort) return { key, label };
    const current = q.sort === sort;
    const nextOrder = current ? (q.order === "asc" ? "desc" : "asc") : sort === "createdAt" ? "desc" : "asc";
    return { key, label, href: href({ sort, order: nextOrder, page: undefined }), sort: current ? (q.order === "asc" ? "ascending" : "descending") : undefined };
  };
  const headers = [
    sortHeader("probe", "Probe", "probe"),
    sortHeader("host", "Host", "host"),
    sortHeader("status", "Status", "status"),
    sortHeader("result", "Result"),
    sortHeader("origin", "Origin"),
    sortHeader("fsType", "File system"),
    sortHeader("medium", "Medium"),
    sortHeader("createdAt", "Created (UTC)", "createdAt"),
  ];
  const labels = labelRuns(
    runs.map((r) => ({ origin: r.origin, hostName: r.hostName, medium: r.medium, fsType: r.fsType, createdAt: r.createdAt, params: r.params && typeof r.params === "object" ? (r.params as Record<string, unknown>) : undefined })),
  );
  const rows: RunRowView[] = runs.map((r, i) => ({
    id: r.id,
    label: labels[i]!,
    probe: r.probe,
    hostName: r.hostName,
    hostRemoved: r.hostRemoved,
    tags: r.tags,
    notes: r.notes,
    status: r.status,
    origin: r.origin,
    fsType: r.fsType,
    medium: r.medium,
    createdAt: r.createdAt,
    repeatGroup: r.repeatGroup,
    headline: r.headline,
    preset: r.preset,
  }));
  const apiQuery = new URLSearchParams(Object.entries(input).filter(([k]) => k !== "page" && k !== "pageSize")).toString();
  const first = total === 0 ? 0 : (page - 1) * pageSize + 1;

  return (
    <>
      <h1>Runs</h1>
      <p className="muted">
        Launched, imported and reference runs. Tick runs to compare them side by side.{" "}
        {operator ? (
          <>
            <Link className="btn btn-primary" href="/runs/new" data-testid="runs-launch">
              Launch a probe
            </Link>{" "}
            <Link href="/import">Import output</Link>
          </>
        ) : null}
      </p>
      {ignored.length > 0 ? (
        <div className="alert alert-warn" role="alert">
          Ignored invalid filter{ignored.length > 1 ? "s" : ""}: {ignored.join(", ")}.
        </div>
      ) : null}
      <form className={`panel ${styles.filters}`} method="get" action="/runs" aria-label="Filter runs">
        <label>
          Host
          <input name="host" list="run-hosts" defaultValue={raw.host ?? ""} placeholder="any" size={16} />
          <datalist id="run-hosts">
            {choices.hosts.map((h) => (
              <option key={h} value={h} />
            ))}
          </datalist>
        </label>
        {raw.hostId ? <input type="hidden" name="hostId" value={raw.hostId} /> : null}
        <label>
          Tag
          <input name="tag" defaultValue={raw.tag ?? ""} placeholder="any" size={12} />
        </label>
        <label>
          Probe
          <select name="probe" defaultValue={raw.probe ?? ""}>
            <option value="">any</option>
            {TOOL_IDS.map((p) => (
              <option key={p}>{p}</option>
            ))}
          </select>
        </label>
        <label>
          Status
          <select name="status" defaultValue={raw.status ?? ""}>
            <option value="">any</option>
            {RUN_STATUSES.map((s) => (
              <option key={s} value={s}>
                {s.toLowerCase()}
              </option>
            ))}
          </select>
        </label>
        <label>
          Origin
          <select name="origin" defaultValue={raw.origin ?? ""}>
            <option value="">any</option>
            {RUN_ORIGINS.map((o) => (
              <option key={o} value={o}>
                {RUN_ORIGIN_LABELS[o]}
              </option>
            ))}
          </select>
        </label>
        <label>
          File system
          <select name="fsType" defaultValue={raw.fsType ?? ""}>
            <option value="">any</option>
            {[...new Set([...choices.fsTypes, ...(raw.fsType ? [raw.fsType] : [])])].map((f) => (
              <option key={f}>{f}</option>
            ))}
          </select>
        </label>
        <label>
          Medium
          <select name="medium" defaultValue={raw.medium ?? ""}>
            <option value="">any</option>
            {["memory", "ssd", "disk", "unknown"].map((m) => (
              <option key={m}>{m}</option>
            ))}
          </select>
        </label>
        <label>
          From
          <input type="date" name="from" defaultValue={raw.from && DATE_ONLY.test(raw.from) ? raw.from : ""} />
        </label>
        <label>
          To
          <input type="date" name="to" defaultValue={raw.to && DATE_ONLY.test(raw.to) ? raw.to : ""} />
        </label>
        <label>
          Per page
          <select name="pageSize" defaultValue={String(pageSize)}>
            {[25, 50, 100, 200].map((n) => (
              <option key={n}>{n}</option>
            ))}
          </select>
        </label>
        {raw.sort ? <input type="hidden" name="sort" value={raw.sort} /> : null}
        {raw.order ? <input type="hidden" name="order" value={raw.order} /> : null}
        <button className="btn btn-primary" type="submit">
          Apply
        </button>
        {filtered ? (
          <Link className="btn" href="/runs">
            Reset
          </Link>
        ) : null}
      </form>
      <div className={styles.pager}>
        <span>
          {total === 0 ? "No runs" : `Runs ${first}–${first + runs.length - 1} of ${total}`}
          {filtered ? " matching the filters" : ""}
        </span>
        <span style={{ flex: 1 }} />
        <ExportRuns query={apiQuery} total={total} />
      </div>
      {runs.length === 0 ? (
        <div className="empty" data-testid="runs-empty">
          {filtered ? (
            <>
              No runs match these filters. <Link href="/runs">Reset the filters</Link>.
            </>
          ) : (
            <>
              No runs yet. Launch one from a <Link href="/hosts">host</Link> page or <Link href="/import">import</Link> existing output.
            </>
          )}
        </div>
      ) : (
        <RunsTable rows={rows} headers={headers} />
      )}
      {pages > 1 ? (
        <nav className={styles.pager} aria-label="Pages">
          {page > 1 ? <Link href={href({ page: "1" })}>« first</Link> : <span className="muted">« first</span>}
          {page > 1 ? (
            <Link href={href({ page: String(page - 1) })} rel="prev">
              ‹ previous
            </Link>
          ) : (
            <span className="muted">‹ previous</span>
          )}
          <span aria-current="page">
            page {page} of {pages}
          </span>
          {page < pages ? (
            <Link href={href({ page: String(page + 1) })} rel="next">
              next ›
            </Link>
          ) : (
            <span className="muted">next ›</span>
          )}
          {page < pages ? <Link href={href({ page: String(pages) })}>last »</Link> : <span className="muted">last »</span>}
        </nav>
      ) : null}
    </>
  );
}
