// The run stream's client for benchmarks: the protocol's reader (probes/protocol/run-events.ts)
// over fetch, stamping each event with the time its last bytes came off the socket.
import { readRunEvents, type RunEvent } from "../../probes/protocol/run-events";
import { nowMs } from "./stats";

export interface SseClient {
  /** Resolves at the first `status` event: the server has subscribed to the run's channel by then. */
  ready: Promise<void>;
  /** Resolves at `end` or when the stream closes; rejects on an HTTP error or a malformed event. */
  done: Promise<void>;
  close(): void;
}

export function openRunEvents(base: string, token: string, runId: string, onEvent: (ev: RunEvent, receivedMs: number) => void): SseClient {
  const abort = new AbortController();
  let markReady: () => void = () => undefined;
  let failReady: (err: unknown) => void = () => undefined;
  const ready = new Promise<void>((resolve, reject) => {
    markReady = resolve;
    failReady = reject;
  });
  const done = (async () => {
    const res = await fetch(`${base}/api/runs/${runId}/events`, {
      headers: { authorization: `Bearer ${token}`, accept: "text/event-stream" },
      signal: abort.signal,
    });
    if (!res.ok || !res.body) throw new Error(`SSE ${runId}: HTTP ${res.status} ${(await res.text()).slice(0, 200)}`);
    // One timestamp per read: every event completed by those bytes arrived at the same moment.
    let at = nowMs();
    // Pulled on demand (no read-ahead), so `at` is the read that completed the event.
    const source = res.body.getReader();
    const stamped = new ReadableStream<Uint8Array>(
      {
        async pull(c) {
          const { value, done: eof } = await source.read();
          at = nowMs();
          if (eof) c.close();
          else c.enqueue(value);
        },
        cancel: (why) => source.cancel(why),
      },
      { highWaterMark: 0 },
    );
    for await (const r of readRunEvents(stamped)) {
      // A benchmark must not measure around a broken stream.
      if (!r.ok) throw new Error(`SSE ${runId}: ${r.error}`);
      if (r.event.event === "status") markReady();
      onEvent(r.event, at);
      if (r.event.event === "end") {
        abort.abort();
        return;
      }
    }
  })().catch((err: unknown) => {
    if (abort.signal.aborted) return;
    failReady(err);
    throw err;
  });
  // An unhandled rejection of `ready` would crash the process; callers see the error via `done`.
  ready.catch(() => undefined);
  return { ready, done, close: () => abort.abort() };
}
