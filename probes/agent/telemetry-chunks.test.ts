// Telemetry samples travel in the run's numbered chunks: sealed with (or without) text, written
// to the spool, read back after a crash exactly as they were, and validated by the protocol.
import { randomUUID } from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { chunkSchema, type Chunk } from "../protocol/schemas";
import type { TelemetrySample } from "../telemetry/types";
import { ChunkBuffer } from "./chunk-buffer";
import { RunSpool } from "./spool";
import { startTelemetry } from "./telemetry-loop";

const root = fs.mkdtempSync(path.join(os.tmpdir(), "probebook-telemetry-chunks-"));
afterAll(() => fs.rmSync(root, { recursive: true, force: true }));

// Real samples captured on this machine (lib/diagnosis/fixtures/INDEX.md says how).
const captured = (JSON.parse(fs.readFileSync(path.join(import.meta.dirname, "../../lib/diagnosis/fixtures/telemetry-fio-seqwrite-qd64-loop.json"), "utf8")) as { samples: TelemetrySample[] }).samples;

describe("telemetry in chunks", () => {
  it("the protocol accepts real samples", () => {
    for (const s of captured) expect(chunkSchema.safeParse({ seq: 0, data: "", telemetry: [s] }).success).toBe(true);
  });

  it("a sample rides with text: waiting text takes it, or it waits for the next text", async () => {
    const sealed: Chunk[] = [];
    const b = new ChunkBuffer({ firstSeq: 0, flushMs: 50, sampleWaitMs: 200, busy: () => false, onSealed: (c) => sealed.push(c), ready: () => undefined });
    b.write("1048576 bytes copied");
    b.addSample(captured[0]!);
    await new Promise((r) => setImmediate(r));
    b.addSample(captured[1]!);
    await new Promise((r) => setTimeout(r, 50));
    expect(sealed).toHaveLength(1);
    b.write("2097152 bytes copied");
    await new Promise((r) => setImmediate(r));
    expect(sealed).toEqual([
      { seq: 0, data: "1048576 bytes copied", telemetry: [captured[0]] },
      { seq: 1, data: "2097152 bytes copied", telemetry: [captured[1]] },
    ]);
  });

  it("a sample goes alone when no text comes within sampleWaitMs", async () => {
    const sealed: Chunk[] = [];
    const b = new ChunkBuffer({ firstSeq: 3, flushMs: 50, sampleWaitMs: 100, busy: () => false, onSealed: (c) => sealed.push(c), ready: () => undefined });
    b.addSample(captured[0]!);
    expect(b.empty).toBe(false);
    await new Promise((r) => setTimeout(r, 30));
    expect(sealed).toEqual([]);
    await new Promise((r) => setTimeout(r, 150));
    expect(sealed).toEqual([{ seq: 3, data: "", telemetry: [captured[0]] }]);
    expect(b.empty).toBe(true);
  });

  it("the spool keeps samples through a restart", () => {
    const runId = randomUUID();
    const spool = RunSpool.create(root, { runId, hostId: "h", probe: "dd", target: "/t", startedAt: new Date().toISOString() });
    spool.appendChunk({ seq: 0, data: "text" });
    spool.appendChunk({ seq: 1, data: "", telemetry: captured.slice(0, 3) });
    spool.close();
    const { contents } = RunSpool.open(root, runId);
    expect(contents.chunks).toEqual([
      { seq: 0, data: "text" },
      { seq: 1, data: "", telemetry: captured.slice(0, 3) },
    ]);
  });

  it("the loop samples this machine once per interval and once more when stopped", async () => {
    const got: TelemetrySample[] = [];
    const loop = await startTelemetry({ target: root, intervalMs: 200, onSample: (s) => got.push(s) });
    await new Promise((r) => setTimeout(r, 700));
    await loop.stop();
    expect(got.length).toBeGreaterThanOrEqual(3);
    const ts = got.map((s) => s.t);
    expect([...ts].sort((a, b) => a - b)).toEqual(ts);
    for (const s of got) expect(chunkSchema.safeParse({ seq: 0, data: "", telemetry: [s] }).success).toBe(true);
  });
});
