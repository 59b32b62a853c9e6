import type { Metadata } from "next";
import Link from "next/link";
import { currentActor } from "@/lib/auth/actor";
import { revokeOwnSessionAction, signOutAction, signOutEverywhereAction } from "./actions";
import { listUserSessions } from "@/lib/auth/session-store";
import { minuteUtc } from "@/components/format-time";

export const metadata: Metadata = { title: "Sign out" };

export default async function SignOutPage() {
  const actor = await currentActor().catch(() => null);
  if (!actor) {
    return (
      <>
        <h1>Signed out</h1>
        <p className="muted">
          You are not signed in. <Link href="/sign-in">Sign in</Link>
        </p>
      </>
    );
  }
  return (
    <>
      <h1>Sign out</h1>
      <p className="muted">You are signed in as {actor.email}.</p>
      <form action={signOutAction}>
        <button className="btn" type="submit">
          Sign out
        </button>
      </form>
      <h2>Your sessions</h2>
      <SessionList userId={actor.userId} current={actor.sessionId} />
      <p className="muted">Signed in on another computer, or worried someone copied your session? This ends every session of yours, this one too.</p>
      <form action={signOutEverywhereAction}>
        <button className="btn btn-danger" type="submit">
          Sign out everywhere
        </button>
      </form>
    </>
  );
}

const when = (d: Date | null) => minuteUtc(d);

async function SessionList({ userId, current }: { userId: string; current?: string }) {
  const sessions = await listUserSessions(userId);
  return (
    <div className="table-wrap">
      <table className="data" data-testid="sessions-table">
        <thead>
          <tr>
            <th>Signed in (UTC)</th>
            <th>Last seen</th>
            <th>From</th>
            <th>Browser</th>
            <th />
          </tr>
        </thead>
        <tbody>
          {sessions.map((s) => (
            <tr key={s.id}>
              <td>{when(s.createdAt)}</td>
              <td>{when(s.lastSeenAt)}</td>
              <td>{s.ip ?? "—"}</td>
              <td className="small">{s.userAgent?.slice(0, 80) ?? "—"}</td>
              <td>
                {s.id === current ? (
                  "this browser"
                ) : (
                  <form action={revokeOwnSessionAction}>
                    <input type="hidden" name="sessionId" value={s.id} />
                    <button className="btn" type="submit">
                      End
                    </button>
                  </form>
                )}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
