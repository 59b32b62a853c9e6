import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { decodeRunEvent, encodeRunEvent, KEEP_ALIVE_FRAME, MAX_SSE_LINE_CHARS, readRunEvents, readSseFrames, RETRY_FRAME, type RunEvent, type SseFrame } from "./run-events";

function stream(parts: (string | Uint8Array)[]): ReadableStream<Uint8Array> {
  const enc = new TextEncoder();
  return new ReadableStream({
    start(c) {
      for (const p of parts) c.enqueue(typeof p === "string" ? enc.encode(p) : p);
      c.close();
    },
  });
}

async function all<T>(gen: AsyncGenerator<T>): Promise<T[]> {
  const out: T[] = [];
  for await (const x of gen) out.push(x);
  return out;
}

async function frames(parts: string[]): Promise<SseFrame[]> {
  return (await all(readSseFrames(stream(parts)))).flatMap((f) => (f.ok ? [f.frame] : []));
}

const status = { status: "RUNNING", exitCode: null, errorMessage: null, startedAt: "2026-01-01T00:00:00.000Z", finishedAt: null, cancelRequestedAt: null };
const sample = {
  t: 1,
  cpu: { usr: 1, sys: 2, iowait: 3, idle: 94, steal: 0 },
  device: { name: "vda", rs: 0, ws: 1, rkBs: 0, wkBs: 4, rAwait: 0, wAwait: 1, aquSz: 0.1, util: 2 },
  memory: { free: 1, available: 2, cached: 3, dirty: 4, writeback: 0 },
  paging: { pgpgin: 0, pgpgout: 0, majflt: 0, pgscank: 0, pgscand: 0, pgsteal: 0 },
  writeback: { dirtiedKBs: 0, writtenKBs: 0, limitKb: 1, backgroundLimitKb: 1 },
};

const EVENTS: RunEvent[] = [
  { event: "chunk", chunk: { seq: 0, data: "10+0 records in\r\n" } },
  { event: "chunk", chunk: { seq: 1, data: "line\nwith \"quotes\", \\ and data: inside\n\n\r" } },
  { event: "status", status },
  { event: "telemetry", samples: [sample, { ...sample, t: 2, device: null }] },
  { event: "end" },
];

describe("run events: encode and read", () => {
  it("round-trips every event through one stream, split anywhere, and keeps chunk ids", async () => {
    const text = RETRY_FRAME + EVENTS.map(encodeRunEvent).join(KEEP_ALIVE_FRAME);
    for (const parts of [[text], text.split(""), [text.slice(0, 7), text.slice(7, 300), text.slice(300)]]) {
      const read = await all(readRunEvents(stream(parts)));
      expect(read.every((r) => r.ok)).toBe(true);
      expect(read.map((r) => (r.ok ? r.event : null))).toEqual(EVENTS);
      expect(read.map((r) => (r.ok ? r.id : null))).toEqual(["0", "1", undefined, undefined, undefined]);
    }
  });

  it("round-trips any text a probe prints, cut anywhere", async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(fc.string({ unit: "grapheme", maxLength: 40 }), { maxLength: 5 }), fc.array(fc.nat(), { maxLength: 6 }), async (datas, at) => {
        const events: RunEvent[] = [...datas.map((data, seq) => ({ event: "chunk" as const, chunk: { seq, data } })), { event: "end" }];
        // Cut the bytes, as a network does (a cut may fall inside a character).
        const bytes = new TextEncoder().encode(events.map(encodeRunEvent).join(""));
        const cuts = [...new Set(at.map((n) => n % (bytes.length + 1)))].sort((a, b) => a - b);
        const parts = [0, ...cuts].map((c, i, all) => bytes.slice(c, all[i + 1] ?? bytes.length));
        const read = await all(readRunEvents(stream(parts)));
        expect(read.map((r) => (r.ok ? r.event : r.error))).toEqual(events);
      }),
      { numRuns: 200 },
    );
  });

  it("writes the frames the stream has always written", () => {
    expect(encodeRunEvent({ event: "chunk", chunk: { seq: 3, data: "a\n" } })).toBe('id: 3\nevent: chunk\ndata: {"seq":3,"data":"a\\n"}\n\n');
    expect(encodeRunEvent({ event: "end" })).toBe("event: end\ndata: {}\n\n");
    expect(encodeRunEvent({ event: "status", status })).toBe(`event: status\ndata: ${JSON.stringify(status)}\n\n`);
  });

  it("keeps multi-byte characters split across network pieces", async () => {
    const bytes = new TextEncoder().encode(encodeRunEvent({ event: "chunk", chunk: { seq: 0, data: "平均时间: ✓" } }));
    const parts = Array.from(bytes, (b) => Uint8Array.of(b));
    const read = await all(readRunEvents(stream(parts)));
    expect(read).toEqual([{ ok: true, id: "0", event: { event: "chunk", chunk: { seq: 0, data: "平均时间: ✓" } } }]);
  });

  // Moved from cli/cli.test.ts with the reader it tested (cli/sse.ts is now this module's).
  it("reads SSE events split anywhere, with CRLF, comments and retry lines", async () => {
    const text = 'retry: 2000\n\nid: 0\nevent: chunk\ndata: {"seq":0,"data":"a"}\n\n: keep-alive\n\nid: 1\r\nevent: chunk\r\ndata: {"seq":1,"data":"b"}\r\n\r\nevent: end\ndata: {}\n\n';
    const whole = await frames([text]);
    const split = await frames(text.split("")); // one character at a time
    expect(split).toEqual(whole);
    expect(whole.map((e) => [e.event, e.id])).toEqual([
      ["chunk", "0"],
      ["chunk", "1"],
      ["end", undefined],
    ]);
    expect(JSON.parse(whole[1]!.data)).toEqual({ seq: 1, data: "b" });
  });

  it("takes a lone CR as a line end, also when it ends a piece", async () => {
    expect(await frames(["event: end\rdata: {}\r", "\r"])).toEqual([{ event: "end", data: "{}", id: undefined }]);
    expect(await frames(["event: end\r", "\ndata: {}\r\n\r\n"])).toEqual([{ event: "end", data: "{}", id: undefined }]);
  });
});

describe("run events: bad input", () => {
  it("says what is wrong with a frame and never throws", () => {
    const bad: [string, string, string | undefined, RegExp][] = [
      ["chunk", "{not json", undefined, /chunk event: data is not JSON: "\{not json"/],
      ["chunk", '{"seq":-1,"data":"x"}', undefined, /chunk event: seq: /],
      ["chunk", '{"seq":1.5,"data":"x"}', undefined, /chunk event: seq: /],
      ["chunk", '{"seq":1}', undefined, /chunk event: data: /],
      ["chunk", '{"seq":2,"data":"x"}', "3", /id "3" is not its seq 2/],
      ["status", '{"status":""}', undefined, /status event: status: /],
      ["status", "null", undefined, /status event: /],
      ["telemetry", '{"samples":[{"t":"1"}]}', undefined, /telemetry event: samples\.0\.t: /],
      ["telemetry", "[]", undefined, /telemetry event: /],
      ["end", "[]", undefined, /end event: /],
      ["bogus", "{}", undefined, /unknown run event "bogus"/],
      ["message", "hello", undefined, /unknown run event "message"/],
    ];
    for (const [name, data, id, error] of bad) {
      const d = decodeRunEvent(name, data, id);
      expect(d.ok, `${name} ${data}`).toBe(false);
      if (!d.ok) expect(d.error).toMatch(error);
    }
  });

  it("reports malformed frames in order and goes on with the good ones", async () => {
    const text = 'data: no event name\n\nevent: chunk\ndata: {"seq":0,"data":"a"}\ndata: second data line\n\nevent: chunk\nid: 1\ndata: {"seq":1,"data":"b"}\n\nevent: end\ndata: {}\n\n';
    const read = await all(readRunEvents(stream([text])));
    expect(read.map((r) => (r.ok ? r.event.event : `error: ${r.error}`))).toEqual([
      'error: unknown run event "message"',
      expect.stringMatching(/^error: chunk event: data is not JSON/),
      "chunk",
      "end",
    ]);
  });

  it("drops a line too long to be an event instead of buffering it, then reads on", async () => {
    const huge = `data: ${"x".repeat(MAX_SSE_LINE_CHARS + 10)}`;
    const read = await all(readRunEvents(stream(["event: chunk\n", huge.slice(0, 5_000_000), huge.slice(5_000_000), '\n\nevent: chunk\nid: 0\ndata: {"seq":0,"data":"a"}\n\n'])));
    expect(read[0]).toEqual({ ok: false, error: expect.stringMatching(/SSE line of more than/) });
    expect(read.slice(1)).toEqual([{ ok: true, id: "0", event: { event: "chunk", chunk: { seq: 0, data: "a" } } }]);
  });

  it("ignores a frame the stream ended in the middle of, and throws only when the body fails", async () => {
    expect(await all(readRunEvents(stream(['event: chunk\ndata: {"seq":0,"data":"a"}'])))).toEqual([]);
    const failing = new ReadableStream<Uint8Array>({
      pull(c) {
        c.error(new Error("connection reset"));
      },
    });
    await expect(all(readRunEvents(failing))).rejects.toThrow("connection reset");
  });
});
