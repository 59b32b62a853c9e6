import { db } from "../db";
import { encodeRunNotification, HOST_JOBS_CHANNEL, runChannel, type RunNotification } from "../notifications";

/** Tells every app instance that a run has new output or a new status. */
export async function notifyRun(runId: string, notification: RunNotification): Promise<void> {
  await db().$executeRaw`SELECT pg_notify(${runChannel(runId)}, ${encodeRunNotification(notification)})`;
}

/** Wakes the agent of a host that is long-polling for jobs. */
export async function notifyHost(hostId: string): Promise<void> {
  await db().$executeRaw`SELECT pg_notify(${HOST_JOBS_CHANNEL}, ${hostId})`;
}
