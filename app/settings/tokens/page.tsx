import type { Metadata } from "next";
import { ActionForm } from "@/components/admin/action-form";
import { requirePageUser } from "@/lib/auth/page-guard";
import { roleAtLeast } from "@/lib/auth/roles";
import { listApiTokens } from "@/lib/server/tokens/list-api-tokens";
import { createTokenAction, revokeTokenAction } from "./actions";
import { minuteUtc } from "@/components/format-time";

export const metadata: Metadata = { title: "API tokens" };
export const dynamic = "force-dynamic";

const when = (d: Date | null) => minuteUtc(d);

export default async function TokensPage() {
  const actor = await requirePageUser("/settings/tokens");
  const admin = roleAtLeast(actor.role, "ADMIN");
  const tokens = await listApiTokens({ userId: admin ? null : actor.userId });
  return (
    <>
      <h1>API tokens</h1>
      <p className="muted">
        Send a token as <code>Authorization: Bearer &lt;token&gt;</code>. It acts with your role. Only a hash is stored: a token is shown
        once, when it is created. The routes are listed on <a href="/api-docs">HTTP API</a>; <code>npx probebook</code> wraps the common ones
        (see the README).
      </p>
      <ActionForm action={createTokenAction} submit="Create token">
        <label>
          Name
          <input name="name" required maxLength={100} placeholder="ci, grafana, laptop…" />
        </label>
        <label>
          Expires after (days, empty for never)
          <input name="expiresInDays" type="number" min={1} max={3650} inputMode="numeric" />
        </label>
      </ActionForm>
      <h2>{admin ? "All tokens" : "Your tokens"}</h2>
      {tokens.length === 0 ? (
        <div className="empty">No tokens yet.</div>
      ) : (
        <div className="table-wrap">
          <table className="data" data-testid="tokens-table">
            <thead>
              <tr>
                <th>Name</th>
                {admin ? <th>User</th> : null}
                <th>Starts with</th>
                <th>Created</th>
                <th>Last used</th>
                <th>Expires</th>
                <th>Status</th>
              </tr>
            </thead>
            <tbody>
              {tokens.map((t) => (
                <tr key={t.id}>
                  <td>{t.name}</td>
                  {admin ? <td>{t.user.email}</td> : null}
                  <td>
                    <code>{t.prefix}…</code>
                  </td>
                  <td>{when(t.createdAt)}</td>
                  <td>{when(t.lastUsedAt)}</td>
                  <td>{t.expiresAt ? when(t.expiresAt) : "never"}</td>
                  <td>
                    {t.revokedAt ? (
                      `revoked ${when(t.revokedAt)}`
                    ) : t.expiresAt && t.expiresAt.getTime() <= Date.now() ? (
                      "expired"
                    ) : (
                      <form action={revokeTokenAction}>
                        <input type="hidden" name="tokenId" value={t.id} />
                        <button className="btn btn-danger" type="submit" aria-label={`Revoke ${t.name}`}>
                          Revoke
                        </button>
                      </form>
                    )}
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
