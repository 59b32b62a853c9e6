import type { Prisma, RunStatus } from "@prisma/client";
import { setupReportSchema } from "../../../probes/protocol/schemas";
import { decideNextRound } from "../../experiments/schedule";
import { stabilitySeries, summariseExperiment, type ExperimentSummary } from "../../experiments/summarise";
import { db } from "../../db";
import { notifyHost } from "../../instance/notify";
import { readArms, readPolicy, warmupRounds, type StoredArm } from "./arm-plan";
import { queueRound } from "./queue-round";

const ENDED_BADLY: readonly RunStatus[] = ["FAILED", "LOST", "CANCELLED"];

interface RunRow {
  id: string;
  armIndex: number | null;
  round: number | null;
  status: RunStatus;
  params: Prisma.JsonValue;
  result: Prisma.JsonValue;
  warnings: Prisma.JsonValue;
  setup: Prisma.JsonValue;
  flags: Prisma.JsonValue;
  startedAt: Date | null;
  errorMessage: string | null;
}

/**
 * Whether everything the runs changed on the host is back: each setup report's tunables restored
 * and lab volume removed. A run that started an arm with a setup but sent no report (the agent
 * was killed) cannot confirm it, so the answer is then false, not a guess.
 */
export function revertedOf(runs: readonly Pick<RunRow, "setup" | "startedAt" | "armIndex">[], arms: readonly StoredArm[]): boolean {
  return runs.every((r) => {
    const arm = arms[r.armIndex ?? -1];
    const changes = !!arm && (arm.fs !== undefined || Object.keys(arm.tunables ?? {}).length > 0);
    const report = setupReportSchema.safeParse(r.setup);
    if (!report.success || r.setup === null) return !r.startedAt || !changes;
    const cleanup = (r.setup as { cleanupError?: unknown }).cleanupError;
    return report.data.tunables.every((t) => t.restored) && (report.data.lab?.removed ?? true) && !cleanup;
  });
}

/** The stored verdict: the summary at the end, plus the warnings the stop rule adds. */
export function verdictJson(summary: ExperimentSummary, extraWarnings: string[] = []): Prisma.InputJsonValue {
  return { ...summary, warnings: [...summary.warnings, ...extraWarnings] } as unknown as Prisma.InputJsonValue;
}

/**
 * The lab is fair for disk I/O only when its loop devices bypass the backing file's page cache
 * (losetup --direct-io=on, /sys/block/loopN/loop/dio = 1): otherwise an O_DIRECT write in the lab
 * lands in the backing file system's cache, and the verdict must say so beside its numbers.
 */
export function labWithoutDirectIo(runs: readonly Pick<RunRow, "setup">[]): string[] {
  const buffered = runs.flatMap((r) => {
    const lab = (r.setup as { lab?: { dio?: unknown; dioReason?: unknown } | null } | null)?.lab;
    return lab && lab.dio === false ? [typeof lab.dioReason === "string" ? lab.dioReason : ""] : [];
  });
  if (buffered.length === 0) return [];
  const why = buffered.find((w) => w !== "");
  return [
    `${buffered.length} lab run${buffered.length === 1 ? "" : "s"} used a loop device without direct I/O${why ? ` (${why})` : ""}: their writes went through the backing file system's page cache, so disk-bound figures from them are not the file system's alone.`,
  ];
}

const armName = (arms: StoredArm[], i: number | null) => arms[i ?? -1]?.label ?? `arm ${(i ?? 0) + 1}`;

async function settle(tx: Prisma.TransactionClient, experimentId: string): Promise<string | null> {
  await tx.$queryRaw`SELECT id FROM experiments WHERE id = ${experimentId}::uuid FOR UPDATE`;
  const exp = await tx.experiment.findUnique({ where: { id: experimentId } });
  if (!exp) return null;
  const runs: RunRow[] = await tx.probeRun.findMany({
    where: { experimentId },
    select: { id: true, armIndex: true, round: true, status: true, params: true, result: true, warnings: true, setup: true, flags: true, startedAt: true, errorMessage: true },
    orderBy: { createdAt: "asc" },
  });
  const arms = readArms(exp.arms);
  const ended = (r: RunRow) => r.status !== "QUEUED" && r.status !== "RUNNING";
  const policy = readPolicy(exp.policy);
  const summary = (status: string) =>
    summariseExperiment({ probe: exp.probe, armLabels: arms.map((a) => a.label), runs: runs.map((r) => ({ ...r, armIndex: r.armIndex ?? -1 })), warmupRounds: warmupRounds(policy), status });

  if (exp.status !== "RUNNING") {
    // Cancelled or failed earlier: once the last run has ended (the agent reverted and reported), say so.
    if (exp.reverted === null && runs.every(ended)) {
      await tx.experiment.update({ where: { id: experimentId }, data: { reverted: revertedOf(runs, arms), verdict: verdictJson(summary(exp.status)) } });
    } else if (exp.reverted !== null && runs.every(ended) && revertedOf(runs, arms) !== exp.reverted) {
      // A setup report that came after its run had ended (its host removed or re-registered
      // while the arm ran: lib/server/agent/accept-final-report.ts) says what was put back.
      await tx.experiment.update({ where: { id: experimentId }, data: { reverted: revertedOf(runs, arms) } });
    }
    return null;
  }

  if (exp.kind === "sweep") return settleSweep(tx, exp, runs, arms);

  const bad = runs.find((r) => ENDED_BADLY.includes(r.status)) ?? (exp.hostId === null ? { armIndex: null, round: null, status: "CANCELLED" as const, errorMessage: "The host was removed." } : undefined);
  if (bad) {
    const why =
      bad.armIndex === null
        ? `${bad.errorMessage}`
        : `The run of ${armName(arms, bad.armIndex)} in round ${(bad.round ?? 0) + 1} ended ${bad.status.toLowerCase()}${bad.errorMessage ? `: ${bad.errorMessage}` : "."}`;
    await tx.probeRun.updateMany({
      where: { experimentId, status: "QUEUED" },
      data: { status: "CANCELLED", finishedAt: new Date(), cancelRequestedAt: new Date(), errorMessage: "Not run: another run of the experiment failed." },
    });
    await tx.probeRun.updateMany({ where: { experimentId, status: "RUNNING", cancelRequestedAt: null }, data: { cancelRequestedAt: new Date() } });
    const running = runs.some((r) => r.status === "RUNNING");
    await tx.experiment.update({
      where: { id: experimentId },
      data: { status: "FAILED", decision: "failed", decisionMessage: why, finishedAt: new Date(), verdict: verdictJson(summary("FAILED")), reverted: running ? null : revertedOf(runs, arms) },
    });
    return null;
  }

  const round = Math.max(-1, ...runs.map((r) => r.round ?? -1));
  const current = runs.filter((r) => r.round === round);
  if (round < 0 || current.length === 0 || !current.every((r) => r.status === "SUCCEEDED")) return null;
  const s = summary("RUNNING");
  if (s.headlines.length === 0 && s.arms.some((a) => a.validRunIds.length > 0)) {
    await tx.experiment.update({
      where: { id: experimentId },
      data: { status: "FAILED", decision: "failed", decisionMessage: "The runs succeeded but their results hold none of the probe's headline figures, so there is nothing to compare.", finishedAt: new Date(), verdict: verdictJson(s), reverted: revertedOf(runs, arms) },
    });
    return null;
  }
  // Only widths, counts and the clock: the rule never sees whether an interval excludes 1.
  const decision = decideNextRound(policy, {
    halfWidths: s.verdict.map((l) => l.halfWidthPct),
    validPerArm: s.validPerArm,
    roundsDone: round + 1 - warmupRounds(policy),
    minutesElapsed: (Date.now() - exp.createdAt.getTime()) / 60_000,
    series: stabilitySeries(s),
  });
  if (decision.more) {
    await queueRound(tx, experimentId, round + 1);
    return exp.hostId;
  }
  await tx.experiment.update({
    where: { id: experimentId },
    data: {
      status: "FINISHED",
      decision: decision.reason,
      decisionMessage: decision.message,
      finishedAt: new Date(),
      verdict: verdictJson(s, [...(decision.reason === "max" || decision.reason === "budget" ? [decision.message] : []), ...labWithoutDirectIo(runs)]),
      reverted: revertedOf(runs, arms),
    },
  });
  return null;
}

/**
 * A running sweep: a point that failed is that point's answer (the others still tell the curve),
 * so nothing is cancelled; when every point's run has ended the sweep is FINISHED, or FAILED when
 * none succeeded. A host removed mid-sweep cancels what is still queued.
 */
async function settleSweep(tx: Prisma.TransactionClient, exp: { id: string; hostId: string | null }, runs: RunRow[], arms: StoredArm[]): Promise<null> {
  const open = runs.filter((r) => r.status === "QUEUED" || r.status === "RUNNING");
  if (exp.hostId === null && open.length > 0) {
    await tx.probeRun.updateMany({ where: { experimentId: exp.id, status: "QUEUED" }, data: { status: "CANCELLED", finishedAt: new Date(), cancelRequestedAt: new Date(), errorMessage: "Not run: the host was removed." } });
    await tx.experiment.update({ where: { id: exp.id }, data: { status: "CANCELLED", decision: "cancelled", decisionMessage: "The host was removed.", finishedAt: new Date() } });
    return null;
  }
  if (open.length > 0) return null;
  const ok = runs.filter((r) => r.status === "SUCCEEDED").length;
  const message = `All ${runs.length} points ran: ${ok} succeeded${ok < runs.length ? `, ${runs.length - ok} did not` : ""}.`;
  await tx.experiment.update({
    where: { id: exp.id },
    data: ok > 0
      ? { status: "FINISHED", decision: "complete", decisionMessage: message, finishedAt: new Date(), reverted: revertedOf(runs, arms) }
      : { status: "FAILED", decision: "failed", decisionMessage: `No point of the sweep succeeded. ${runs.find((r) => r.errorMessage)?.errorMessage ?? ""}`.trim(), finishedAt: new Date(), reverted: revertedOf(runs, arms) },
  });
  return null;
}

/**
 * Moves an experiment on after one of its runs ended: fail it when a run failed, queue the next
 * round when the current one is complete and the stop rule asks for more, or finish it with its
 * verdict. Idempotent and serialised on the experiment's row, so finishes racing each other (or
 * a cancel) decide once.
 */
export async function advanceExperiment(opts: { experimentId: string }): Promise<void> {
  const hostToWake = await db().$transaction((tx) => settle(tx, opts.experimentId));
  if (hostToWake) await notifyHost(hostToWake);
}
