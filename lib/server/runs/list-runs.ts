import type { Prisma } from "@prisma/client";
import { db } from "../../db";
import type { ListRunsQuery, RunJson } from "../../api/schemas/runs";
import { runSelect, runToJson } from "./get-run";

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
