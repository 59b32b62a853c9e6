import { db } from "../../db";
import { AppError } from "../../http/app-error";
import { notifyHost } from "../../instance/notify";

/**
 * Asks the host's agent to detect its probe tools again without restarting it: the request
 * waits on the host row and wakes the agent's claim long-poll, which answers it.
 */
export async function requestToolsRecheck({ hostId }: { hostId: string }): Promise<void> {
  const updated = await db().host.updateMany({ where: { id: hostId }, data: { toolsRecheckRequestedAt: new Date() } });
  if (updated.count !== 1) throw new AppError("NOT_FOUND", "This host does not exist (any more).");
  await notifyHost(hostId);
}
