import type { AgentApi } from "./agent-api";
import { credentialPath, CredentialError, ensureCredential } from "./credential-store";
import { HttpError, type AgentHttpClient } from "./http-client";
import type { Logger } from "./logger";
import type { Capabilities } from "../protocol/schemas";

/** 0 done or stopped, 1 unexpected failure, 2 configuration to fix, 3 credential refused or revoked, 4 version refused. */
export interface AgentExit {
  code: 0 | 1 | 2 | 3 | 4;
  message: string;
}

/** HTTP 426: the server does not work with this agent's version (or protocol version). */
export const isIncompatible = (err: unknown): err is HttpError => err instanceof HttpError && err.status === 426;

/**
 * The exit for a refused version: the server's message names both versions and how to upgrade,
 * the agent adds the installer's line for its own server; a restart cannot help.
 */
export function incompatibleExit(err: HttpError, server: string): AgentExit {
  return { code: 4, message: `${server} refused this agent's version: ${err.message} On this host: curl -fsSL ${server}/agent/install.sh | sudo sh -s -- --upgrade` };
}

/** The one message for a refused credential, wherever the 401/403 came from. */
export function revokedExit(err: HttpError, stateDir: string): AgentExit {
  return {
    code: 3,
    message:
      `the server refused this agent's credential (HTTP ${err.status}: ${err.message}). The host was probably revoked ` +
      `in the dashboard: delete ${credentialPath(stateDir)} and register again with a new --token`,
  };
}

export interface SignInOptions {
  server: string;
  token: string | null;
  stateDir: string;
  api: AgentApi;
  http: AgentHttpClient;
  log: Logger;
  profile: Record<string, unknown>;
  capabilities: Capabilities;
  signal: AbortSignal;
}

/**
 * Registers with the token (first start) or loads the stored credential, and hands it to the
 * HTTP client. A known host reports its profile again: kernel, disks or tools may have changed.
 * Resolves with the host id, or with the exit the agent must take.
 */
export async function signIn(o: SignInOptions): Promise<{ hostId: string } | { exit: AgentExit }> {
  let registering = false;
  try {
    const { credential, registered } = await ensureCredential({
      stateDir: o.stateDir,
      server: o.server,
      token: o.token,
      register: (registrationToken) => {
        registering = true;
        return o.api.register({ registrationToken, profile: o.profile, capabilities: o.capabilities }, o.signal);
      },
      log: (m) => o.log.info(m),
    });
    registering = false;
    o.http.setCredential(credential.credential);
    o.log.info(`${registered ? "registered" : "signed in"} as host "${credential.hostName}" (${credential.hostId})`);
    if (!registered) {
      await o.api.heartbeat({ runningRunIds: [], profile: o.profile, capabilities: o.capabilities }, o.signal).catch((err: unknown) => {
        if (err instanceof HttpError && err.kind === "revoked") throw err;
        if (isIncompatible(err)) throw err;
        if (!o.signal.aborted) o.log.warn(`could not send the host profile: ${err instanceof Error ? err.message : String(err)}`);
      });
    }
    return { hostId: credential.hostId };
  } catch (err) {
    if (o.signal.aborted) return { exit: { code: 0, message: "stopped" } };
    if (err instanceof CredentialError) return { exit: { code: 2, message: err.message } };
    if (isIncompatible(err)) return { exit: incompatibleExit(err, o.server) };
    if (err instanceof HttpError && err.kind === "revoked") {
      if (!registering) return { exit: revokedExit(err, o.stateDir) };
      return { exit: { code: 3, message: `the server refused the registration token (${err.message}): create a new one in the dashboard` } };
    }
    if (err instanceof HttpError) return { exit: { code: 1, message: `registration failed: ${err.message}` } };
    throw err;
  }
}
