import { randomUUID } from "node:crypto";
import { appendFileSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import type { FinishRequest } from "../protocol/schemas";
import { listSpoolRunIds, RunSpool, SEGMENT_BYTES, type SpoolMeta } from "./spool";

const root = mkdtempSync(path.join(os.tmpdir(), "probebook-spool-"));
afterAll(() => rmSync(root, { recursive: true, force: true }));

const meta = (): SpoolMeta => ({ runId: randomUUID(), hostId: "h1", probe: "dd", target: "/t", startedAt: new Date().toISOString() });
const finish: FinishRequest = {
  exitCode: 0, signal: null, durationMs: 5, lastSeq: 2, error: null, cancelled: false, timedOut: false, interrupted: false, profile: null,
};
const segments = (dir: string) => readdirSync(dir).filter((n) => n.startsWith("seg-")).sort();

describe("RunSpool", () => {
  it("appends chunks and the finish as JSON lines, private to the agent, and reads them back", () => {
    const m = meta();
    const spool = RunSpool.create(root, m);
    spool.appendChunk({ seq: 0, data: "hello\n" });
    spool.appendChunk({ seq: 1, data: "wörld \u{1F600}\r\n" });
    spool.appendChunk({ seq: 2, data: "" });
    spool.appendFinish(finish);
    spool.close();
    expect(statSync(spool.dir).mode & 0o777).toBe(0o700);
    const [seg] = segments(spool.dir);
    expect(statSync(path.join(spool.dir, seg ?? "")).mode & 0o777).toBe(0o600);
    expect(readFileSync(path.join(spool.dir, seg ?? ""), "utf8").split("\n")).toHaveLength(5);
    const { contents } = RunSpool.open(root, m.runId);
    expect(contents.meta).toEqual(m);
    expect(contents.chunks.map((c) => c.data)).toEqual(["hello\n", "wörld \u{1F600}\r\n", ""]);
    expect(contents.finish).toEqual(finish);
    expect(listSpoolRunIds(root)).toContain(m.runId);
  });

  it("ignores the torn last line of a crash", () => {
    const m = meta();
    const spool = RunSpool.create(root, m);
    spool.appendChunk({ seq: 0, data: "complete" });
    spool.close();
    appendFileSync(path.join(spool.dir, segments(spool.dir)[0] ?? ""), '{"seq":1,"da');
    const { contents } = RunSpool.open(root, m.runId);
    expect(contents.chunks).toEqual([{ seq: 0, data: "complete" }]);
    expect(contents.finish).toBeNull();
  });

  it("rotates segments and deletes the closed ones the server acknowledged", () => {
    const m = meta();
    const spool = RunSpool.create(root, m);
    const big = "x".repeat(60 * 1024);
    const perSegment = Math.ceil(SEGMENT_BYTES / big.length);
    for (let seq = 0; seq < perSegment * 3; seq++) spool.appendChunk({ seq, data: big });
    expect(segments(spool.dir)).toHaveLength(3);
    spool.acknowledge(perSegment - 1);
    expect(segments(spool.dir)).toEqual(["seg-000002.jsonl", "seg-000003.jsonl"]);
    // the open segment stays even when all of it is acknowledged
    spool.acknowledge(perSegment * 3);
    expect(segments(spool.dir)).toEqual(["seg-000003.jsonl"]);
    spool.appendFinish({ ...finish, lastSeq: perSegment * 3 - 1 });
    const reopened = RunSpool.open(root, m.runId);
    expect(reopened.contents.chunks[0]?.seq).toBe(perSegment * 2);
    expect(reopened.contents.finish?.lastSeq).toBe(perSegment * 3 - 1);
    // the finish went to a fresh segment (the open one was full)
    expect(segments(spool.dir)).toEqual(["seg-000003.jsonl", "seg-000004.jsonl"]);
    // a reopened spool writes to a fresh segment and never deletes the one with the finish
    reopened.spool.appendChunk({ seq: 999, data: "late" });
    reopened.spool.acknowledge(10_000);
    expect(segments(spool.dir)).toEqual(["seg-000004.jsonl", "seg-000005.jsonl"]);
    reopened.spool.remove();
    expect(existsSync(spool.dir)).toBe(false);
  });

  it("moves a refused spool aside", () => {
    const m = meta();
    const spool = RunSpool.create(root, m);
    spool.appendChunk({ seq: 0, data: "x" });
    const dest = spool.moveAside(path.join(root, "rejected"));
    expect(dest).toBe(path.join(root, "rejected", m.runId));
    expect(existsSync(path.join(dest, "meta.json"))).toBe(true);
    expect(listSpoolRunIds(root)).not.toContain(m.runId);
  });

  it("refuses run ids that are not UUIDs (they become directory names)", () => {
    expect(() => RunSpool.create(root, { ...meta(), runId: "../../etc" })).toThrow(/not a run id/);
  });
});
