// The server → browser/CLI wire of a run's live view: the Server-Sent Events of
// GET /api/runs/:id/events. The server writes every frame with encodeRunEvent, the CLI and the
// tests read them with readRunEvents, the browser's EventSource hands each event's name and data
// to decodeRunEvent: one grammar, checked with the same schemas on both ends.
//
// zod/mini rather than zod: this module ships to the run page, and the mini build tree-shakes to
// the few checks used here instead of zod's whole classic API.
import * as z from "zod/mini";

/** One piece of the run's log; `seq` is also the frame's id, so Last-Event-ID resumes after it. */
export const runChunkEventSchema = z.object({
  seq: z.int().check(z.minimum(0)),
  data: z.string(),
});
export type RunChunkEvent = z.infer<typeof runChunkEventSchema>;

/**
 * What a live view shows of a run besides its log (the server reads it with plain SQL,
 * lib/server/runs/run-watch.ts). Statuses are lib/run-status.ts's list, which probes/ may not
 * import; a status the page does not know is still shown as text, so any non-empty one passes.
 */
export const runStatusEventSchema = z.object({
  status: z.string().check(z.minLength(1)),
  exitCode: z.nullable(z.int()),
  errorMessage: z.nullable(z.string()),
  startedAt: z.nullable(z.string()),
  finishedAt: z.nullable(z.string()),
  cancelRequestedAt: z.nullable(z.string()),
});
export type RunStatusEvent = z.infer<typeof runStatusEventSchema>;

const num = z.number();
/**
 * A telemetry sample as the timeline panels read it. The whole sample was checked against the
 * agent protocol's telemetrySampleSchema on ingest and again when read from the database; the
 * wire checks the fields a browser draws and lets the rest through (loose objects), so a field
 * the agent adds later reaches the page without a change here.
 */
export const runTelemetrySampleSchema = z.looseObject({
  t: num,
  cpu: z.looseObject({ iowait: num, steal: num }),
  device: z.nullable(z.looseObject({ rkBs: num, wkBs: num, rAwait: num, wAwait: num, util: num, aquSz: num })),
  memory: z.looseObject({ dirty: num, writeback: num }),
  paging: z.looseObject({ pgscand: num, pgscank: num }),
});
/** The checked fields (extra ones pass through untyped; a server's own sample types fit as they are). */
export interface RunTelemetrySample {
  t: number;
  cpu: { iowait: number; steal: number };
  device: { rkBs: number; wkBs: number; rAwait: number; wAwait: number; util: number; aquSz: number } | null;
  memory: { dirty: number; writeback: number };
  paging: { pgscand: number; pgscank: number };
}
export const runTelemetryEventSchema = z.object({ samples: z.array(runTelemetrySampleSchema) });

/** The stream's last event: the run has ended and nothing more will follow. */
export const runEndEventSchema = z.object({});

/** Every event of a run's stream, by its SSE event name. */
export type RunEvent =
  | { event: "chunk"; chunk: RunChunkEvent }
  | { event: "status"; status: RunStatusEvent }
  | { event: "telemetry"; samples: readonly RunTelemetrySample[] }
  | { event: "end" };

export type RunEventName = RunEvent["event"];
export const RUN_EVENT_NAMES: readonly RunEventName[] = ["chunk", "status", "telemetry", "end"];

/** Milliseconds a browser waits before reconnecting (the stream's first frame). */
export const RUN_EVENTS_RETRY_MS = 2000;
/** A comment frame that keeps proxies from closing an idle stream; readers skip it. */
export const KEEP_ALIVE_FRAME = ": keep-alive\n\n";
export const RETRY_FRAME = `retry: ${RUN_EVENTS_RETRY_MS}\n\n`;

/**
 * One event as an SSE frame. JSON.stringify never writes a raw line break, so every payload is
 * one `data:` line; a chunk carries its seq as the frame id.
 */
export function encodeRunEvent(e: RunEvent): string {
  switch (e.event) {
    case "chunk":
      return `id: ${e.chunk.seq}\nevent: chunk\ndata: ${JSON.stringify({ seq: e.chunk.seq, data: e.chunk.data })}\n\n`;
    case "status":
      return `event: status\ndata: ${JSON.stringify(e.status)}\n\n`;
    case "telemetry":
      return `event: telemetry\ndata: ${JSON.stringify({ samples: e.samples })}\n\n`;
    case "end":
      return `event: end\ndata: {}\n\n`;
  }
}

export type Decoded = { ok: true; event: RunEvent } | { ok: false; error: string };

const clip = (s: string, n = 80) => (s.length > n ? `${s.slice(0, n)}…` : s);

function issuesOf(error: z.core.$ZodError): string {
  return error.issues
    .slice(0, 3)
    .map((i) => `${i.path.length > 0 ? `${i.path.join(".")}: ` : ""}${i.message}`)
    .join("; ");
}

/**
 * One event from its name and data (an EventSource's MessageEvent, or a frame readSseFrames
 * read); `id`, when given, must be the chunk's seq. Never throws: bad input is an error saying
 * which event and what was wrong, for the caller to skip or report.
 */
export function decodeRunEvent(name: string, data: string, id?: string): Decoded {
  if (!(RUN_EVENT_NAMES as readonly string[]).includes(name)) return { ok: false, error: `unknown run event "${clip(name, 40)}"` };
  let json: unknown;
  try {
    json = JSON.parse(data);
  } catch {
    return { ok: false, error: `${name} event: data is not JSON: ${JSON.stringify(clip(data))}` };
  }
  switch (name as RunEventName) {
    case "chunk": {
      const r = runChunkEventSchema.safeParse(json);
      if (!r.success) return { ok: false, error: `chunk event: ${issuesOf(r.error)}` };
      if (id !== undefined && id !== String(r.data.seq)) return { ok: false, error: `chunk event: id ${JSON.stringify(clip(id, 20))} is not its seq ${r.data.seq}` };
      return { ok: true, event: { event: "chunk", chunk: r.data } };
    }
    case "status": {
      const r = runStatusEventSchema.safeParse(json);
      return r.success ? { ok: true, event: { event: "status", status: r.data } } : { ok: false, error: `status event: ${issuesOf(r.error)}` };
    }
    case "telemetry": {
      const r = runTelemetryEventSchema.safeParse(json);
      return r.success ? { ok: true, event: { event: "telemetry", samples: r.data.samples } } : { ok: false, error: `telemetry event: ${issuesOf(r.error)}` };
    }
    case "end": {
      const r = runEndEventSchema.safeParse(json);
      return r.success ? { ok: true, event: { event: "end" } } : { ok: false, error: `end event: ${issuesOf(r.error)}` };
    }
  }
}

/** One SSE frame as the stream carried it: its event name ("message" when unnamed), data and id. */
export interface SseFrame {
  event: string;
  data: string;
  id?: string;
}

/**
 * A line longer than this is not one of ours (the largest event is a replayed chunk or a batch of
 * 500 telemetry samples, well under it): it is dropped with an error instead of buffered forever.
 */
export const MAX_SSE_LINE_CHARS = 16 * 1024 * 1024;

export type FrameOrError = { ok: true; frame: SseFrame } | { ok: false; error: string };

/**
 * Reads an SSE body into frames (the subset the run stream uses: event, data, id; comments and
 * retry lines are skipped; lines end with \n, \r\n or \r). A line over MAX_SSE_LINE_CHARS comes
 * out as an error and is skipped; only the body itself failing (a dropped connection) throws.
 */
export async function* readSseFrames(body: ReadableStream<Uint8Array>): AsyncGenerator<FrameOrError> {
  const decoder = new TextDecoder();
  let buf = "";
  let skipping = false;
  let current: { event?: string; data: string[]; id?: string } = { data: [] };
  const reader = body.getReader();
  try {
    for (;;) {
      const { done, value } = await reader.read();
      buf += done ? decoder.decode() : decoder.decode(value, { stream: true });
      for (;;) {
        const m = /\r\n|\r|\n/.exec(buf);
        // A lone \r at the end may be the first half of \r\n: wait for the next piece.
        if (!m || (m[0] === "\r" && m.index === buf.length - 1 && !done)) break;
        const line = buf.slice(0, m.index);
        buf = buf.slice(m.index + m[0].length);
        if (skipping) {
          skipping = false;
          continue;
        }
        if (line === "") {
          if (current.data.length > 0 || current.event) yield { ok: true, frame: { event: current.event ?? "message", data: current.data.join("\n"), id: current.id } };
          current = { data: [] };
          continue;
        }
        if (line.startsWith(":")) continue;
        const colon = line.indexOf(":");
        const field = colon < 0 ? line : line.slice(0, colon);
        const text = colon < 0 ? "" : line.slice(colon + 1).replace(/^ /, "");
        if (field === "event") current.event = text;
        else if (field === "data") current.data.push(text);
        else if (field === "id") current.id = text;
      }
      if (buf.length > MAX_SSE_LINE_CHARS) {
        yield { ok: false, error: `an SSE line of more than ${MAX_SSE_LINE_CHARS} characters was dropped` };
        buf = "";
        skipping = true;
        current = { data: [] };
      }
      if (done) return;
    }
  } finally {
    reader.releaseLock();
  }
}

export type RunEventOrError = { ok: true; event: RunEvent; id?: string } | { ok: false; error: string };

/**
 * A run's event stream as typed events. Malformed frames and unknown events come out as errors
 * in stream order (a reader may log and go on); the generator throws only when the body does.
 */
export async function* readRunEvents(body: ReadableStream<Uint8Array>): AsyncGenerator<RunEventOrError> {
  for await (const f of readSseFrames(body)) {
    if (!f.ok) {
      yield f;
      continue;
    }
    const d = decodeRunEvent(f.frame.event, f.frame.data, f.frame.id);
    yield d.ok ? { ok: true, event: d.event, ...(f.frame.id !== undefined ? { id: f.frame.id } : {}) } : d;
  }
}
