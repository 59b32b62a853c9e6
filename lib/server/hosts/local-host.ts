// The "this machine" host of `npm start` (lib/runtime/local-agent.ts): one per machine, found by
// its machine id by every app instance on the machine that shares the database.
import { Prisma } from "@prisma/client";
import { generateSecret, hashSecret } from "../../auth/secret-token";
import { db } from "../../db";
import { REGISTRATION_TTL_MS } from "./create-host";

export interface LocalHost {
  id: string;
  name: string;
}

/**
 * The machine's host: the one carrying its machine id; else the host this instance's agent was
 * registered as before machine ids existed (it takes the id); else a new one. Concurrent
 * instances meet at the unique machine id: the loser reads the winner's host.
 */
export async function ensureLocalHost(input: { machineId: string; name: string; previousHostId?: string | null }): Promise<LocalHost> {
  const select = { id: true, name: true } as const;
  const found = await db().host.findUnique({ where: { machineId: input.machineId }, select });
  if (found) return found;
  if (input.previousHostId) {
    const adopted = await db().host.updateMany({ where: { id: input.previousHostId, machineId: null }, data: { machineId: input.machineId } });
    if (adopted.count === 1) return db().host.findUniqueOrThrow({ where: { id: input.previousHostId }, select });
  }
  try {
    return await db().host.create({ data: { name: input.name, machineId: input.machineId }, select });
  } catch (err) {
    if (err instanceof Prisma.PrismaClientKnownRequestError && err.code === "P2002") {
      return db().host.findUniqueOrThrow({ where: { machineId: input.machineId }, select });
    }
    throw err;
  }
}

/** Whether `credential` is the one the host's agent holds now (a later registration replaced it otherwise). */
export async function isCurrentCredential(hostId: string, credential: string): Promise<boolean> {
  const host = await db().host.findUnique({ where: { id: hostId }, select: { agentCredentialHash: true } });
  return !!host?.agentCredentialHash && host.agentCredentialHash === hashSecret(credential);
}

/**
 * A registration token for the local host that leaves its current credential alone: the agent
 * that holds it (another instance's, stopping) keeps delivering its run; registering with the
 * token replaces it (lib/server/agent/register-agent.ts). Unlike reissueRegistration, nothing
 * in flight is cancelled: only one instance runs the local agent at a time (the advisory lock in
 * lib/runtime/local-agent.ts), so this is a handover, not a revocation.
 */
export async function issueLocalRegistration(hostId: string): Promise<string> {
  const token = generateSecret("pbr");
  await db().host.update({
    where: { id: hostId },
    data: { registrationTokenHash: hashSecret(token), registrationExpiresAt: new Date(Date.now() + REGISTRATION_TTL_MS) },
  });
  return token;
}
