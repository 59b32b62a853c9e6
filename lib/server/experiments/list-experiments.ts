import { db } from "../../db";
import { readArms } from "./arm-plan";

export interface ExperimentListItem {
  id: string;
  title: string;
  kind: "ab" | "sweep";
  hostName: string | null;
  /** Its host was deleted: hostName is the name it had. */
  hostRemoved: boolean;
  probe: string;
  arms: string[];
  status: string;
  decision: string | null;
  runs: { ended: number; total: number };
  /** The first verdict sentence, when it has ended with one. */
  headline: string | null;
  createdAt: string;
}

/** Newest first, with each one's run counts and its first verdict sentence. */
export async function listExperiments(opts: { hostId?: string; limit?: number } = {}): Promise<ExperimentListItem[]> {
  const rows = await db().experiment.findMany({
    where: opts.hostId ? { hostId: opts.hostId } : {},
    orderBy: { createdAt: "desc" },
    take: opts.limit ?? 50,
    select: { id: true, title: true, kind: true, probe: true, arms: true, status: true, decision: true, verdict: true, createdAt: true, hostId: true, hostLabel: true, host: { select: { name: true } } },
  });
  const counts = await db().probeRun.groupBy({
    by: ["experimentId", "status"],
    where: { experimentId: { in: rows.map((r) => r.id) } },
    _count: { _all: true },
  });
  return rows.map((r) => {
    const mine = counts.filter((c) => c.experimentId === r.id);
    const total = mine.reduce((s, c) => s + c._count._all, 0);
    const open = mine.filter((c) => c.status === "QUEUED" || c.status === "RUNNING").reduce((s, c) => s + c._count._all, 0);
    // A failed or cancelled experiment has no answer, whatever an older stored verdict says; a
    // running one's stored verdict is from an earlier state, so the list shows it only at the end.
    const lines = r.status === "FINISHED" ? (r.verdict as { verdict?: { sentence?: string }[] } | null)?.verdict : undefined;
    return {
      id: r.id,
      title: r.title,
      kind: r.kind === "sweep" ? ("sweep" as const) : ("ab" as const),
      hostName: r.host?.name ?? r.hostLabel,
      hostRemoved: r.hostId === null,
      probe: r.probe,
      arms: readArms(r.arms).map((a) => a.label),
      status: r.status,
      decision: r.decision,
      runs: { ended: total - open, total },
      headline: lines?.[0]?.sentence ?? null,
      createdAt: r.createdAt.toISOString(),
    };
  });
}
