import { getIronSession, type SessionOptions } from "iron-session";
import { cookies } from "next/headers";
import { ensureSessionSecret } from "../runtime/session-secret";

export interface SessionData {
  userId?: string;
}

export const SESSION_COOKIE = "probebook_session";

function options(): SessionOptions {
  return {
    cookieName: SESSION_COOKIE,
    password: ensureSessionSecret(),
    ttl: 60 * 60 * 24 * 14,
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
