import type { Metadata } from "next";
import Link from "next/link";
import { requirePageUser } from "@/lib/auth/page-guard";
import { roleAtLeast } from "@/lib/auth/roles";
import { listShares } from "@/lib/server/comparisons/list-shares";
import { revokeShareAction } from "./actions";
import { minuteUtc } from "@/components/format-time";
import { DeleteButton } from "@/components/delete-button";

export const metadata: Metadata = { title: "Share links" };
export const dynamic = "force-dynamic";

const when = (d: Date | null) => minuteUtc(d);

export default async function SharesPage() {
  const actor = await requirePageUser("/settings/shares");
  const admin = roleAtLeast(actor.role, "ADMIN");
  // The list holds the actor's own links (everyone's for an admin): operators may delete each.
  const operator = roleAtLeast(actor.role, "OPERATOR");
  const shares = await listShares(actor);
  return (
    <>
      <h1>Share links</h1>
      <p className="muted">
        Anyone with a live link can read its comparison. Withdraw a link and it stops working at once (its JSON and CSV answer 410 Gone).
      </p>
      {shares.length === 0 ? (
        <div className="empty">No share links yet: share one from a comparison.</div>
      ) : (
        <div className="table-wrap">
          <table className="data" data-testid="shares-table">
            <thead>
              <tr>
                <th>Title</th>
                {admin ? <th>Shared by</th> : null}
                <th>Created (UTC)</th>
                <th>Expires</th>
                <th>State</th>
                {operator ? <th>Delete</th> : null}
              </tr>
            </thead>
            <tbody>
              {shares.map((s) => (
                <tr key={s.slug}>
                  <td>{s.state === "live" ? <Link href={`/c/${s.slug}`}>{s.title}</Link> : s.title}</td>
                  {admin ? <td>{s.sharedBy ?? "—"}</td> : null}
                  <td>{when(s.createdAt)}</td>
                  <td>{s.expiresAt ? when(s.expiresAt) : "never"}</td>
                  <td>
                    {s.state === "live" ? (
                      <form action={revokeShareAction}>
                        <input type="hidden" name="slug" value={s.slug} />
                        <button className="btn btn-danger" type="submit" aria-label={`Withdraw ${s.title}`}>
                          Withdraw
                        </button>
                      </form>
                    ) : (
                      `${s.state} ${s.state === "withdrawn" ? when(s.revokedAt) : ""}`
                    )}
                  </td>
                  {operator ? (
                    <td>
                      <DeleteButton url={`/api/comparisons/${s.slug}`} label="Delete" consequence={`Delete “${s.title}” for good? Its link will answer “not found”.`} />
                    </td>
                  ) : null}
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </>
  );
}
