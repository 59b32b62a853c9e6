import { MAX_CHUNK_CHARS, MAX_SAMPLES_PER_CHUNK, type Chunk, type TelemetrySampleWire } from "../protocol/schemas";

export interface ChunkBufferOptions {
  /** The seq of the first chunk this buffer seals. */
  firstSeq: number;
  /** Longest time text may wait unsealed while an upload is in flight. */
  flushMs: number;
  /** Whether an upload is in flight (then text is coalesced instead of sealed at once). */
  busy(): boolean;
  /**
   * How long a telemetry sample waits for text to ride with before it is sealed alone (default
   * 900 ms, under the one-second sampling interval): a probe that prints every second then
   * uploads once a second, not twice.
   */
  sampleWaitMs?: number;
  /** Called for every sealed chunk, in seq order, before `ready`. */
  onSealed(chunk: Chunk): void;
  /** Sealed chunks are waiting: time to upload. */
  ready(): void;
}

/** Where to cut text of this length so that no chunk ends inside a surrogate pair. */
export function chunkCut(text: string, max: number = MAX_CHUNK_CHARS): number {
  const n = Math.min(text.length, max);
  const code = text.charCodeAt(n - 1);
  return n < text.length && code >= 0xd800 && code <= 0xdbff ? n - 1 : n;
}

/**
 * The Nagle half of the streamer: text is sealed into numbered chunks at once (next tick) when
 * no upload is in flight, coalesced while one is, and sealed at least every flushMs anyway so
 * that it reaches the spool quickly; a buffer of MAX_CHUNK_CHARS is sealed immediately.
 */
export class ChunkBuffer {
  private buf = "";
  /** Telemetry samples waiting for the next chunk (they ride with text, or alone). */
  private samples: TelemetrySampleWire[] = [];
  private nextSeq: number;
  private immediate: NodeJS.Immediate | null = null;
  private timer: NodeJS.Timeout | null = null;
  private sampleTimer: NodeJS.Timeout | null = null;

  constructor(private readonly opts: ChunkBufferOptions) {
    this.nextSeq = opts.firstSeq;
  }

  get lastSeq(): number {
    return this.nextSeq - 1;
  }

  get empty(): boolean {
    return this.buf === "" && this.samples.length === 0;
  }

  write(text: string): void {
    if (text.length === 0) return;
    this.buf += text;
    this.schedule(this.buf.length >= MAX_CHUNK_CHARS);
  }

  private schedule(full: boolean): void {
    if (full) return this.sealAndSignal();
    if (!this.opts.busy()) this.immediate ??= setImmediate(() => this.sealAndSignal());
    else this.timer ??= setTimeout(() => this.sealAndSignal(), this.opts.flushMs);
  }

  /** A telemetry sample goes out with the next chunk, under the same rules as text. */
  addSample(sample: TelemetrySampleWire): void {
    this.samples.push(sample);
    if (this.samples.length >= MAX_SAMPLES_PER_CHUNK) return this.sealAndSignal();
    // Text already waiting takes the sample with it; otherwise the sample waits for the next text.
    if (this.buf.length > 0) return this.schedule(false);
    this.sampleTimer ??= setTimeout(() => this.sealAndSignal(), this.opts.sampleWaitMs ?? 900);
  }

  /** Seals everything buffered now. */
  seal(): void {
    this.dispose();
    while (this.buf.length > 0 || this.samples.length > 0) {
      const n = chunkCut(this.buf);
      const chunk: Chunk = { seq: this.nextSeq++, data: this.buf.slice(0, n) };
      if (this.samples.length > 0) chunk.telemetry = this.samples.splice(0, MAX_SAMPLES_PER_CHUNK);
      this.buf = this.buf.slice(n);
      this.opts.onSealed(chunk);
    }
  }

  dispose(): void {
    if (this.immediate) clearImmediate(this.immediate);
    if (this.timer) clearTimeout(this.timer);
    if (this.sampleTimer) clearTimeout(this.sampleTimer);
    this.immediate = null;
    this.timer = null;
    this.sampleTimer = null;
  }

  private sealAndSignal(): void {
    this.seal();
    this.opts.ready();
  }
}
