import { db } from "../../db";

/** Every host by name, with what its agent last reported (profile and capabilities as stored). */
export async function listHosts() {
  return db().host.findMany({
    orderBy: { name: "asc" },
    select: { id: true, name: true, lastSeenAt: true, agentRegisteredAt: true, createdAt: true, capabilities: true, profile: true, toolsCheckedAt: true, toolsRecheckRequestedAt: true, agentVersion: true },
  });
}
