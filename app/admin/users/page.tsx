import type { Metadata } from "next";
import { ActionForm } from "@/components/admin/action-form";
import { requirePageUser } from "@/lib/auth/page-guard";
import { listUsers } from "@/lib/server/users/list-users";
import { changeRoleAction, createUserAction } from "./actions";
import { revokeUserSessionsAction, setUserDisabledAction } from "./actions";

export const metadata: Metadata = { title: "Users" };
export const dynamic = "force-dynamic";

export default async function UsersPage() {
  const actor = await requirePageUser("/admin/users", "ADMIN");
  const users = await listUsers();
  return (
    <>
      <h1>Users</h1>
      <p className="muted">Viewers read hosts and runs; operators also register hosts, launch, cancel, import and share; admins also manage users and tokens.</p>
      <div className="table-wrap">
        <table className="data" data-testid="users-table">
          <thead>
            <tr>
              <th>Email</th>
              <th>Role</th>
              <th className="num">Active tokens</th>
              <th>Created (UTC)</th>
              <th>Access</th>
            </tr>
          </thead>
          <tbody>
            {users.map((u) => (
              <tr key={u.id}>
                <td>{u.email}</td>
                <td>
                  {/* Keyed by role: React resets a submitted form, so the select must remount with the saved role. */}
                  <form key={`${u.id}-${u.role}`} action={changeRoleAction} style={{ display: "flex", gap: 6 }}>
                    <input type="hidden" name="userId" value={u.id} />
                    <select name="role" defaultValue={u.role} aria-label={`Role of ${u.email}`} disabled={u.id === actor.userId}>
                      <option value="VIEWER">viewer</option>
                      <option value="OPERATOR">operator</option>
                      <option value="ADMIN">admin</option>
                    </select>
                    {u.id === actor.userId ? null : (
                      <button className="btn" type="submit">
                        Save
                      </button>
                    )}
                  </form>
                </td>
                <td className="num">{u._count.apiTokens}</td>
                <td>{u.createdAt.toISOString().slice(0, 16).replace("T", " ")}</td>
                <td>
                  {u.disabledAt ? <span data-testid="user-disabled">disabled </span> : null}
                  {u.id === actor.userId ? null : (
                    <span style={{ display: "inline-flex", gap: 6 }}>
                      <form action={setUserDisabledAction}>
                        <input type="hidden" name="userId" value={u.id} />
                        <input type="hidden" name="disabled" value={u.disabledAt ? "0" : "1"} />
                        <button className={u.disabledAt ? "btn" : "btn btn-danger"} type="submit" aria-label={`${u.disabledAt ? "Enable" : "Disable"} ${u.email}`}>
                          {u.disabledAt ? "Enable" : "Disable"}
                        </button>
                      </form>
                      <form action={revokeUserSessionsAction}>
                        <input type="hidden" name="userId" value={u.id} />
                        <button className="btn" type="submit" aria-label={`Sign out everywhere: ${u.email}`}>
                          Sign out everywhere
                        </button>
                      </form>
                    </span>
                  )}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      <h2>Add a user</h2>
      <ActionForm action={createUserAction} submit="Create user">
        <label>
          Email
          <input name="email" type="email" required autoComplete="off" />
        </label>
        <label>
          Password (at least 8 characters)
          <input name="password" type="password" required autoComplete="new-password" />
        </label>
        <label>
          Role
          <select name="role" defaultValue="VIEWER">
            <option value="VIEWER">viewer</option>
            <option value="OPERATOR">operator</option>
            <option value="ADMIN">admin</option>
          </select>
        </label>
      </ActionForm>
    </>
  );
}
