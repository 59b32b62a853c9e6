import type { Prisma } from "@prisma/client";
import { z } from "zod";
import { TOOL_IDS } from "../../../probes/catalog";
import { db } from "../../db";
import { uuidSchema } from "../../http/params";
import { RUN_ORIGINS, RUN_STATUSES } from "../../run-status";
import { tagSchema } from "./run-tags";
import { runSelect, runToJson, type RunJson } from "./get-run";

// PostgreSQL timestamps and text hold neither JavaScript's extreme dates nor NUL characters:
// such filters are a 400 here, not a database error.
const noNul = (s: string) => !s.includes("\u0000");
const filterDate = z.coerce
  .date()
  .refine((d) => d.getUTCFullYear() >= 1900 && d.getUTCFullYear() <= 9999, "Use a date between the years 1900 and 9999.");

export const listRunsQuerySchema = z.object({
  hostId: uuidSchema().optional(),
  /** Case-insensitive part of a registered host's name or of an imported/reference run's host label. */
  host: z.string().trim().min(1).max(200).refine(noNul, "The host filter must not contain NUL characters.").optional(),
  probe: z.enum(TOOL_IDS).optional(),
  status: z.enum(RUN_STATUSES).optional(),
  origin: z.enum(RUN_ORIGINS).optional(),
  fsType: z.string().max(30).refine(noNul, "The file system filter must not contain NUL characters.").optional(),
  medium: z.enum(["memory", "ssd", "disk", "unknown"]).optional(),
  /** Runs carrying this tag. */
  tag: tagSchema.optional(),
  from: filterDate.optional(),
  to: filterDate.optional(),
  sort: z.enum(["createdAt", "probe", "status", "host"]).default("createdAt"),
  order: z.enum(["asc", "desc"]).default("desc"),
  page: z.coerce.number().int().min(1).max(100_000).default(1),
  pageSize: z.coerce.number().int().min(1).max(200).default(50),
});
export type ListRunsQuery = z.infer<typeof listRunsQuerySchema>;

export async function listRuns(q: ListRunsQuery): Promise<{ runs: RunJson[]; total: number; page: number; pageSize: number }> {
  const where: Prisma.ProbeRunWhereInput = {
    hostId: q.hostId,
    probe: q.probe,
    status: q.status,
    origin: q.origin,
    fsType: q.fsType,
    medium: q.medium,
    ...(q.tag ? { tags: { has: q.tag } } : {}),
    createdAt: q.from || q.to ? { gte: q.from, lte: q.to } : undefined,
    ...(q.host
      ? { OR: [{ host: { name: { contains: q.host, mode: "insensitive" } } }, { hostLabel: { contains: q.host, mode: "insensitive" } }] }
      : {}),
  };
  const orderBy: Prisma.ProbeRunOrderByWithRelationInput =
    q.sort === "host" ? { host: { name: q.order } } : { [q.sort]: q.order };
  const [rows, total] = await db().$transaction([
    db().probeRun.findMany({ where, orderBy: [orderBy, { id: "asc" }], skip: (q.page - 1) * q.pageSize, take: q.pageSize, select: runSelect }),
    db().probeRun.count({ where }),
  ]);
  return { runs: rows.map(runToJson), total, page: q.page, pageSize: q.pageSize };
}
