import crypto from "node:crypto";
import { describe, expect, it } from "vitest";
import { generateSecret, hashSecret } from "../../auth/secret-token";
import { db } from "../../db";
import { connectTestDatabase } from "../../testing/db";
import { ingestChunks } from "../agent/ingest-chunks";
import { instance } from "../../instance/instance";
import { runChannel } from "../../notifications";
import { readSseFrames, type SseFrame } from "../../../probes/protocol/run-events";
import { finishRun } from "./finish-run";
import { runEventStream } from "./run-event-stream";

connectTestDatabase();

type Ev = SseFrame;

/** Reads SSE events until `end` (or the stream closes), with the protocol's frame reader. */
async function collect(stream: ReadableStream<Uint8Array>, onEvent: (e: Ev, all: Ev[]) => Promise<void> | void): Promise<Ev[]> {
  const events: Ev[] = [];
  for await (const f of readSseFrames(stream)) {
    if (!f.ok) throw new Error(f.error);
    const e = f.frame;
    events.push(e);
    await onEvent(e, events);
    if (e.event === "end") return events;
  }
  return events;
}

describe("runEventStream", () => {
  it("sends small uploads from their notification and large ones from the log, in order, once each, then the end", async () => {
    const credentialHash = hashSecret(generateSecret("pba"));
    const host = await db().host.create({ data: { name: `sse-${crypto.randomUUID().slice(0, 8)}`, agentCredentialHash: credentialHash } });
    const run = await db().probeRun.create({ data: { hostId: host.id, probe: "dd", params: {}, status: "RUNNING", startedAt: new Date(), lastActivityAt: new Date() } });
    const big = `${"x".repeat(20_000)}\n`;
    const abort = new AbortController();
    const payloads: string[] = [];
    const stopListening = await instance().listener.subscribe(runChannel(run.id), (p) => payloads.push(p));
    const upload = (seq: number, data: string) => ingestChunks({ credentialHash, runId: run.id, chunks: [{ seq, data }] });
    const events = await collect(runEventStream(run.id, -1, abort.signal), async (e, all) => {
      // The agent's side, driven by what the browser has seen: one upload after the first status.
      if (e.event !== "status" || all.filter((x) => x.event === "status").length > 1) return;
      await upload(0, "line 0\n");
      await upload(1, "line 1\n");
      expect((await upload(1, "line 1\n")).duplicates).toBe(1);
      await upload(2, big);
      await ingestChunks({ credentialHash, runId: run.id, chunks: [{ seq: 3, data: "line 3\n" }, { seq: 4, data: "line 4\n" }] });
      await finishRun({ runId: run.id, finish: { exitCode: 0, signal: null, durationMs: 10, lastSeq: 4, error: null, cancelled: false, timedOut: false, interrupted: false, profile: null, setup: null } });
    });
    const chunks = events.filter((e) => e.event === "chunk").map((e) => ({ id: e.id, ...(JSON.parse(e.data) as { seq: number; data: string }) }));
    expect(chunks.map((c) => c.seq)).toEqual([0, 1, 2, 3, 4]);
    expect(chunks.map((c) => c.id)).toEqual(["0", "1", "2", "3", "4"]);
    expect(chunks.map((c) => c.data)).toEqual(["line 0\n", "line 1\n", big, "line 3\n", "line 4\n"]);
    expect(events.at(-1)?.event).toBe("end");
    // What the watchers were told: small uploads carry their lines, the large one only its seq.
    expect(payloads.filter((p) => p.startsWith("chunk"))).toEqual([
      'chunks:[[0, "line 0\\n"]]',
      'chunks:[[1, "line 1\\n"]]',
      "chunk:2",
      'chunks:[[3, "line 3\\n"], [4, "line 4\\n"]]',
    ]);
    stopListening();
    // Finished (failed: "line 0" is not dd's output), and the browser was told so.
    expect(JSON.parse(events.filter((e) => e.event === "status").at(-1)!.data)).toMatchObject({ status: "FAILED", finishedAt: expect.any(String) });
    abort.abort();
  });

  it("replays after the browser's Last-Event-ID only", async () => {
    const credentialHash = hashSecret(generateSecret("pba"));
    const host = await db().host.create({ data: { name: `sse-${crypto.randomUUID().slice(0, 8)}`, agentCredentialHash: credentialHash } });
    const run = await db().probeRun.create({ data: { hostId: host.id, probe: "dd", params: {}, status: "RUNNING", startedAt: new Date(), lastActivityAt: new Date() } });
    await ingestChunks({ credentialHash, runId: run.id, chunks: [0, 1, 2].map((seq) => ({ seq, data: `line ${seq}\n` })) });
    await finishRun({ runId: run.id, finish: { exitCode: 0, signal: null, durationMs: 10, lastSeq: 2, error: null, cancelled: false, timedOut: false, interrupted: false, profile: null, setup: null } });
    const events = await collect(runEventStream(run.id, 0, new AbortController().signal), () => undefined);
    expect(events.filter((e) => e.event === "chunk").map((e) => e.id)).toEqual(["1", "2"]);
    expect(events.at(-1)?.event).toBe("end");
  });
});
