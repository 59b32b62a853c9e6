import { headers } from "next/headers";
import { hashSecret } from "../../auth/secret-token";
import { db } from "../../db";
import { AppError } from "../../http/app-error";
import { requireBearer } from "../../http/bearer";
import { rateLimit } from "../../http/rate-limit";

export interface AgentHost {
  id: string;
  name: string;
}

/** The agent credential in `Authorization: Bearer`; 401 when there is none. */
export async function agentCredential(): Promise<string> {
  return requireBearer((await headers()).get("authorization"), "pba_", "Agent requests need `Authorization: Bearer <agent credential>`.");
}

/** The host whose agent credential is in `Authorization: Bearer`; 401 when unknown or revoked. */
export async function authenticateAgent(): Promise<AgentHost> {
  const credential = await agentCredential();
  await rateLimit("agentRequests", hashSecret(credential));
  const host = await db().host.findUnique({ where: { agentCredentialHash: hashSecret(credential) }, select: { id: true, name: true } });
  if (!host) {
    throw new AppError("UNAUTHORIZED", "This agent credential is unknown or was revoked: register the agent again with a new token.");
  }
  await db().host.update({ where: { id: host.id }, data: { lastSeenAt: new Date() } });
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
