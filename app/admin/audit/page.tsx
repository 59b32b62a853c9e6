import type { Metadata } from "next";
import { requirePageUser } from "@/lib/auth/page-guard";
import { AppError } from "@/lib/http/app-error";
import { AUDIT_ACTIONS, type AuditQuery } from "@/lib/api/schemas/audit";
import { listAudit, parseAuditQuery } from "@/lib/server/audit/list-audit";

export const metadata: Metadata = { title: "Audit log" };
export const dynamic = "force-dynamic";

type Search = Record<string, string | string[] | undefined>;

export default async function AuditPage({ searchParams }: { searchParams: Promise<Search> }) {
  await requirePageUser("/admin/audit", "ADMIN");
  const sp = await searchParams;
  let query: AuditQuery | null = null;
  let error: string | null = null;
  try {
    query = parseAuditQuery(sp);
  } catch (err) {
    if (!(err instanceof AppError)) throw err;
    error = err.message;
  }
  const rows = query ? await listAudit(query) : [];
  const value = (k: string) => (typeof sp[k] === "string" ? (sp[k] as string) : "");
  const exportQuery = new URLSearchParams(Object.entries(sp).filter((e): e is [string, string] => typeof e[1] === "string" && e[1] !== "")).toString();
  return (
    <>
      <h1>Audit log</h1>
      <p className="muted">Every change: who, what, when (UTC) and from which address. Newest first.</p>
      <form method="get" className="filters" style={{ display: "flex", flexWrap: "wrap", gap: 8, alignItems: "end" }}>
        <label>
          Action
          <select name="action" defaultValue={value("action")}>
            <option value="">any</option>
            {AUDIT_ACTIONS.map((a) => (
              <option key={a} value={a}>
                {a}
              </option>
            ))}
          </select>
        </label>
        <label>
          Actor email
          <input name="actor" defaultValue={value("actor")} />
        </label>
        <label>
          Target id
          <input name="target" defaultValue={value("target")} />
        </label>
        <label>
          Address
          <input name="ip" defaultValue={value("ip")} />
        </label>
        <label>
          From
          <input name="from" type="date" defaultValue={value("from")} />
        </label>
        <label>
          To
          <input name="to" type="date" defaultValue={value("to")} />
        </label>
        <button className="btn" type="submit">
          Filter
        </button>
        <a className="btn" href={`/api/admin/audit${exportQuery ? `?${exportQuery}` : ""}`} download="probebook-audit.json">
          Export JSON
        </a>
      </form>
      {error ? (
        <div role="alert" className="alert alert-error">
          {error}
        </div>
      ) : rows.length === 0 ? (
        <div className="empty">Nothing recorded matches.</div>
      ) : (
        <div className="table-wrap">
          <table className="data" data-testid="audit-table">
            <thead>
              <tr>
                <th>When (UTC)</th>
                <th>Who</th>
                <th>Action</th>
                <th>Target</th>
                <th>From</th>
                <th>Details</th>
              </tr>
            </thead>
            <tbody>
              {rows.map((r) => (
                <tr key={r.id}>
                  <td>{r.at.slice(0, 19).replace("T", " ")}</td>
                  <td>{r.actorEmail ?? "—"}</td>
                  <td>
                    <code>{r.action}</code>
                  </td>
                  <td>{r.targetType ? `${r.targetType} ${r.targetId ?? ""}` : "—"}</td>
                  <td>{r.ip ?? "—"}</td>
                  <td>
                    <code className="small">{JSON.stringify(r.details)}</code>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </>
  );
}
