import type { Prisma, RunStatus } from "@prisma/client";
import { parseOutput } from "../../../probes/catalog";
import type { FinishRequest } from "../../../probes/protocol/schemas";
import { qualityWarnings } from "../../../probes/quality";
import { db } from "../../db";
import { AppError } from "../../http/app-error";
import { notifyRun } from "../realtime/notify";
import { missingSeqs, readRunLog } from "./read-log";
import { targetFacts } from "./target-facts";

const FINAL: RunStatus[] = ["SUCCEEDED", "FAILED", "CANCELLED"];

function statusOf(req: FinishRequest, parsedOk: boolean): RunStatus {
  if (req.cancelled) return "CANCELLED";
  if (req.interrupted) return "LOST";
  if (req.error || req.timedOut || req.exitCode !== 0) return "FAILED";
  return parsedOk ? "SUCCEEDED" : "FAILED";
}

/**
 * Ends a run: checks the server holds every chunk the agent produced, parses the stored log with
 * the catalog's parser (the log is the source of truth), and records status, result, warnings
 * and the profile snapshot. A second finish for an ended run changes nothing.
 */
export async function finishRun(runId: string, req: FinishRequest): Promise<{ status: RunStatus }> {
  const run = await db().probeRun.findUniqueOrThrow({
    where: { id: runId },
    select: { status: true, probe: true, params: true, repeatGroup: true, host: { select: { mediumOverrides: true } } },
  });
  if (FINAL.includes(run.status)) return { status: run.status };
  const missing = await missingSeqs(runId, req.lastSeq);
  if (missing.length > 0) {
    throw new AppError("CONFLICT", `The server is missing chunks ${missing.slice(0, 10).join(", ")} of this run: send them before finishing.`);
  }
  const log = await readRunLog(runId);
  const parsed = req.lastSeq >= 0 ? parseOutput(run.probe, log) : null;
  const status = statusOf(req, parsed?.ok ?? false);
  const facts = targetFacts(req.profile, run.host?.mediumOverrides);
  const repeats = run.repeatGroup ? await db().probeRun.count({ where: { repeatGroup: run.repeatGroup } }) : 1;
  const warnings =
    parsed?.ok === true
      ? [
          ...parsed.result.warnings,
          ...qualityWarnings({
            probe: run.probe,
            params: run.params,
            result: parsed.result,
            profile: { memory: { totalBytes: facts.memTotalBytes }, target: { fsType: facts.fsType } },
            repeats,
          }),
        ]
      : [];
  let errorMessage = req.error;
  if (!errorMessage && req.timedOut) errorMessage = "The probe ran past its time limit and was stopped.";
  if (!errorMessage && status === "FAILED") {
    const why = parsed && !parsed.ok ? parsed.error : null;
    errorMessage = req.exitCode !== null && req.exitCode !== 0 ? `${run.probe} exited with code ${req.exitCode}${why ? `: ${why}` : ""}` : why;
  }
  const updated = await db().probeRun.update({
    where: { id: runId },
    data: {
      status,
      exitCode: req.exitCode,
      durationMs: req.durationMs,
      finishedAt: new Date(),
      lastActivityAt: new Date(),
      errorMessage,
      profile: (req.profile ?? undefined) as Prisma.InputJsonValue | undefined,
      result: parsed?.ok ? (parsed.result as unknown as Prisma.InputJsonValue) : undefined,
      warnings,
      fsType: facts.fsType,
      medium: facts.medium,
    },
    select: { status: true },
  });
  await notifyRun(runId, "status");
  return updated;
}
