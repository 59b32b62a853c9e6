// Ships a run's output: chunks (sealed by ChunkBuffer) are written to the spool, then uploaded
// in order, at most MAX_CHUNKS_PER_REQUEST a request, one request at a time, retried with
// backoff for as long as the server is away; the finish goes last, after every chunk is acknowledged.
import path from "node:path";
import { backoffDelay, DEFAULT_BACKOFF, sleep, type BackoffPolicy } from "./backoff";
import { HttpError } from "./http-client";
import type { Logger } from "./logger";
import { ChunkBuffer } from "./chunk-buffer";
import { MAX_AGENT_NOTES, MAX_CHUNKS_PER_REQUEST, type Chunk, type FinishRequest, type TelemetrySampleWire } from "../protocol/schemas";
import type { RunSpool } from "./spool";
import { SpoolWriter } from "./spool-writer";

/** delivered: the server has everything; rejected: it refused (spool moved aside); pending: stopped first (spool kept for replay). */
export type FinishOutcome = "delivered" | "rejected" | "pending";

export interface StreamerDeps {
  upload(runId: string, chunks: Chunk[], signal: AbortSignal): Promise<{ cancelRequested: boolean }>;
  finish(runId: string, body: FinishRequest, signal: AbortSignal): Promise<void>;
  log: Logger;
  /** Where a refused spool is kept for a bug report (outside the replay path). */
  rejectedRoot: string;
  backoff?: BackoffPolicy;
  random?: () => number;
  flushMs?: number;
  syncMs?: number;
  onCancelRequested?: () => void;
  /** 401/403: the credential is gone; the agent must stop. The spool stays. */
  onRevoked?: (error: HttpError) => void;
  /** Bound of unacknowledged output held in memory while the spool is unusable (default MEMORY_ONLY_MAX_CHARS). */
  memoryOnlyMaxChars?: number;
}

/**
 * How much unacknowledged output a run may hold in memory once its spool cannot be written (a
 * full state dir): 64 Mi characters, about 128 MiB of JavaScript strings at worst. A probe's
 * whole output is far smaller (dd a few lines, a sar day at one sample a second ~30 MB), so this
 * is only reached when the server is also away for long; beyond it the agent, on a host being
 * measured, must not grow without bound, and the rest of the output is dropped and said so in
 * the finish (the chunks stay numbered in order, so the finish is still accepted).
 */
export const MEMORY_ONLY_MAX_CHARS = 64 * 1024 * 1024;

export class LogStreamer {
  private readonly chunker: ChunkBuffer;
  private pending: Chunk[] = [];
  private ackedUpTo = -1;
  private inFlight = false;
  private closed = false;
  private failures = 0;
  private rejected: string | null = null;
  private revoked = false;
  private readonly spool: SpoolWriter;
  private waiters: (() => void)[] = [];
  private readonly abort = new AbortController();
  /** Text written and not yet acknowledged (in the chunker or the upload queue), in characters. */
  private pendingChars = 0;
  /** Output dropped because the spool was unusable and memory held MEMORY_ONLY_MAX_CHARS. */
  private droppedChars = 0;
  private readonly spoolRoot: string | null;

  constructor(
    readonly runId: string,
    /**
     * null, or why, when the spool could not even be created (full disk): the run streams from
     * memory, and the finish says so.
     */
    spool: RunSpool | { unavailable: string; root: string } | null,
    private readonly deps: StreamerDeps,
    /** Chunks read back from the spool of an earlier process, resent as they are. */
    resume?: { chunks: Chunk[]; lastSeq: number },
  ) {
    const usable = spool && "dir" in spool ? spool : null;
    const unavailable = spool && !("dir" in spool) ? spool : null;
    this.spoolRoot = usable ? path.dirname(usable.dir) : (unavailable?.root ?? null);
    this.spool = new SpoolWriter(usable, runId, deps.log, deps.syncMs, unavailable?.unavailable ?? null);
    const firstSeq = resume ? Math.max(resume.lastSeq, resume.chunks.at(-1)?.seq ?? -1) + 1 : 0;
    if (resume) {
      this.pending = [...resume.chunks];
      this.pendingChars = resume.chunks.reduce((n, c) => n + c.data.length, 0);
      this.ackedUpTo = (resume.chunks[0]?.seq ?? firstSeq) - 1;
    }
    this.chunker = new ChunkBuffer({
      firstSeq,
      flushMs: deps.flushMs ?? 100,
      busy: () => this.inFlight,
      onSealed: (chunk) => this.sealed(chunk),
      ready: () => void this.pump(),
    });
  }

  get lastSeq(): number {
    return this.chunker.lastSeq;
  }

  write(text: string): void {
    if (this.closed) return;
    if (this.spool.failure !== null && this.pendingChars + text.length > (this.deps.memoryOnlyMaxChars ?? MEMORY_ONLY_MAX_CHARS)) {
      if (this.droppedChars === 0) this.deps.log.warn(`run ${this.runId}: the spool is unusable and the server has not taken the output held in memory; dropping further output`);
      this.droppedChars += text.length;
      return;
    }
    this.pendingChars += text.length;
    this.chunker.write(text);
  }

  /**
   * What the operator should know about how this run's output travelled, for the finish's
   * agentNotes: the spool that could not be written (the output went from memory only, and
   * would have been lost had the agent stopped before the finish), output dropped over the bound.
   */
  notes(): string[] {
    const out: string[] = [];
    const failure = this.spool.failure;
    if (failure !== null) {
      const where = this.spoolRoot ? ` in ${this.spoolRoot}` : "";
      out.push(
        clip(`The agent could not write this run's spool${where} (${failure}); the output was delivered from memory only. Free space in the agent's state directory.`, 500),
      );
    }
    if (this.droppedChars > 0) {
      out.push(`${this.droppedChars} characters of output were dropped: the spool was unusable and the server had not yet taken the ${this.deps.memoryOnlyMaxChars ?? MEMORY_ONLY_MAX_CHARS} held in memory. The stored output is incomplete.`);
    }
    return out;
  }

  /** A telemetry sample: numbered, spooled and delivered with the output, in order. */
  addSample(sample: TelemetrySampleWire): void {
    if (!this.closed) this.chunker.addSample(sample);
  }

  /** Seals the rest of the output, writes the finish record, and delivers both in order. */
  async finish(fin: Omit<FinishRequest, "lastSeq">): Promise<FinishOutcome> {
    this.closed = true;
    this.chunker.seal();
    const base: FinishRequest = { ...fin, error: clipError(fin.error), lastSeq: this.lastSeq };
    const withNotes = (): FinishRequest => {
      const notes = [...(fin.agentNotes ?? []), ...this.notes()].slice(0, MAX_AGENT_NOTES);
      return notes.length > 0 ? { ...base, agentNotes: notes } : base;
    };
    this.spool.appendFinish(withNotes());
    // Again after the finish record's own write: a failure there is news too.
    return this.deliverFinish(withNotes());
  }

  /** For a finish already in the spool (replay): every chunk first, then the finish. */
  async deliverFinish(record: FinishRequest): Promise<FinishOutcome> {
    this.closed = true;
    void this.pump();
    await new Promise<void>((resolve) => {
      const check = () => (this.settled() ? resolve() : this.waiters.push(check));
      check();
    });
    if (this.abort.signal.aborted) return this.keep();
    if (this.revoked) return this.finalReport(record);
    let body = record;
    if (this.rejected) {
      const note = `the server refused this run's output after seq ${this.ackedUpTo}: ${this.rejected}`;
      body = { ...record, lastSeq: this.ackedUpTo, error: clipError(record.error ? `${note}; ${record.error}` : note) };
    }
    for (let attempt = 0; ; attempt++) {
      try {
        await this.deps.finish(this.runId, body, this.abort.signal);
        break;
      } catch (err) {
        if (this.abort.signal.aborted) return this.keep();
        if (err instanceof HttpError && err.retryable) {
          await this.backoff(attempt, "finish", err);
          continue;
        }
        if (err instanceof HttpError && err.kind === "revoked") {
          this.revoked = true;
          this.deps.onRevoked?.(err);
          return this.finalReport(record);
        }
        this.deps.log.error(`run ${this.runId}: the server refused the finish: ${describe(err)}; spool kept in ${this.moveAside()}`);
        return "rejected";
      }
    }
    if (this.rejected) {
      this.deps.log.error(`run ${this.runId}: finished without its refused output; spool kept in ${this.moveAside()}`);
      return "rejected";
    }
    this.chunker.dispose();
    this.spool.discard();
    return "delivered";
  }

  /**
   * The credential was revoked (the host deleted or re-registered) while this run was in flight.
   * What the arm changed has been put back by now, and the server accepts exactly one thing from
   * a revoked credential: this run's setup report, so that its record says what was changed and
   * whether it was restored. Sent once, with the output the server acknowledged; the spool stays.
   */
  private async finalReport(record: FinishRequest): Promise<FinishOutcome> {
    if (record.setup && !this.abort.signal.aborted) {
      try {
        await this.deps.finish(this.runId, { ...record, lastSeq: this.ackedUpTo }, this.abort.signal);
        this.deps.log.info(`run ${this.runId}: the server recorded the arm's setup report although this agent's credential was revoked`);
      } catch (err) {
        this.deps.log.warn(`run ${this.runId}: the arm's setup report was not accepted after the credential was revoked: ${describe(err)}`);
      }
    }
    return this.keep();
  }

  /** Shutdown: stop retrying now; whatever is not delivered stays in the spool for the next start. */
  stop(): void {
    this.abort.abort(new Error("agent stopping"));
    this.closed = true;
    this.notify();
  }

  private keep(): FinishOutcome {
    this.chunker.dispose();
    this.spool.keep();
    return "pending";
  }

  private moveAside(): string {
    this.chunker.dispose();
    return this.spool.moveAside(this.deps.rejectedRoot);
  }

  private settled(): boolean {
    const drained = this.pending.length === 0 && !this.inFlight && this.chunker.empty;
    return drained || this.rejected !== null || this.revoked || this.abort.signal.aborted;
  }

  private notify(): void {
    const w = this.waiters;
    this.waiters = [];
    for (const f of w) f();
  }

  /** A chunk got its seq: into the spool (before any upload), then the upload queue. */
  private sealed(chunk: Chunk): void {
    this.spool.appendChunk(chunk);
    this.pending.push(chunk);
  }

  private async pump(): Promise<void> {
    if (this.inFlight) return;
    this.inFlight = true;
    try {
      while (this.pending.length > 0 && this.rejected === null && !this.revoked && !this.abort.signal.aborted) {
        const batch = takeBatch(this.pending);
        try {
          const res = await this.deps.upload(this.runId, batch, this.abort.signal);
          this.pending.splice(0, batch.length);
          this.pendingChars -= batch.reduce((n, c) => n + c.data.length, 0);
          this.ackedUpTo = batch.at(-1)?.seq ?? this.ackedUpTo;
          if (this.failures > 0) this.deps.log.info(`run ${this.runId}: output upload works again`);
          this.failures = 0;
          this.spool.acknowledge(this.ackedUpTo);
          if (res.cancelRequested) this.deps.onCancelRequested?.();
          // Nagle: what arrived during the request goes out in the next one, now.
          this.chunker.seal();
        } catch (err) {
          if (this.abort.signal.aborted) break;
          if (err instanceof HttpError && err.retryable) {
            await this.backoff(this.failures++, "output upload", err);
            this.chunker.seal();
          } else if (err instanceof HttpError && err.kind === "revoked") {
            this.revoked = true;
            this.deps.onRevoked?.(err);
          } else {
            // A 400 here is a bug on one side or the other: keep the spool and say so.
            this.rejected = describe(err);
            this.deps.log.error(`run ${this.runId}: the server refused output chunks ${batch[0]?.seq}..${batch.at(-1)?.seq}: ${this.rejected}`);
          }
        }
      }
    } finally {
      this.inFlight = false;
      this.notify();
    }
  }

  private async backoff(attempt: number, what: string, err: HttpError): Promise<void> {
    const delay = backoffDelay(attempt, this.deps.backoff ?? DEFAULT_BACKOFF, this.deps.random);
    // First failure, then every tenth: a server away for minutes costs a line a minute or so.
    if (attempt % 10 === 0) this.deps.log.warn(`run ${this.runId}: ${what} failed (${err.message}); retrying, next in ${(delay / 1000).toFixed(1)} s`);
    await sleep(delay, this.abort.signal);
  }
}

/**
 * Keeps a request under ~512 KiB of JSON (at least one chunk): reverse proxies commonly refuse
 * bodies over 1 MiB (nginx's default), and a refused upload cannot be told from a bug.
 */
export const MAX_REQUEST_JSON_CHARS = 512 * 1024;

export function takeBatch(pending: readonly Chunk[]): Chunk[] {
  const batch: Chunk[] = [];
  let size = 0;
  for (const chunk of pending) {
    size += JSON.stringify(chunk.data).length + 24 + (chunk.telemetry ? JSON.stringify(chunk.telemetry).length : 0);
    if (batch.length > 0 && (size > MAX_REQUEST_JSON_CHARS || batch.length >= MAX_CHUNKS_PER_REQUEST)) break;
    batch.push(chunk);
  }
  return batch;
}

function clip(text: string, max: number): string {
  return text.length > max ? `${text.slice(0, max - 1)}…` : text;
}

/** The protocol caps error at 2000 characters; a longer one would get the whole finish refused. */
function clipError(error: string | null): string | null {
  return error !== null ? clip(error, 2000) : error;
}

function describe(err: unknown): string {
  if (err instanceof HttpError) return err.status ? `HTTP ${err.status}: ${err.message}` : err.message;
  return err instanceof Error ? err.message : String(err);
}
