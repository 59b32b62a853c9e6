import { describe, expect, it } from "vitest";
import { paramPairs, runId } from "./args";
import { connection } from "./client";
import { EXIT, exitCodeOfStatus } from "./exit-codes";
import { readSse, type SseEvent } from "./sse";

function stream(parts: string[]): ReadableStream<Uint8Array> {
  const enc = new TextEncoder();
  return new ReadableStream({
    start(c) {
      for (const p of parts) c.enqueue(enc.encode(p));
      c.close();
    },
  });
}

async function events(parts: string[]): Promise<SseEvent[]> {
  const out: SseEvent[] = [];
  for await (const e of readSse(stream(parts))) out.push(e);
  return out;
}

describe("the CLI's pieces", () => {
  it("reads SSE events split anywhere, with CRLF, comments and retry lines", async () => {
    const text = 'retry: 2000\n\nid: 0\nevent: chunk\ndata: {"seq":0,"data":"a"}\n\n: keep-alive\n\nid: 1\r\nevent: chunk\r\ndata: {"seq":1,"data":"b"}\r\n\r\nevent: end\ndata: {}\n\n';
    const whole = await events([text]);
    const split = await events(text.split("")); // one character at a time
    expect(split).toEqual(whole);
    expect(whole.map((e) => [e.event, e.id])).toEqual([
      ["chunk", "0"],
      ["chunk", "1"],
      ["end", undefined],
    ]);
    expect(JSON.parse(whole[1]!.data)).toEqual({ seq: 1, data: "b" });
  });

  it("maps run outcomes to distinct exit codes", () => {
    expect(exitCodeOfStatus("SUCCEEDED")).toBe(0);
    expect(new Set(["FAILED", "CANCELLED", "LOST"].map(exitCodeOfStatus)).size).toBe(3);
    expect(exitCodeOfStatus("FAILED")).toBe(EXIT.RUN_FAILED);
    expect(Object.values(EXIT).length).toBe(new Set(Object.values(EXIT)).size);
  });

  it("reads --param values as JSON where they look like it, else as text", () => {
    expect(paramPairs(["sizeMiB=64", "direct=true", "mode=write", "label=a=b", "list=[1,2]"])).toEqual({ sizeMiB: 64, direct: true, mode: "write", label: "a=b", list: [1, 2] });
    expect(() => paramPairs(["novalue"])).toThrow(expect.objectContaining({ exitCode: EXIT.USAGE }));
    expect(() => paramPairs(["x={bad"])).not.toThrow();
  });

  it("refuses bad arguments with exit 2 before sending anything", () => {
    expect(() => runId("12")).toThrow(expect.objectContaining({ exitCode: EXIT.USAGE }));
    expect(() => connection({ server: "ftp://x", token: "t" }, {})).toThrow(expect.objectContaining({ exitCode: EXIT.USAGE }));
    expect(() => connection({ server: "http://x" }, {})).toThrow(/PROBEBOOK_TOKEN/);
    expect(connection({}, { PROBEBOOK_SERVER: "http://h:3000/", PROBEBOOK_TOKEN: "pbt_x" })).toEqual({ server: "http://h:3000", token: "pbt_x" });
  });
});
