import { encodeRunEvent, KEEP_ALIVE_FRAME, RETRY_FRAME } from "../../../probes/protocol/run-events";
import { readRunNotification, runChannel } from "../../notifications";
import { instance } from "../../instance/instance";
import { ENDED_STATUSES as ENDED } from "../../run-status";
import { chunksAfter } from "./read-log";
import { readRunStatus, type RunStatusRow } from "../../instance/run-watch";
import { telemetryAfter } from "./get-run-telemetry";

/** What a notification says is new, so a wake-up reads only that. */
interface Due {
  chunks: boolean;
  telemetry: boolean;
  status: boolean;
}

const chunkEvent = (seq: number, data: string) => encodeRunEvent({ event: "chunk", chunk: { seq, data } });

/**
 * Server-Sent Events for one run: replays the log after `afterSeq` (the browser's Last-Event-ID),
 * then follows it live. Wake-ups come from PostgreSQL NOTIFY, so any app instance serves any
 * browser; one sweep per instance (run-watch.ts) covers notifications lost while the database
 * connection was down. A live probe's lines arrive inside the notification and go straight to
 * the socket, in order, without a query; anything else (a gap, a large upload, telemetry, a
 * status change) is read from the database. What one wake-up finds is written in one write.
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
  const due: Due = { chunks: true, telemetry: true, status: true };
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
          text += encodeRunEvent({ event: "status", status: run });
        }
        const ended = ENDED.has(run.status);
        if (ended) text += encodeRunEvent({ event: "end" });
        return { text, ended };
      };
      const readChunks = async (): Promise<string> => {
        let out = "";
        for (;;) {
          const chunks = await chunksAfter(runId, lastSeq);
          for (const c of chunks) {
            out += chunkEvent(c.seq, c.data);
            lastSeq = c.seq;
          }
          if (chunks.length < 500) return out;
        }
      };
      const readTelemetry = async (): Promise<string> => {
        let out = "";
        for (;;) {
          const samples = await telemetryAfter(runId, lastT);
          if (samples.length === 0) return out;
          out += encodeRunEvent({ event: "telemetry", samples });
          lastT = samples.at(-1)!.t;
          if (samples.length < 500) return out;
        }
      };
      // Coalesces wake-ups: one pump at a time, and one more if woken meanwhile.
      const pump = async (what: Partial<Due>): Promise<void> => {
        due.chunks ||= !!what.chunks;
        due.telemetry ||= !!what.telemetry;
        due.status ||= !!what.status;
        if (busy) {
          again = true;
          return;
        }
        busy = true;
        try {
          do {
            again = false;
            let out = "";
            if (due.chunks) {
              due.chunks = false;
              out += await readChunks();
            }
            if (due.telemetry) {
              due.telemetry = false;
              out += await readTelemetry();
            }
            if (due.status) {
              due.status = false;
              const run = await readRunStatus(runId);
              if (!run) {
                send(out);
                return close();
              }
              const s = statusText(run);
              // A chunk committed between the log query and the status read (just before the
              // finish) is not in `out` yet: read once more before the end.
              if (s.ended) out += await readChunks();
              send(out + s.text);
              if (s.ended) return close();
            } else {
              send(out);
            }
          } while (again);
        } catch {
          // The database is away for a moment: read everything again at the next sweep.
          Object.assign(due, { chunks: true, telemetry: true, status: true });
        } finally {
          busy = false;
        }
      };
      const onNotification = (payload: string) => {
        if (closed) return;
        const n = readRunNotification(payload);
        if (n?.kind === "chunks") {
          const items = n.items;
          // In order and nothing read meanwhile: straight to the socket. Otherwise read the log.
          const fresh = items.filter(([seq]) => seq > lastSeq);
          if (!busy && fresh.every(([seq], i) => seq === lastSeq + 1 + i)) {
            send(fresh.map(([seq, data]) => chunkEvent(seq, data)).join(""));
            lastSeq += fresh.length;
          } else if (fresh.length > 0) {
            void pump({ chunks: true });
          }
          return;
        }
        if (n?.kind === "chunk") return void pump({ chunks: true });
        if (n?.kind === "telemetry") return void pump({ telemetry: true });
        // A status change, or a payload this instance cannot read: read everything.
        void pump({ chunks: true, telemetry: true, status: true });
      };
      signal.addEventListener("abort", close, { once: true });
      send(RETRY_FRAME);
      unsubscribe = await instance().listener.subscribe(runChannel(runId), onNotification);
      unwatch = instance().runWatch.add(runId, {
        onSweep: (row) => {
          if (closed) return;
          if (!row) return close();
          const changed = JSON.stringify(row.status) !== lastStatus;
          // Telemetry rides in chunks: output missed means samples may have been missed too.
          if (row.maxSeq > lastSeq || changed) void pump({ chunks: true, telemetry: true, status: changed });
        },
      });
      timers.push(setInterval(() => send(KEEP_ALIVE_FRAME), 15000));
      await pump({});
    },
    cancel() {
      closed = true;
      unsubscribe();
      unwatch();
      timers.forEach(clearInterval);
    },
  });
}
