import { getIronSession, type SessionOptions } from "iron-session";
import { cookies } from "next/headers";
import { pgPool } from "../pg-pool";
import { sessionSecretFromEnv, storedSessionSecret } from "../runtime/session-secret";
import { SESSION_COOKIE } from "./session-cookie";
import { SESSION_TTL_SECONDS } from "./session-store";

/** The sealed cookie carries only the id of a `sessions` row; the row decides whether it is live. */
export interface SessionData {
  sid?: string;
}

export { SESSION_COOKIE };

let stored: Promise<string> | null = null;

/**
 * SESSION_SECRET when set, else the key in the database's instance_secrets, which `npm start`
 * creates before the app starts; created here when the app was started some other way.
 */
function sessionSecret(): Promise<string> {
  const fromEnv = sessionSecretFromEnv();
  if (fromEnv) return Promise.resolve(fromEnv);
  stored ??= storedSessionSecret(pgPool()).then(
    (r) => r.secret,
    (err: unknown) => {
      stored = null; // the next request tries again (the database may have been restarting)
      throw err;
    },
  );
  return stored;
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
