// A minimal EventSource over fetch (no polyfill in node_modules): enough of the SSE format for
// /api/runs/:id/events, stamping each event with the time its bytes came off the socket.
import { nowMs } from "./stats";

export interface SseEvent {
  event: string;
  data: string;
  id: string | null;
}

export interface SseClient {
  /** Resolves at the first `status` event: the server has subscribed to the run's channel by then. */
  ready: Promise<void>;
  /** Resolves at `end` or when the stream closes; rejects on an HTTP error. */
  done: Promise<void>;
  close(): void;
}

export function openRunEvents(base: string, token: string, runId: string, onEvent: (ev: SseEvent, receivedMs: number) => void): SseClient {
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
    const reader = res.body.pipeThrough(new TextDecoderStream()).getReader();
    let buf = "";
    for (;;) {
      const { value, done: eof } = await reader.read();
      if (eof) return;
      // One timestamp per read: every event in these bytes arrived at the same moment.
      const at = nowMs();
      buf += value.replace(/\r\n?/g, "\n");
      let cut: number;
      while ((cut = buf.indexOf("\n\n")) >= 0) {
        const block = buf.slice(0, cut);
        buf = buf.slice(cut + 2);
        const ev = parseBlock(block);
        if (!ev) continue;
        if (ev.event === "status") markReady();
        onEvent(ev, at);
        if (ev.event === "end") {
          abort.abort();
          return;
        }
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

/** One event block; null for comments and retry-only blocks. */
function parseBlock(block: string): SseEvent | null {
  let event = "message";
  let id: string | null = null;
  const data: string[] = [];
  for (const line of block.split("\n")) {
    if (line === "" || line.startsWith(":")) continue;
    const colon = line.indexOf(":");
    const field = colon < 0 ? line : line.slice(0, colon);
    const value = colon < 0 ? "" : line.slice(colon + 1).replace(/^ /, "");
    if (field === "event") event = value;
    else if (field === "data") data.push(value);
    else if (field === "id") id = value;
  }
  return data.length > 0 ? { event, data: data.join("\n"), id } : null;
}
