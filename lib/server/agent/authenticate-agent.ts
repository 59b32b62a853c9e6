import { headers } from "next/headers";
import { hashSecret } from "../../auth/secret-token";
import { db } from "../../db";
import { AppError } from "../../http/app-error";
import { requireBearer } from "../../http/bearer";
import { pgPool } from "../../pg-pool";
import { instance } from "../../instance/instance";
import { unknownCredential } from "./unknown-credential";

export interface AgentHost {
  id: string;
  name: string;
}

/** The agent credential in `Authorization: Bearer`; 401 when there is none. */
export async function agentCredential(authorization?: string | null): Promise<string> {
  return requireBearer(authorization !== undefined ? authorization : (await headers()).get("authorization"), "pba_", "Agent requests need `Authorization: Bearer <agent credential>`.");
}

/** The SHA-256 of the agent credential, counted against the agent's request limit; 401 when there is none. */
export async function agentCredentialHash(authorization?: string | null): Promise<string> {
  const hash = hashSecret(await agentCredential(authorization));
  const waitMs = await instance().rateLimits.consume("agentRequests", hash);
  if (waitMs !== null) throw new AppError("RATE_LIMITED", `Too many requests: try again in ${Math.ceil(waitMs / 1000)} s.`);
  return hash;
}

/**
 * The host whose agent credential is in `Authorization: Bearer`; 401 when unknown or revoked.
 * Plain SQL: every long-poll of every agent passes here. Liveness is recorded in batches.
 */
export async function authenticateAgent(credentialHash?: string): Promise<AgentHost> {
  const host = await agentHostOf(credentialHash);
  if (!host) throw unknownCredential();
  return host;
}

/** authenticateAgent without the 401: null when no host holds the credential (the finish route's one exception). */
export async function agentHostOf(credentialHash?: string): Promise<AgentHost | null> {
  // A handler that already read (and counted) the credential passes its hash.
  const hash = credentialHash ?? (await agentCredentialHash());
  const { rows } = await pgPool().query<AgentHost>("SELECT id::text AS id, name FROM hosts WHERE agent_credential_hash = $1", [hash]);
  const host = rows[0];
  if (!host) return null;
  instance().hostToucher.touch(host.id);
  return host;
}

/** The run, if it belongs to the agent's host: 404 when unknown, 403 when it is another host's. */
export async function runOfHost(runId: string, hostId: string) {
  const run = await db().probeRun.findUnique({
    where: { id: runId },
    select: { id: true, hostId: true, probe: true, params: true, status: true, startedAt: true, cancelRequestedAt: true, finishedAt: true },
  });
  if (!run) throw new AppError("NOT_FOUND", `No run ${runId}.`);
  if (run.hostId !== hostId) throw new AppError("FORBIDDEN", "This run belongs to another host.");
  return run;
}
