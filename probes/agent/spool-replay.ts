import path from "node:path";
import { LogStreamer, type FinishOutcome, type StreamerDeps } from "./log-streamer";
import type { FinishRequest, SetupReport } from "../protocol/schemas";
import { listSpoolRunIds, RunSpool } from "./spool";

export const INTERRUPTED_ERROR = "the agent stopped while the probe was running; output up to the last chunk is kept";

export interface ReplayOptions {
  spoolRoot: string;
  /** The current registration: spools of an earlier (revoked) one cannot be delivered with it. */
  hostId: string;
  deps: StreamerDeps;
  /** The target's profile now, for runs whose own snapshot was lost with the agent. */
  snapshot?: (target: string) => Promise<Record<string, unknown> | null>;
  /** Lets a shutdown interrupt a replay that waits for an absent server. */
  signal?: AbortSignal;
  /** What this start reverted of each interrupted run's arm (experiment-host.ts recoverHost). */
  setups?: ReadonlyMap<string, SetupReport>;
}

/**
 * Delivers what earlier agent processes left behind: each run's chunks, then its finish. A
 * run without a finish record was cut off by the agent's death (node-pty's child dies with
 * it): it is finished as interrupted, with the output that reached the spool.
 */
export async function replaySpools(opts: ReplayOptions): Promise<Record<string, FinishOutcome>> {
  const outcomes: Record<string, FinishOutcome> = {};
  for (const runId of listSpoolRunIds(opts.spoolRoot)) {
    if (opts.signal?.aborted) break;
    let opened: ReturnType<typeof RunSpool.open>;
    try {
      opened = RunSpool.open(opts.spoolRoot, runId);
    } catch (err) {
      opts.deps.log.error(`spool ${path.join(opts.spoolRoot, runId)} is unreadable (${(err as Error).message}); left in place`);
      continue;
    }
    const { spool, contents } = opened;
    if (contents.meta.hostId !== opts.hostId) {
      const where = spool.moveAside(opts.deps.rejectedRoot);
      opts.deps.log.warn(`run ${runId} belongs to an earlier registration of this host (${contents.meta.hostId}); its spool was moved to ${where}`);
      outcomes[runId] = "rejected";
      continue;
    }
    const lastChunk = contents.chunks.at(-1)?.seq ?? -1;
    const streamer = new LogStreamer(runId, spool, opts.deps, {
      chunks: contents.chunks,
      lastSeq: contents.finish?.lastSeq ?? lastChunk,
    });
    const stop = () => streamer.stop();
    opts.signal?.addEventListener("abort", stop, { once: true });
    let finish = contents.finish;
    if (finish === null) {
      const profile = contents.meta.target && opts.snapshot ? await opts.snapshot(contents.meta.target).catch(() => null) : null;
      const record: FinishRequest = {
        exitCode: null,
        signal: null,
        durationMs: Math.max(0, Math.round(contents.lastWriteMs - Date.parse(contents.meta.startedAt))) || 0,
        lastSeq: lastChunk,
        error: INTERRUPTED_ERROR,
        cancelled: false,
        timedOut: false,
        interrupted: true,
        profile,
        ...(opts.setups?.has(runId) ? { setup: opts.setups.get(runId) } : {}),
      };
      // Written before anything is sent, so that a second crash replays the same finish.
      spool.appendFinish(record);
      finish = record;
    }
    opts.deps.log.info(`run ${runId}: delivering ${contents.chunks.length} spooled chunk(s) and the finish${finish.interrupted ? " (interrupted run)" : ""}`);
    outcomes[runId] = await streamer.deliverFinish(finish);
    opts.signal?.removeEventListener("abort", stop);
  }
  return outcomes;
}
