import { getIronSession, type SessionOptions } from "iron-session";
import { cookies } from "next/headers";
import { pgPool } from "../pg-pool";
import { SESSION_SECRET_MIN_LENGTH, SESSION_SECRET_NAME, sessionSecretFromEnv } from "../runtime/session-secret";
import { SESSION_COOKIE } from "./session-cookie";
import { SESSION_TTL_SECONDS } from "./session-store";

/** The sealed cookie carries only the id of a `sessions` row; the row decides whether it is live. */
export interface SessionData {
  sid?: string;
}

export { SESSION_COOKIE };

let stored: string | null = null;

/**
 * SESSION_SECRET (the launcher sets it from the database when the operator did not), else the key
 * in the database's instance_secrets, which `npm start` creates before the app starts.
 */
async function sessionSecret(): Promise<string> {
  const fromEnv = sessionSecretFromEnv();
  if (fromEnv) return fromEnv;
  if (stored) return stored;
  const r = await pgPool().query<{ value: string }>("SELECT value FROM instance_secrets WHERE name = $1", [SESSION_SECRET_NAME]);
  const value = r.rows[0]?.value;
  if (!value || value.length < SESSION_SECRET_MIN_LENGTH) {
    throw new Error("no session secret: set SESSION_SECRET, or start the app with `npm start`, which stores one in the database");
  }
  stored = value;
  return value;
}

async function options(): Promise<SessionOptions> {
  return {
    cookieName: SESSION_COOKIE,
    password: await sessionSecret(),
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
  return getIronSession<SessionData>(await cookies(), await options());
}
