import { randomUUID } from "node:crypto";
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { HttpError } from "./http-client";
import { memoryLogger } from "./logger";
import { LogStreamer, MAX_REQUEST_JSON_CHARS, takeBatch, type StreamerDeps } from "./log-streamer";
import { MAX_CHUNK_CHARS, MAX_CHUNKS_PER_REQUEST, type Chunk, type FinishRequest } from "../protocol/schemas";
import { RunSpool } from "./spool";

const root = mkdtempSync(path.join(os.tmpdir(), "probebook-streamer-"));
const spoolRoot = path.join(root, "spool");
const rejectedRoot = path.join(root, "rejected");
afterAll(() => rmSync(root, { recursive: true, force: true }));

const done: Omit<FinishRequest, "lastSeq"> = {
  exitCode: 0, signal: null, durationMs: 10, error: null, cancelled: false, timedOut: false, interrupted: false, profile: null,
};
const wait = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** A server in memory: stores chunks idempotently by seq and records every call in order. */
function harness(overrides: Partial<StreamerDeps> = {}) {
  const runId = randomUUID();
  const spool = RunSpool.create(spoolRoot, { runId, hostId: "h", probe: "dd", target: null, startedAt: new Date().toISOString() });
  const stored = new Map<number, string>();
  const calls: string[] = [];
  const batches: Chunk[][] = [];
  let duplicates = 0;
  let finished: FinishRequest | null = null;
  const log = memoryLogger();
  const deps: StreamerDeps = {
    upload: async (_id, chunks) => {
      batches.push(chunks);
      calls.push(`chunks ${chunks.map((c) => c.seq).join(",")}`);
      for (const c of chunks) {
        if (stored.has(c.seq)) duplicates++;
        else stored.set(c.seq, c.data);
      }
      return { cancelRequested: false };
    },
    finish: async (_id, body) => {
      calls.push(`finish ${body.lastSeq}`);
      finished = body;
    },
    log,
    rejectedRoot,
    backoff: { baseMs: 1, capMs: 20 },
    ...overrides,
  };
  const streamer = new LogStreamer(runId, spool, deps);
  const output = () => [...stored.keys()].sort((a, b) => a - b).map((s) => stored.get(s)).join("");
  const contiguous = () => [...stored.keys()].sort((a, b) => a - b).every((s, i) => s === i);
  return { runId, spool, streamer, stored, calls, batches, log, deps, output, contiguous, dups: () => duplicates, finished: () => finished };
}

describe("LogStreamer: Nagle-style chunking", () => {
  it("sends at once when idle and coalesces while an upload is in flight", async () => {
    let release: () => void = () => undefined;
    const h = harness();
    const upload = h.deps.upload;
    h.deps.upload = async (id, chunks) => {
      if (chunks[0]?.seq === 0) await new Promise<void>((r) => (release = r));
      return upload(id, chunks, new AbortController().signal);
    };
    const t0 = Date.now();
    h.streamer.write("line 1\n");
    await wait(5);
    expect(h.calls).toEqual([]); // in flight, held by the test
    expect(Date.now() - t0).toBeLessThan(50);
    h.streamer.write("line 2\n");
    h.streamer.write("line 3\n");
    release();
    expect(await h.streamer.finish(done)).toBe("delivered");
    expect(h.batches.map((b) => b.map((c) => c.data))).toEqual([["line 1\n"], ["line 2\nline 3\n"]]);
    expect(h.calls).toEqual(["chunks 0", "chunks 1", "finish 1"]);
  });

  it("seals output into the spool within ~100 ms even while an upload hangs", async () => {
    let release: () => void = () => undefined;
    const h = harness();
    h.deps.upload = async () => {
      await new Promise<void>((r) => (release = r));
      return { cancelRequested: false };
    };
    h.streamer.write("first");
    await wait(5);
    h.streamer.write("second");
    await wait(150);
    const seg = readdirSync(h.spool.dir).find((n) => n.startsWith("seg-")) ?? "";
    expect(readFileSync(path.join(h.spool.dir, seg), "utf8")).toBe('{"seq":0,"data":"first"}\n{"seq":1,"data":"second"}\n');
    release();
    h.streamer.stop();
  });

  it("splits at MAX_CHUNK_CHARS without breaking surrogate pairs, at most MAX_CHUNKS_PER_REQUEST per request", async () => {
    const h = harness();
    const emoji = "\u{1F4BE}";
    const text = `${"a".repeat(MAX_CHUNK_CHARS - 1)}${emoji}${"b".repeat(MAX_CHUNK_CHARS * 70)}`;
    for (let i = 0; i < text.length; i += 100_000) h.streamer.write(text.slice(i, i + 100_000));
    expect(await h.streamer.finish(done)).toBe("delivered");
    expect(h.output()).toBe(text);
    expect(h.contiguous()).toBe(true);
    expect(Math.max(...h.batches.map((b) => b.length))).toBeLessThanOrEqual(MAX_CHUNKS_PER_REQUEST);
    expect(h.batches.length).toBeGreaterThan(1);
    for (const c of h.stored.values()) {
      expect(c.length).toBeLessThanOrEqual(MAX_CHUNK_CHARS);
      expect(c).not.toMatch(/^[\uDC00-\uDFFF]|[\uD800-\uDBFF]$/);
    }
    expect(h.stored.get(0)).toBe("a".repeat(MAX_CHUNK_CHARS - 1));
  });

  it("keeps requests under the body budget of common reverse proxies", () => {
    const big = Array.from({ length: 40 }, (_, seq) => ({ seq, data: "\u0001".repeat(MAX_CHUNK_CHARS) }));
    expect(takeBatch(big)).toHaveLength(1); // one chunk always goes, even a large one
    const small = Array.from({ length: 100 }, (_, seq) => ({ seq, data: "x".repeat(1000) }));
    expect(takeBatch(small)).toHaveLength(MAX_CHUNKS_PER_REQUEST);
    const medium = Array.from({ length: 40 }, (_, seq) => ({ seq, data: "y".repeat(30_000) }));
    const batch = takeBatch(medium);
    expect(JSON.stringify({ chunks: batch }).length).toBeLessThanOrEqual(MAX_REQUEST_JSON_CHARS);
    expect(batch.length).toBe(17);
  });

  it("clips an error to the protocol's 2000 characters", async () => {
    const h = harness();
    expect(await h.streamer.finish({ ...done, error: "x".repeat(5000) })).toBe("delivered");
    expect(h.finished()?.error).toHaveLength(2000);
  });

  it("gives a run without output lastSeq -1", async () => {
    const h = harness();
    expect(await h.streamer.finish({ ...done, exitCode: null, error: "refused" })).toBe("delivered");
    expect(h.calls).toEqual(["finish -1"]);
    expect(existsSync(h.spool.dir)).toBe(false);
  });
});

describe("LogStreamer: failures", () => {
  it("retries an upload that fails N times, keeping order, and only then finishes", async () => {
    const h = harness();
    const upload = h.deps.upload;
    let failures = 0;
    h.deps.upload = async (id, chunks, signal) => {
      if (failures++ < 5) throw new HttpError("server", 503, "maintenance");
      return upload(id, chunks, signal);
    };
    for (let i = 0; i < 20; i++) {
      h.streamer.write(`line ${i}\n`);
      await wait(3);
    }
    expect(await h.streamer.finish(done)).toBe("delivered");
    expect(h.output()).toBe(Array.from({ length: 20 }, (_, i) => `line ${i}\n`).join(""));
    expect(h.contiguous()).toBe(true);
    expect(h.calls.at(-1)).toBe(`finish ${h.stored.size - 1}`);
    expect(h.log.lines.some((l) => /output upload failed \(maintenance\); retrying/.test(l))).toBe(true);
    expect(h.log.lines.some((l) => /works again/.test(l))).toBe(true);
  });

  it("rides out a server that is down for a while, finish included", async () => {
    const h = harness();
    let down = true;
    setTimeout(() => (down = false), 400);
    const { upload, finish } = h.deps;
    h.deps.upload = async (...a) => {
      if (down) throw new HttpError("network", null, "ECONNREFUSED");
      return upload(...a);
    };
    h.deps.finish = async (...a) => {
      if (down) throw new HttpError("network", null, "ECONNREFUSED");
      return finish(...a);
    };
    h.streamer.write("before the outage\n");
    await wait(100);
    h.streamer.write("during it\n");
    const outcome = await h.streamer.finish(done);
    expect(outcome).toBe("delivered");
    expect(h.output()).toBe("before the outage\nduring it\n");
    expect(h.finished()?.lastSeq).toBe(1);
  });

  it("resends when a response is lost; the server's idempotence removes the duplicates", async () => {
    const h = harness();
    const upload = h.deps.upload;
    let lose = 2;
    h.deps.upload = async (...a) => {
      const res = await upload(...a); // stored on the server…
      if (lose-- > 0) throw new HttpError("network", null, "socket hang up"); // …but the answer never arrives
      return res;
    };
    h.streamer.write("once\n");
    await wait(20);
    h.streamer.write("twice\n");
    expect(await h.streamer.finish(done)).toBe("delivered");
    expect(h.output()).toBe("once\ntwice\n");
    expect(h.dups()).toBeGreaterThan(0);
  });

  it("keeps the spool and finishes with what was accepted when the server refuses chunks (400)", async () => {
    const h = harness();
    const upload = h.deps.upload;
    h.deps.upload = async (id, chunks, signal) => {
      if (chunks.some((c) => c.data.includes("bad"))) throw new HttpError("client", 400, "chunks.0.data: too long");
      return upload(id, chunks, signal);
    };
    h.streamer.write("good\n");
    await wait(20);
    h.streamer.write("bad\n");
    await wait(20);
    expect(await h.streamer.finish(done)).toBe("rejected");
    expect(h.finished()).toMatchObject({ lastSeq: 0, exitCode: 0 });
    expect(h.finished()?.error).toMatch(/refused this run's output after seq 0: HTTP 400: chunks.0.data: too long/);
    expect(existsSync(path.join(rejectedRoot, h.runId, "meta.json"))).toBe(true);
    expect(existsSync(h.spool.dir)).toBe(false);
    expect(h.log.lines.some((l) => l.startsWith("error") && l.includes("refused output chunks 1..1"))).toBe(true);
  });

  it("stops on a revoked credential and keeps the spool for the next start", async () => {
    const revoked: HttpError[] = [];
    const h = harness({ onRevoked: (e) => revoked.push(e) });
    h.deps.upload = async () => {
      throw new HttpError("revoked", 401, "credential revoked");
    };
    h.streamer.write("x");
    expect(await h.streamer.finish(done)).toBe("pending");
    expect(revoked).toHaveLength(1);
    expect(RunSpool.open(spoolRoot, h.runId).contents).toMatchObject({ chunks: [{ seq: 0, data: "x" }], finish: { lastSeq: 0 } });
    // No setup report, so nothing is sent with the revoked credential.
    expect(h.calls.filter((c) => c.startsWith("finish"))).toEqual([]);
  });

  it("after a revoked credential still sends an arm's setup report once, with the output the server holds", async () => {
    const revoked: HttpError[] = [];
    const h = harness({ onRevoked: (e) => revoked.push(e) });
    h.streamer.write("before");
    await wait(150);
    expect(h.output()).toBe("before");
    h.deps.upload = async () => {
      throw new HttpError("revoked", 401, "credential revoked");
    };
    h.streamer.write("after");
    const setup = { lab: null, tunables: [{ name: "vm.dirty_ratio", device: null, from: "20", to: "5", restored: true }], droppedCaches: false, error: null };
    expect(await h.streamer.finish({ ...done, cancelled: true, setup })).toBe("pending");
    expect(revoked).toHaveLength(1);
    expect(h.calls.filter((c) => c.startsWith("finish"))).toEqual(["finish 0"]);
    expect(h.finished()).toMatchObject({ lastSeq: 0, cancelled: true, setup });
    expect(h.log.lines.some((l) => l.includes("recorded the arm's setup report although this agent's credential was revoked"))).toBe(true);
  });

  it("passes cancelRequested on", async () => {
    let cancels = 0;
    const h = harness({ onCancelRequested: () => cancels++ });
    h.deps.upload = async () => ({ cancelRequested: true });
    h.streamer.write("x");
    await wait(20);
    expect(cancels).toBe(1);
    h.streamer.stop();
  });

  it("keeps streaming from memory when the spool cannot be written", async () => {
    const h = harness();
    rmSync(h.spool.dir, { recursive: true });
    h.streamer.write("still delivered");
    expect(await h.streamer.finish(done)).toBe("delivered");
    expect(h.output()).toBe("still delivered");
    expect(h.log.lines.some((l) => /cannot write the spool/.test(l))).toBe(true);
  });

  it("gives up waiting when stopped, leaving the finish in the spool", async () => {
    const h = harness();
    h.deps.upload = async () => {
      throw new HttpError("network", null, "ECONNREFUSED");
    };
    h.streamer.write("never delivered");
    setTimeout(() => h.streamer.stop(), 100);
    expect(await h.streamer.finish(done)).toBe("pending");
    expect(RunSpool.open(spoolRoot, h.runId).contents.finish).toMatchObject({ lastSeq: 0, exitCode: 0 });
  });
});
