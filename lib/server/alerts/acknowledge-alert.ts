import type { Actor } from "../../auth/actor";
import { roleAtLeast } from "../../auth/roles";
import { db } from "../../db";
import { AppError } from "../../http/app-error";
import type { AlertView } from "../../api/schemas/series";
import { recordAudit } from "../audit/record-audit";
import { alertInclude, alertViews } from "./alert-view";

/**
 * An operator says they have seen an alert. Acknowledging it again changes nothing and answers it
 * as it is (the first acknowledgement's time stands), so a retried click is harmless.
 */
export async function acknowledgeAlert({ id, actor, ip = null }: { id: string; actor: Actor; ip?: string | null }): Promise<AlertView> {
  if (!roleAtLeast(actor.role, "OPERATOR")) throw new AppError("FORBIDDEN", "Acknowledging an alert takes the operator role.");
  const { count } = await db().alert.updateMany({ where: { id, acknowledgedAt: null }, data: { acknowledgedAt: new Date(), acknowledgedById: actor.userId } });
  const row = await db().alert.findUnique({ where: { id }, include: alertInclude });
  if (!row) throw new AppError("NOT_FOUND", `No alert ${id}.`);
  if (count > 0) await recordAudit({ actor, action: "alert.acknowledge", target: { type: "alert", id }, ip, details: { seriesId: row.seriesId, kind: row.kind.toLowerCase(), message: row.message } });
  const [view] = await alertViews([row]);
  if (!view) throw new AppError("NOT_FOUND", `No alert ${id}.`);
  return view;
}
