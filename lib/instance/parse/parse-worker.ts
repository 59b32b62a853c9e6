// Runs in a worker thread (see parse-off-thread.ts): the catalog parser, the caps and the
// quality advice, so that a huge or hostile output costs this thread, never the request thread.
import { parentPort, workerData } from "node:worker_threads";
import { parseOutput } from "../../../probes/catalog";
import { parsePaste } from "../../../probes/paste";
import { qualityWarnings } from "../../../probes/quality";
import { inputTooWide, resultTooLarge } from "./parse-limits";
import type { ParseJob, ParseReply } from "./parse-types";

function work(job: ParseJob): ParseReply {
  const wide = inputTooWide(job.output);
  if (wide) return { kind: "too-large", message: wide };
  const pasted = job.paste ? parsePaste(job.probe, job.output) : null;
  const parsed = pasted ?? parseOutput(job.probe, job.output);
  if (!parsed.ok) return { kind: "failed", error: parsed.error };
  const large = resultTooLarge(parsed.result);
  if (large) return { kind: "too-large", message: large };
  const quality = job.quality
    ? qualityWarnings({
        probe: job.probe,
        params: job.quality.params,
        result: parsed.result,
        profile: { memory: { totalBytes: job.quality.memTotalBytes }, target: { fsType: job.quality.fsType } },
        repeats: job.quality.repeats,
      })
    : [];
  // Serialised here: the request thread hands the text to PostgreSQL without touching the measurements.
  return {
    kind: "parsed",
    resultJson: JSON.stringify(parsed.result),
    format: parsed.result.format ?? null,
    warnings: [...parsed.result.warnings, ...quality],
    measurements: parsed.result.measurements.length,
    ...(pasted && pasted.runs.length > 1 ? { runs: pasted.runs } : {}),
  };
}

parentPort?.postMessage(work(workerData as ParseJob));
