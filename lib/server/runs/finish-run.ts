import type { RunStatus } from "@prisma/client";
import { getProbe, type NormalisedResult } from "../../../probes/catalog";
import { checkRun } from "../../../probes/checks";
import { readRunProfile } from "../../../probes/profile/read-profile";
import type { FinishRequest } from "../../../probes/protocol/schemas";
import { db } from "../../db";
import { AppError } from "../../http/app-error";
import { pgPool } from "../../pg-pool";
import { instance } from "../../instance/instance";
import type { ParseReply } from "../../instance/parse/parse-types";
import { advanceExperimentSafely } from "../experiments/advance-safely";
import { evaluateSeriesSafely } from "../series/evaluate-series";
import { notifyRun } from "../../instance/notify";
import { readRunTelemetry } from "./get-run-telemetry";
import { assertSetupReportFits } from "./check-setup-report";
import { chunksAfter, missingSeqs } from "./read-log";
import { targetFacts } from "./target-facts";

/**
 * How often this configuration runs, for the "single run" advice: a repeat group's size, or an
 * experiment's minimum number of rounds (every arm runs at least that often).
 */
async function repeatsOf(run: { repeatGroup: string | null; experimentId: string | null }): Promise<number> {
  if (run.experimentId) {
    const exp = await db().experiment.findUnique({ where: { id: run.experimentId }, select: { policy: true } });
    const min = (exp?.policy as { min?: unknown } | null)?.min;
    return typeof min === "number" ? min : 1;
  }
  return run.repeatGroup ? db().probeRun.count({ where: { repeatGroup: run.repeatGroup } }) : 1;
}

/**
 * The run's result held against its own telemetry (probes/checks), once, here: the samples are
 * all stored before a finish is accepted (they ride the chunks whose completeness was checked
 * above), so the flags are as final as the result and every reader (API, page, exports,
 * experiment verdicts) reads the same stored answer. Only a SUCCEEDED run is a measurement to
 * judge. checkedAt stays null when the agent sent no telemetry.
 */
async function checksOf(
  runId: string,
  run: { probe: string; params: unknown },
  req: FinishRequest,
  resultJson: string,
  facts: { fsType: string | null; memTotalBytes: number | null; exclusiveDevice: boolean },
): Promise<{ flags: string; checkedAt: Date | null }> {
  const samples = (await readRunTelemetry(runId)).map(({ numa, ...s }) => (numa ? { ...s, numaFree: numa } : s));
  const out = checkRun({
    probe: run.probe,
    params: run.params,
    result: JSON.parse(resultJson) as NormalisedResult,
    durationMs: req.durationMs,
    samples,
    facts: { ...facts, cpuCount: readRunProfile(req.profile).cpu.count },
  });
  return { flags: JSON.stringify(out.flags), checkedAt: out.checkedAgainstTelemetry ? new Date() : null };
}

function statusOf(req: FinishRequest, parsedOk: boolean): RunStatus {
  if (req.cancelled) return "CANCELLED";
  if (req.interrupted) return "LOST";
  if (req.error || req.timedOut || req.exitCode !== 0) return "FAILED";
  return parsedOk ? "SUCCEEDED" : "FAILED";
}

function errorOf(req: FinishRequest, status: RunStatus, probe: string, reply: ParseReply | null): string | null {
  if (req.error) return req.error;
  if (req.timedOut) return "The probe ran past its time limit and was stopped.";
  if (status !== "FAILED") return null;
  const why = reply?.kind === "failed" ? reply.error : reply?.kind === "too-large" || reply?.kind === "gave-up" ? reply.message : null;
  return req.exitCode !== null && req.exitCode !== 0 ? `${probe} exited with code ${req.exitCode}${why ? `: ${why}` : ""}` : why;
}

/**
 * Ends a run, once: only a run an agent claimed (RUNNING, or LOST by silence) can be finished;
 * a finish for a run that already ended changes nothing and answers its status, so an agent that
 * lost the first answer can send it again. The server must hold every chunk the agent produced;
 * the stored log (the source of truth) is parsed in a worker with caps (parse-off-thread.ts),
 * and the row is written with plain SQL, the result as one JSON parameter. A log beyond the caps
 * ends the run FAILED with the reason and answers 413/422 so the agent says so in its log.
 */
export async function finishRun({ runId, finish: req }: { runId: string; finish: FinishRequest }): Promise<{ status: RunStatus }> {
  const run = await db().probeRun.findUniqueOrThrow({
    where: { id: runId },
    select: { status: true, startedAt: true, finishedAt: true, probe: true, params: true, repeatGroup: true, experimentId: true, armIndex: true, seriesId: true, host: { select: { mediumOverrides: true } } },
  });
  if (run.finishedAt) return { status: run.status };
  if (run.status === "QUEUED" || !run.startedAt) throw new AppError("CONFLICT", "This run was never claimed by an agent: it cannot be finished.");
  await assertSetupReportFits({ run, report: req.setup });
  const missing = await missingSeqs(runId, req.lastSeq);
  if (missing.length > 0) {
    throw new AppError("CONFLICT", `The server is missing chunks ${missing.slice(0, 10).join(", ")} of this run: send them before finishing.`);
  }
  const facts = targetFacts(req.profile, run.host?.mediumOverrides);
  // An observer measures the machine, not its target directory: "tmpfs · memory" on a sar
  // run would say where it was started, not what it measured.
  const measuresTarget = getProbe(run.probe)?.role !== "observer";
  // A lab arm ran in a file system the agent made: its type is the one mkfs made (an ext3 volume
  // stays ext3 even though the ext4 driver serves it; the setup report names the driver).
  const fsType = req.setup?.lab?.fsType ?? facts.fsType;
  const repeats = await repeatsOf(run);
  // The log as parsed, and how many chunks it had: output that arrives before the UPDATE below
  // would make the stored log differ from the result, so the UPDATE then refuses.
  const chunks = req.lastSeq >= 0 ? await chunksAfter(runId, -1, 100_000_000) : [];
  const reply =
    req.lastSeq >= 0
      ? await instance().parser.parse({
          probe: run.probe,
          output: chunks.map((c) => c.data).join(""),
          quality: { params: run.params, memTotalBytes: facts.memTotalBytes, fsType: facts.fsType, repeats },
        })
      : null;
  const parsed = reply?.kind === "parsed" ? reply : null;
  const status = statusOf(req, parsed !== null);
  const checks =
    status === "SUCCEEDED" && parsed ? await checksOf(runId, run, req, parsed.resultJson, { fsType, memTotalBytes: facts.memTotalBytes, exclusiveDevice: !!req.setup?.lab }) : { flags: "[]", checkedAt: null };
  const { rows } = await pgPool().query<{ status: RunStatus }>(
    `UPDATE probe_runs
     SET status = $2::"RunStatus", exit_code = $3, duration_ms = $4, finished_at = now(), last_activity_at = now(), updated_at = now(),
         error_message = $5, profile = COALESCE($6::jsonb, profile), result = COALESCE($7::jsonb, result),
         warnings = $8::jsonb, fs_type = $9, medium = $10, setup = COALESCE($12::jsonb, setup),
         flags = $13::jsonb, checked_at = $14
     WHERE id = $1::uuid AND finished_at IS NULL AND ($11::int IS NULL OR (SELECT count(*) FROM run_log_chunks WHERE run_id = $1::uuid) = $11)
     RETURNING status`,
    [
      runId,
      status,
      req.exitCode,
      req.durationMs,
      errorOf(req, status, run.probe, reply),
      req.profile ? JSON.stringify(req.profile) : null,
      parsed?.resultJson ?? null,
      // The agent's notes (a spool it could not write) are shown with the parser's warnings.
      JSON.stringify([...(parsed?.warnings ?? []), ...(req.agentNotes ?? [])]),
      measuresTarget ? fsType : null,
      measuresTarget ? facts.medium : null,
      req.lastSeq >= 0 ? chunks.length : null,
      req.setup ? JSON.stringify(req.setup) : null,
      checks.flags,
      checks.checkedAt,
    ],
  );
  if (!rows[0]) {
    const now = await db().probeRun.findUniqueOrThrow({ where: { id: runId }, select: { status: true, finishedAt: true } });
    // Another finish got there first: its outcome stands.
    if (now.finishedAt) return { status: now.status };
    throw new AppError("CONFLICT", "More output for this run arrived while it was being finished: send the finish again.");
  }
  await notifyRun(runId, { kind: "status" });
  if (run.experimentId) await advanceExperimentSafely(run.experimentId);
  // Is this host getting slower? Logged, never failing the finish.
  if (run.seriesId) await evaluateSeriesSafely(run.seriesId);
  if (reply?.kind === "too-large") throw new AppError("PAYLOAD_TOO_LARGE", `The run failed: its output is too large to keep as a result: ${reply.message}`);
  if (reply?.kind === "gave-up") throw new AppError("UNPROCESSABLE", `The run failed: its output could not be parsed: ${reply.message}`);
  return { status: rows[0].status };
}
