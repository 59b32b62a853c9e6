import { getIronSession, type SessionOptions } from "iron-session";
import { cookies } from "next/headers";
import { ensureSessionSecret } from "../runtime/session-secret";
import { SESSION_COOKIE } from "./session-cookie";
import { SESSION_TTL_SECONDS } from "./session-store";

/** The sealed cookie carries only the id of a `sessions` row; the row decides whether it is live. */
export interface SessionData {
  sid?: string;
}

export { SESSION_COOKIE };

function options(): SessionOptions {
  return {
    cookieName: SESSION_COOKIE,
    password: ensureSessionSecret(),
    ttl: SESSION_TTL_SECONDS,
    cookieOptions: {
      httpOnly: true,
      sameSite: "lax",
      // Secure when served over HTTPS (set COOKIE_SECURE=1 behind a TLS-terminating proxy).
      secure: process.env.COOKIE_SECURE === "1",
      path: "/",
    },
  };
}

export async function getSession() {
  return getIronSession<SessionData>(await cookies(), options());
}
