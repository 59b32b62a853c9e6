import type { Metadata } from "next";
import Link from "next/link";
import { requirePageUser } from "@/lib/auth/page-guard";
import { listRuns, listRunsQuerySchema } from "@/lib/server/runs/list-runs";

export const metadata: Metadata = { title: "Runs" };
export const dynamic = "force-dynamic";

type Search = Record<string, string | string[] | undefined>;

function pick(sp: Search): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(sp)) if (typeof v === "string" && v !== "") out[k] = v;
  return out;
}

export default async function RunsPage({ searchParams }: { searchParams: Promise<Search> }) {
  await requirePageUser("/runs");
  const raw = pick(await searchParams);
  const parsed = listRunsQuerySchema.safeParse(raw);
  const q = parsed.success ? parsed.data : listRunsQuerySchema.parse({});
  const { runs, total, page, pageSize } = await listRuns(q);
  const pages = Math.max(1, Math.ceil(total / pageSize));
  const link = (p: number) => `/runs?${new URLSearchParams({ ...raw, page: String(p) })}`;
  return (
    <>
      <h1>Runs</h1>
      <p className="muted">
        Launched, imported and reference runs. <Link href="/import">Import output</Link>
      </p>
      {!parsed.success ? <div className="alert alert-warn">Some filters were invalid and were ignored.</div> : null}
      <form className="panel" style={{ display: "flex", gap: "0.8rem", flexWrap: "wrap", alignItems: "end" }}>
        <label>
          Probe
          <select name="probe" defaultValue={raw.probe ?? ""}>
            <option value="">any</option>
            {["iozone", "dd", "sar", "fio"].map((p) => (
              <option key={p}>{p}</option>
            ))}
          </select>
        </label>
        <label>
          Status
          <select name="status" defaultValue={raw.status ?? ""}>
            <option value="">any</option>
            {["QUEUED", "RUNNING", "SUCCEEDED", "FAILED", "CANCELLED", "LOST"].map((s) => (
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
            <option value="AGENT">launched</option>
            <option value="IMPORTED">imported</option>
            <option value="REFERENCE">reference</option>
          </select>
        </label>
        <button className="btn" type="submit">
          Filter
        </button>
      </form>
      {runs.length === 0 ? (
        <div className="empty">No runs match. Launch one from a host page or import existing output.</div>
      ) : (
        <div className="table-wrap">
          <table className="data" data-testid="runs-table">
            <thead>
              <tr>
                <th>Probe</th>
                <th>Host</th>
                <th>Status</th>
                <th>Origin</th>
                <th>File system</th>
                <th>Medium</th>
                <th>Created (UTC)</th>
              </tr>
            </thead>
            <tbody>
              {runs.map((r) => (
                <tr key={r.id}>
                  <td>
                    <Link href={`/runs/${r.id}`}>{r.probe}</Link>
                  </td>
                  <td>{r.hostName ?? "—"}</td>
                  <td>
                    <span className={`badge badge-${r.status}`}>{r.status.toLowerCase()}</span>
                  </td>
                  <td>{r.origin.toLowerCase()}</td>
                  <td>{r.fsType ?? "—"}</td>
                  <td>{r.medium ?? "—"}</td>
                  <td>{r.createdAt.slice(0, 16).replace("T", " ")}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      <p className="muted small">
        {total} runs · page {page} of {pages}
        {page > 1 ? (
          <>
            {" "}
            · <Link href={link(page - 1)}>previous</Link>
          </>
        ) : null}
        {page < pages ? (
          <>
            {" "}
            · <Link href={link(page + 1)}>next</Link>
          </>
        ) : null}
      </p>
    </>
  );
}
