import { db } from "../../db";

/** Whether the database answers a trivial query; for /api/health. */
export async function checkDatabase(): Promise<boolean> {
  try {
    await db().$queryRaw`SELECT 1`;
    return true;
  } catch {
    return false;
  }
}
