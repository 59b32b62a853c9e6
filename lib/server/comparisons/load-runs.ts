import type { Prisma } from "@prisma/client";
import { isProbeId } from "../../../probes/catalog";
import type { NormalisedResult, Tool } from "../../../probes/core/types";
import { labelRuns } from "../../compare/label";
import { shareableProfile } from "../../compare/profile";
import type { CompareRun } from "../../compare/types";
import { db } from "../../db";

const compareSelect = {
  id: true,
  hostId: true,
  hostLabel: true,
  probe: true,
  params: true,
  preset: true,
  status: true,
  origin: true,
  createdAt: true,
  repeatGroup: true,
  fsType: true,
  medium: true,
  profile: true,
  result: true,
  flags: true,
  host: { select: { name: true } },
} satisfies Prisma.ProbeRunSelect;

type CompareRow = Prisma.ProbeRunGetPayload<{ select: typeof compareSelect }>;

/** The stored result if it has the normalised shape (the parser wrote it; this only guards). */
function resultOf(v: unknown): NormalisedResult | null {
  if (!v || typeof v !== "object") return null;
  const r = v as Partial<NormalisedResult>;
  return isProbeId(r.tool) && Array.isArray(r.measurements) ? (r as NormalisedResult) : null;
}

/** The stored flags (probes/checks RunCheck[]), reduced to what a comparison shows. */
function flagsOf(v: unknown): NonNullable<CompareRun["flags"]> {
  if (!Array.isArray(v)) return [];
  return v.flatMap((f) => {
    const o = f as Record<string, unknown> | null;
    return o && typeof o.code === "string" && typeof o.title === "string" && typeof o.evidence === "string" ? [{ code: o.code, title: o.title, evidence: o.evidence }] : [];
  });
}

const plainObject = (v: unknown): Record<string, unknown> => (v && typeof v === "object" && !Array.isArray(v) ? (v as Record<string, unknown>) : {});

/** Database rows → CompareRuns, labelled together so the labels tell them apart. */
export function toCompareRuns(rows: readonly CompareRow[]): CompareRun[] {
  const facts = rows.map((r) => ({
    origin: r.origin,
    hostName: r.host?.name ?? r.hostLabel,
    medium: r.medium,
    fsType: r.fsType,
    createdAt: r.createdAt.toISOString(),
    params: plainObject(r.params),
  }));
  const labels = labelRuns(facts);
  return rows.map((r, i) => ({
    id: r.id,
    label: labels[i]!,
    probe: r.probe as Tool,
    origin: r.origin,
    status: r.status,
    hostName: facts[i]!.hostName,
    hostKey: r.hostId ? `host:${r.hostId}` : `label:${r.hostLabel ?? ""}`,
    createdAt: facts[i]!.createdAt,
    repeatGroup: r.repeatGroup,
    params: facts[i]!.params,
    preset: r.preset,
    fsType: r.fsType,
    medium: r.medium,
    profile: shareableProfile(r.profile),
    result: resultOf(r.result),
    flags: flagsOf(r.flags),
  }));
}

/** The runs with these ids, in the order given; ids with no run are returned as missing. */
export async function loadCompareRuns(ids: readonly string[]): Promise<{ runs: CompareRun[]; missing: string[] }> {
  if (ids.length === 0) return { runs: [], missing: [] };
  const rows = await db().probeRun.findMany({ where: { id: { in: [...ids] } }, select: compareSelect });
  const byId = new Map(rows.map((r) => [r.id, r]));
  const ordered = ids.map((id) => byId.get(id)).filter((r): r is CompareRow => r !== undefined);
  return { runs: toCompareRuns(ordered), missing: ids.filter((id) => !byId.has(id)) };
}
