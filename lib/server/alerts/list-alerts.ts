import type { Prisma } from "@prisma/client";
import { db } from "../../db";
import type { AlertView } from "../../api/schemas/series";
import { alertInclude, alertViews } from "./alert-view";

export interface ListAlertsOptions {
  state: "open" | "acknowledged" | "all";
  kind: "regression" | "improvement" | "all";
  hostId?: string;
  /** At most this many, newest first (100 unless told; the API allows 1–500). */
  limit?: number;
}

/** Regression and improvement alerts, newest first. */
export async function listAlerts({ state, kind, hostId, limit = 100 }: ListAlertsOptions): Promise<AlertView[]> {
  const where: Prisma.AlertWhereInput = {
    ...(state === "open" ? { acknowledgedAt: null } : state === "acknowledged" ? { acknowledgedAt: { not: null } } : {}),
    ...(kind === "regression" ? { kind: "REGRESSION" } : kind === "improvement" ? { kind: "IMPROVEMENT" } : {}),
    ...(hostId ? { series: { hostId } } : {}),
  };
  const rows = await db().alert.findMany({ where, orderBy: [{ createdAt: "desc" }, { id: "desc" }], take: Math.min(Math.max(1, limit), 500), include: alertInclude });
  return alertViews(rows);
}
