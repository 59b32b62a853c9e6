import type { Prisma } from "@prisma/client";
import { headlineValues, type NormalisedResult } from "../../../probes/catalog";
import { db } from "../../db";
import type { ListRunsQuery, RunListItem } from "../../api/schemas/runs";
import { runSelect, runToJson } from "./get-run";

const listSelect = { ...runSelect, preset: true } satisfies Prisma.ProbeRunSelect;

/** The run's result at a glance: the probe's first headline figure (what an experiment compares first). */
function headlineOf(r: { status: string; probe: string; params: unknown; result: unknown }): RunListItem["headline"] {
  if (r.status !== "SUCCEEDED" || !r.result || typeof r.result !== "object" || !Array.isArray((r.result as NormalisedResult).measurements)) return null;
  const h = headlineValues(r.probe, r.result as NormalisedResult, r.params)[0];
  return h ? { value: h.value, unit: h.unit, noun: h.noun } : null;
}

export async function listRuns(q: ListRunsQuery): Promise<{ runs: RunListItem[]; total: number; page: number; pageSize: number }> {
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
    db().probeRun.findMany({ where, orderBy: [orderBy, { id: "asc" }], skip: (q.page - 1) * q.pageSize, take: q.pageSize, select: listSelect }),
    db().probeRun.count({ where }),
  ]);
  return { runs: rows.map((r) => ({ ...runToJson(r), headline: headlineOf(r), preset: r.preset })), total, page: q.page, pageSize: q.pageSize };
}
