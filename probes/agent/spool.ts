// The write-ahead spool of one run: <state>/spool/<runId>/ holds meta.json and append-only
// JSON-lines segments (seg-000001.jsonl, …). Every chunk is written here before it is uploaded;
// a closed segment whose chunks the server has all acknowledged is deleted (that is the
// compaction), and the finish record is the run's last line. The directory disappears once the
// finish is delivered. Writes reach the kernel at once (they survive kill -9 of the agent);
// fdatasync runs in batches because a benchmark host must not be disturbed by the agent's I/O.
import { closeSync, fdatasyncSync, fsyncSync, mkdirSync, openSync, readdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync, writeSync } from "node:fs";
import path from "node:path";
import { chunkSchema, finishRequestSchema, type Chunk, type FinishRequest } from "../protocol/schemas";

export const SEGMENT_BYTES = 256 * 1024;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export interface SpoolMeta {
  runId: string;
  /** The host the run was claimed as: a spool left by a revoked registration is not replayed. */
  hostId: string;
  probe: string;
  target: string | null;
  startedAt: string;
}

export interface SpoolContents {
  meta: SpoolMeta;
  chunks: Chunk[];
  finish: FinishRequest | null;
  /** mtime of the newest segment: when the run last produced output. */
  lastWriteMs: number;
}

interface Segment {
  n: number;
  file: string;
  maxSeq: number;
  hasFinish: boolean;
  bytes: number;
}

function fsyncDir(dir: string): void {
  const fd = openSync(dir, "r");
  try {
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
}

function segmentName(n: number): string {
  return `seg-${String(n).padStart(6, "0")}.jsonl`;
}

function readSegment(file: string): { chunks: Chunk[]; finish: FinishRequest | null } {
  const chunks: Chunk[] = [];
  let finish: FinishRequest | null = null;
  for (const line of readFileSync(file, "utf8").split("\n")) {
    if (!line) continue;
    let rec: unknown;
    try {
      rec = JSON.parse(line);
    } catch {
      continue; // the torn last line of a crash
    }
    const fin = typeof rec === "object" && rec !== null && "finish" in rec ? finishRequestSchema.safeParse(rec.finish) : null;
    if (fin?.success) finish = fin.data;
    const chunk = chunkSchema.safeParse(rec);
    if (chunk.success) chunks.push(chunk.data);
  }
  return { chunks, finish };
}

/** Run ids with a spool directory under root (anything else there is ignored). */
export function listSpoolRunIds(root: string): string[] {
  try {
    return readdirSync(root).filter((n) => UUID.test(n)).sort();
  } catch {
    return [];
  }
}

export class RunSpool {
  private segments: Segment[] = [];
  private fd: number | null = null;
  private dirty = false;

  private constructor(readonly dir: string) {}

  static create(root: string, meta: SpoolMeta): RunSpool {
    if (!UUID.test(meta.runId)) throw new Error(`not a run id: ${meta.runId}`);
    const dir = path.join(root, meta.runId);
    // A run the server hands out again starts over: never append to an older attempt's segments.
    rmSync(dir, { recursive: true, force: true });
    try {
      mkdirSync(dir, { recursive: true, mode: 0o700 });
      writeFileSync(path.join(dir, "meta.json.tmp"), JSON.stringify(meta), { mode: 0o600 });
      renameSync(path.join(dir, "meta.json.tmp"), path.join(dir, "meta.json"));
      fsyncDir(dir);
    } catch (err) {
      // A full disk (ENOSPC): a directory without meta.json would be "unreadable" at every start.
      rmSync(dir, { recursive: true, force: true });
      throw err;
    }
    return new RunSpool(dir);
  }

  /** Reopens a spool left by an earlier agent process; new records go to a fresh segment. */
  static open(root: string, runId: string): { spool: RunSpool; contents: SpoolContents } {
    const spool = new RunSpool(path.join(root, runId));
    const meta = JSON.parse(readFileSync(path.join(spool.dir, "meta.json"), "utf8")) as SpoolMeta;
    const byseq = new Map<number, Chunk>();
    let finish: FinishRequest | null = null;
    let lastWriteMs = Date.parse(meta.startedAt) || 0;
    const names = readdirSync(spool.dir).filter((n) => /^seg-\d+\.jsonl$/.test(n)).sort();
    for (const name of names) {
      const file = path.join(spool.dir, name);
      const seg = readSegment(file);
      const st = statSync(file);
      lastWriteMs = Math.max(lastWriteMs, st.mtimeMs);
      for (const c of seg.chunks) byseq.set(c.seq, c);
      finish = seg.finish ?? finish;
      const maxSeq = seg.chunks.reduce((m, c) => Math.max(m, c.seq), -1);
      spool.segments.push({ n: Number(name.slice(4, 10)), file, maxSeq, hasFinish: seg.finish !== null, bytes: st.size });
    }
    const chunks = [...byseq.values()].sort((a, b) => a.seq - b.seq);
    return { spool, contents: { meta, chunks, finish, lastWriteMs } };
  }

  private append(line: string, seq: number | null, isFinish: boolean): void {
    let seg = this.segments.at(-1);
    if (this.fd === null || !seg || seg.bytes >= SEGMENT_BYTES) {
      if (this.fd !== null) closeSync(this.fd);
      const n = (seg?.n ?? 0) + 1;
      const file = path.join(this.dir, segmentName(n));
      this.fd = openSync(file, "a", 0o600);
      seg = { n, file, maxSeq: -1, hasFinish: false, bytes: 0 };
      this.segments.push(seg);
      fsyncDir(this.dir);
    }
    seg.bytes += writeSync(this.fd, line);
    if (seq !== null) seg.maxSeq = Math.max(seg.maxSeq, seq);
    if (isFinish) seg.hasFinish = true;
    this.dirty = true;
  }

  appendChunk(chunk: Chunk): void {
    const rec = chunk.telemetry ? { seq: chunk.seq, data: chunk.data, telemetry: chunk.telemetry } : { seq: chunk.seq, data: chunk.data };
    this.append(`${JSON.stringify(rec)}\n`, chunk.seq, false);
  }

  appendFinish(finish: FinishRequest): void {
    this.append(`${JSON.stringify({ finish })}\n`, null, true);
    this.sync();
  }

  /** fdatasync of the open segment, if anything was written since the last one. */
  sync(): void {
    if (this.fd === null || !this.dirty) return;
    fdatasyncSync(this.fd);
    this.dirty = false;
  }

  /** The server holds every chunk up to seq: closed segments with nothing newer can go. */
  acknowledge(upToSeq: number): void {
    const open = this.fd === null ? null : this.segments.at(-1);
    this.segments = this.segments.filter((s) => {
      if (s === open || s.hasFinish || s.maxSeq > upToSeq) return true;
      rmSync(s.file, { force: true });
      return false;
    });
  }

  close(): void {
    if (this.fd !== null) {
      this.sync();
      closeSync(this.fd);
      this.fd = null;
    }
  }

  /** The finish was delivered: nothing of this run is left to send. */
  remove(): void {
    this.close();
    rmSync(this.dir, { recursive: true, force: true });
  }

  /** Keeps a spool the server refused out of the replay path, for a bug report. */
  moveAside(rejectedRoot: string): string {
    this.close();
    mkdirSync(rejectedRoot, { recursive: true, mode: 0o700 });
    const dest = path.join(rejectedRoot, path.basename(this.dir));
    rmSync(dest, { recursive: true, force: true });
    renameSync(this.dir, dest);
    return dest;
  }
}
