import { readRunProfile } from "../../../probes/profile/read-profile";
import { setupReportSchema, type SetupReport } from "../../../probes/protocol/schemas";
import { achievedText, roundOrder, worstHalfWidth } from "../../experiments/schedule";
import { summariseExperiment, type ExperimentSummary } from "../../experiments/summarise";
import { db } from "../../db";
import { AppError } from "../../http/app-error";
import { getSweepView } from "../sweeps/get-sweep";
import { readArms, readPolicy, warmupRounds, type StoredArm, type StoredPolicy } from "./arm-plan";

export interface ExperimentRunView {
  id: string;
  armIndex: number;
  round: number;
  status: string;
  fsType: string | null;
  setup: SetupReport | null;
  startedAt: string | null;
  finishedAt: string | null;
  errorMessage: string | null;
  warmup: boolean;
  /** Why the run is left out of the statistics ("warm-up", a flag's title, "failed"); [] when it counts or has not ended. */
  excludedBecause: string[];
}

export interface ExperimentView {
  id: string;
  title: string;
  kind: "ab" | "sweep";
  hostId: string | null;
  hostName: string | null;
  /** Its host was deleted: hostName is the name it had (experiments stay, like runs). */
  hostRemoved: boolean;
  probe: string;
  preset: string | null;
  params: Record<string, unknown>;
  arms: StoredArm[];
  labImageBytes: number | null;
  policy: StoredPolicy;
  status: "RUNNING" | "FINISHED" | "FAILED" | "CANCELLED";
  decision: string | null;
  decisionMessage: string | null;
  reverted: boolean | null;
  createdAt: string;
  finishedAt: string | null;
  runs: ExperimentRunView[];
  summary: ExperimentSummary;
  /** Arm order of each round queued so far. */
  rounds: number[][];
  /** Runs ended / runs planned (the minimum while rounds may still be added, the maximum at most). */
  progress: { ended: number; planned: number; maxPlanned: number; currentRunId: string | null; cancelled: number };
  /** Where the stop rule stands: the widest interval so far against the target, and the clock against the budget. */
  precision: { halfWidthPct: number | null; validPerArm: number; targetPct: number; minutesElapsed: number; budgetMin: number | null; text: string };
}

/** One experiment with its runs and its summary as of now (the verdict so far while it runs). */
export async function getExperiment(opts: { id: string }): Promise<ExperimentView> {
  const exp = await db().experiment.findUnique({
    where: { id: opts.id },
    include: {
      host: { select: { name: true } },
      runs: {
        select: { id: true, armIndex: true, round: true, status: true, params: true, result: true, warnings: true, setup: true, flags: true, fsType: true, profile: true, startedAt: true, finishedAt: true, errorMessage: true },
        orderBy: { createdAt: "asc" },
      },
    },
  });
  if (!exp) throw new AppError("NOT_FOUND", `No experiment ${opts.id}.`);
  const arms = readArms(exp.arms);
  const policy = readPolicy(exp.policy);
  const warm = warmupRounds(policy);
  const summary = summariseExperiment({ probe: exp.probe, armLabels: arms.map((a) => a.label), runs: exp.runs.map((r) => ({ ...r, armIndex: r.armIndex ?? -1 })), warmupRounds: warm, status: exp.status });
  const excludedBecause = new Map(summary.excluded.map((x) => [x.id, x.reasons]));
  const halfWidths = summary.verdict.map((l) => l.halfWidthPct);
  const minutesElapsed = ((exp.finishedAt ?? new Date()).getTime() - exp.createdAt.getTime()) / 60_000;
  // The stored verdict adds the stop rule's own warning (still unstable at the maximum).
  const stored = (exp.verdict ?? {}) as { warnings?: unknown };
  if (Array.isArray(stored.warnings)) summary.warnings = [...new Set([...summary.warnings, ...stored.warnings.filter((w): w is string => typeof w === "string")])];
  const rounds = Math.max(0, ...exp.runs.map((r) => (r.round ?? -1) + 1));
  // A run cancelled before it started measured nothing: it is not "done", it is counted apart.
  const cancelled = exp.runs.filter((r) => r.status === "CANCELLED" && r.startedAt === null).length;
  const ended = exp.runs.filter((r) => r.status !== "QUEUED" && r.status !== "RUNNING").length - cancelled;
  const done = exp.status !== "RUNNING";
  return {
    id: exp.id,
    title: exp.title,
    kind: exp.kind === "sweep" ? "sweep" : "ab",
    hostId: exp.hostId,
    hostName: exp.host?.name ?? exp.hostLabel,
    hostRemoved: exp.hostId === null,
    probe: exp.probe,
    preset: exp.preset,
    params: (exp.params ?? {}) as Record<string, unknown>,
    arms: arms.map(({ params: _params, ...a }) => a),
    labImageBytes: exp.labImageBytes === null ? null : Number(exp.labImageBytes),
    policy,
    status: exp.status,
    decision: exp.decision,
    decisionMessage: exp.decisionMessage,
    reverted: exp.reverted,
    createdAt: exp.createdAt.toISOString(),
    finishedAt: exp.finishedAt?.toISOString() ?? null,
    runs: exp.runs.map((r) => {
      const setup = setupReportSchema.safeParse(r.setup);
      return {
        id: r.id,
        armIndex: r.armIndex ?? 0,
        round: r.round ?? 0,
        status: r.status,
        fsType: r.fsType ?? readRunProfile(r.profile).target?.fsType ?? null,
        setup: r.setup !== null && setup.success ? setup.data : null,
        startedAt: r.startedAt?.toISOString() ?? null,
        finishedAt: r.finishedAt?.toISOString() ?? null,
        errorMessage: r.errorMessage,
        warmup: (r.round ?? 0) < warm,
        excludedBecause: excludedBecause.get(r.id) ?? [],
      };
    }),
    summary,
    rounds: Array.from({ length: rounds }, (_, i) => roundOrder(arms.length, i, policy.order, exp.orderSeed)),
    progress: {
      ended,
      planned: done ? exp.runs.length : Math.max(exp.runs.length, (policy.min + warm) * arms.length),
      maxPlanned: done ? exp.runs.length : (policy.max + warm) * arms.length,
      currentRunId: exp.runs.find((r) => r.status === "RUNNING")?.id ?? null,
      cancelled,
    },
    precision: {
      halfWidthPct: worstHalfWidth(halfWidths),
      validPerArm: summary.validPerArm,
      targetPct: policy.precisionPct,
      minutesElapsed,
      budgetMin: policy.budgetMin,
      text: achievedText(policy, { halfWidths, validPerArm: summary.validPerArm, minutesElapsed }),
    },
  };
}

/** GET /api/experiments/:id: the experiment, with its SweepView when it is a sweep. */
export async function experimentApiJson(id: string) {
  const v = await getExperiment({ id });
  const sweep = v.kind === "sweep" ? await getSweepView(id) : null;
  return { ...experimentJson(v), ...(sweep ? { sweep } : {}) };
}

/** The API's shape of an experiment (GET /api/experiments/:id). */
export function experimentJson(v: ExperimentView) {
  return {
    id: v.id,
    title: v.title,
    kind: v.kind,
    hostId: v.hostId,
    hostName: v.hostName,
    hostRemoved: v.hostRemoved,
    probe: v.probe,
    status: v.status,
    decision: v.decision,
    decisionMessage: v.decisionMessage,
    policy: v.policy,
    precision: v.precision,
    arms: v.summary.arms.map((a, i) => ({ label: a.label, setup: v.arms[i] ?? null, runIds: a.runIds, validRunIds: a.validRunIds, excluded: a.excluded, median: a.median, cv: a.cv })),
    verdict: v.summary.verdict.map((l) => ({
      metric: l.metric,
      dims: l.dims,
      noun: l.noun,
      unit: l.unit,
      baseline: l.baseline,
      arm: l.arm,
      state: l.state,
      baselineMedian: l.baselineMedian,
      armMedian: l.armMedian,
      ratio: l.ratio,
      ciLow: l.ciLow,
      ciHigh: l.ciHigh,
      confidence: l.confidence,
      halfWidthPct: l.halfWidthPct,
      runsNeeded: l.runsNeeded,
      runs: l.runs,
      sentence: l.sentence,
    })),
    warnings: v.summary.warnings,
    excluded: v.summary.excluded,
    reverted: v.reverted,
    runs: v.runs,
    createdAt: v.createdAt,
    finishedAt: v.finishedAt,
  };
}
