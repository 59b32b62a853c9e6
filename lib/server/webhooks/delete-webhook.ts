import { db } from "../../db";
import { AppError } from "../../http/app-error";

/** Deletes a target with its delivery log (cascade): pending deliveries to it are never sent. */
export async function deleteWebhook({ id }: { id: string }): Promise<{ name: string; url: string }> {
  const rows = await db().$queryRaw<{ name: string; url: string }[]>`DELETE FROM webhook_targets WHERE id = ${id}::uuid RETURNING name, url`;
  if (!rows[0]) throw new AppError("NOT_FOUND", `No webhook target ${id}.`);
  return rows[0];
}
