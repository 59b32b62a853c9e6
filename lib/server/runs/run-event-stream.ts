import { db } from "../../db";
import { pgListener, runChannel } from "../realtime/pg-listener";
import { ENDED_STATUSES as ENDED } from "../../run-status";
import { chunksAfter } from "./read-log";
import { telemetryAfter } from "./get-run-telemetry";

/**
 * Server-Sent Events for one run: replays the log after `afterSeq` (the browser's Last-Event-ID),
 * then follows it live. Wake-ups come from PostgreSQL NOTIFY, so any app instance serves any
 * browser; a slow poll covers notifications lost while the database connection was down.
 */
export function runEventStream(runId: string, afterSeq: number, signal: AbortSignal): ReadableStream<Uint8Array> {
  const enc = new TextEncoder();
  let lastSeq = afterSeq;
  // Telemetry is replayed whole on a reconnect (the browser keys samples by t): Last-Event-ID
  // numbers the log only.
  let lastT = -1;
  let lastStatus = "";
  let closed = false;
  let busy = false;
  let again = false;
  // A chunk notification needs only the log query; the status is re-read on status
  // notifications and on the safety tick, which halves the queries of a busy stream.
  let statusDue = true;
  let unsubscribe: () => void = () => undefined;
  const timers: NodeJS.Timeout[] = [];

  return new ReadableStream<Uint8Array>({
    async start(controller) {
      const send = (text: string) => {
        if (!closed) controller.enqueue(enc.encode(text));
      };
      const close = () => {
        if (closed) return;
        closed = true;
        unsubscribe();
        timers.forEach(clearInterval);
        controller.close();
      };
      // Coalesces wake-ups: one pump at a time, and one more if woken meanwhile.
      const pump = async (withStatus: boolean): Promise<void> => {
        if (withStatus) statusDue = true;
        if (busy) {
          again = true;
          return;
        }
        busy = true;
        try {
          do {
            again = false;
            for (;;) {
              const chunks = await chunksAfter(runId, lastSeq);
              for (const c of chunks) {
                send(`id: ${c.seq}\nevent: chunk\ndata: ${JSON.stringify(c)}\n\n`);
                lastSeq = c.seq;
              }
              if (chunks.length < 500) break;
            }
            for (;;) {
              const samples = await telemetryAfter(runId, lastT);
              if (samples.length === 0) break;
              send(`event: telemetry\ndata: ${JSON.stringify({ samples })}\n\n`);
              lastT = samples.at(-1)!.t;
              if (samples.length < 500) break;
            }
            if (!statusDue) continue;
            statusDue = false;
            const run = await db().probeRun.findUnique({
              where: { id: runId },
              select: { status: true, exitCode: true, errorMessage: true, startedAt: true, finishedAt: true, cancelRequestedAt: true },
            });
            if (!run) return close();
            const status = JSON.stringify(run);
            if (status !== lastStatus) {
              lastStatus = status;
              send(`event: status\ndata: ${status}\n\n`);
            }
            if (ENDED.has(run.status)) {
              send(`event: end\ndata: {}\n\n`);
              return close();
            }
          } while (again);
        } catch {
          // The database is away for a moment; the next tick retries.
        } finally {
          busy = false;
        }
      };
      signal.addEventListener("abort", close, { once: true });
      send(`retry: 2000\n\n`);
      unsubscribe = await pgListener().subscribe(runChannel(runId), (payload) => void pump(!/^(chunk|telemetry):/.test(payload)));
      timers.push(setInterval(() => void pump(true), 2000));
      timers.push(setInterval(() => send(`: keep-alive\n\n`), 15000));
      await pump(true);
    },
    cancel() {
      closed = true;
      unsubscribe();
      timers.forEach(clearInterval);
    },
  });
}
