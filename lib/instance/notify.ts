import { db } from "../db";
import { HOST_JOBS_CHANNEL, runChannel } from "./pg-listener";

/** Tells every app instance that a run has new output or a new status. */
export async function notifyRun(runId: string, payload: string): Promise<void> {
  await db().$executeRaw`SELECT pg_notify(${runChannel(runId)}, ${payload})`;
}

/** Wakes the agent of a host that is long-polling for jobs. */
export async function notifyHost(hostId: string): Promise<void> {
  await db().$executeRaw`SELECT pg_notify(${HOST_JOBS_CHANNEL}, ${hostId})`;
}
