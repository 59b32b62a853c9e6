import { pgListener, runChannel } from "../realtime/pg-listener";
import { ENDED_STATUSES as ENDED } from "../../run-status";
import { chunksAfter } from "./read-log";
import { readRunStatus, runWatchSweep, type RunStatusRow } from "./run-watch";
import { telemetryAfter } from "./get-run-telemetry";

/**
 * Server-Sent Events for one run: replays the log after `afterSeq` (the browser's Last-Event-ID),
 * then follows it live. Wake-ups come from PostgreSQL NOTIFY, so any app instance serves any
 * browser; one sweep per instance (run-watch.ts) covers notifications lost while the database
 * connection was down. What one wake-up finds is written to the socket in one write.
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
  // A chunk notification needs only the log query; the status is re-read on status notifications.
  let statusDue = true;
  let unsubscribe: () => void = () => undefined;
  let unwatch: () => void = () => undefined;
  const timers: NodeJS.Timeout[] = [];

  return new ReadableStream<Uint8Array>({
    async start(controller) {
      const send = (text: string) => {
        if (!closed && text) controller.enqueue(enc.encode(text));
      };
      const close = () => {
        if (closed) return;
        closed = true;
        unsubscribe();
        unwatch();
        timers.forEach(clearInterval);
        controller.close();
      };
      /** The status event when it changed, and the end; returns the text to send and whether the run ended. */
      const statusText = (run: RunStatusRow): { text: string; ended: boolean } => {
        const status = JSON.stringify(run);
        let text = "";
        if (status !== lastStatus) {
          lastStatus = status;
          text += `event: status\ndata: ${status}\n\n`;
        }
        const ended = ENDED.has(run.status);
        if (ended) text += `event: end\ndata: {}\n\n`;
        return { text, ended };
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
            let out = "";
            for (;;) {
              const chunks = await chunksAfter(runId, lastSeq);
              for (const c of chunks) {
                out += `id: ${c.seq}\nevent: chunk\ndata: ${JSON.stringify(c)}\n\n`;
                lastSeq = c.seq;
              }
              if (chunks.length < 500) break;
            }
            for (;;) {
              const samples = await telemetryAfter(runId, lastT);
              if (samples.length === 0) break;
              out += `event: telemetry\ndata: ${JSON.stringify({ samples })}\n\n`;
              lastT = samples.at(-1)!.t;
              if (samples.length < 500) break;
            }
            if (statusDue) {
              statusDue = false;
              const run = await readRunStatus(runId);
              if (!run) {
                send(out);
                return close();
              }
              const s = statusText(run);
              if (s.ended) {
                // A chunk committed between the log query and the status read (just before the
                // finish) is not in `out` yet: read once more before the end.
                for (const c of await chunksAfter(runId, lastSeq)) {
                  out += `id: ${c.seq}\nevent: chunk\ndata: ${JSON.stringify(c)}\n\n`;
                  lastSeq = c.seq;
                }
              }
              send(out + s.text);
              if (s.ended) return close();
            } else {
              send(out);
            }
          } while (again);
        } catch {
          // The database is away for a moment; the next sweep retries.
        } finally {
          busy = false;
        }
      };
      signal.addEventListener("abort", close, { once: true });
      send(`retry: 2000\n\n`);
      unsubscribe = await pgListener().subscribe(runChannel(runId), (payload) => void pump(!/^(chunk|telemetry):/.test(payload)));
      unwatch = runWatchSweep().add(runId, {
        onSweep: (row) => {
          if (closed) return;
          if (!row) return close();
          const changed = JSON.stringify(row.status) !== lastStatus;
          if (row.maxSeq > lastSeq || changed) void pump(changed);
        },
      });
      timers.push(setInterval(() => send(`: keep-alive\n\n`), 15000));
      await pump(true);
    },
    cancel() {
      closed = true;
      unsubscribe();
      unwatch();
      timers.forEach(clearInterval);
    },
  });
}
