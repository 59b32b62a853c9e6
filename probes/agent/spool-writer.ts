import type { Logger } from "./logger";
import type { Chunk, FinishRequest } from "../protocol/schemas";
import type { RunSpool } from "./spool";

/**
 * The streamer's view of its spool: never throws. A spool that cannot be written (the probe
 * may be filling the very disk) is given up with one warning and the run goes on from memory;
 * fdatasync runs at most once per syncMs, because the host is busy being measured.
 */
export class SpoolWriter {
  private ok: boolean;
  private syncTimer: NodeJS.Timeout | null = null;
  /** Why the spool is not in use (it could not be created, or a write failed), or null. */
  failure: string | null;

  constructor(
    private readonly spool: RunSpool | null,
    private readonly runId: string,
    private readonly log: Logger,
    private readonly syncMs = 1000,
    /** Why there is no spool, when it could not be created. */
    createError: string | null = null,
  ) {
    this.ok = spool !== null;
    this.failure = spool === null ? createError : null;
  }

  appendChunk(chunk: Chunk): void {
    this.write((s) => s.appendChunk(chunk));
    if (this.ok && !this.syncTimer) {
      this.syncTimer = setTimeout(() => {
        this.syncTimer = null;
        this.write((s) => s.sync());
      }, this.syncMs);
    }
  }

  /** Synced at once: the finish record is what a restarted agent must find. */
  appendFinish(finish: FinishRequest): void {
    this.write((s) => s.appendFinish(finish));
  }

  acknowledge(upToSeq: number): void {
    this.write((s) => s.acknowledge(upToSeq));
  }

  /** Not delivered yet: closed and left for the next start. */
  keep(): void {
    this.stopTimer();
    quietly(() => this.spool?.close());
  }

  /** Delivered: gone — even a spool that broke half-way, or a restart would finish the run twice. */
  discard(): void {
    this.stopTimer();
    quietly(() => this.spool?.remove());
  }

  /** Refused by the server: out of the replay path, kept for a bug report. Returns where. */
  moveAside(rejectedRoot: string): string {
    this.stopTimer();
    try {
      return this.spool ? this.spool.moveAside(rejectedRoot) : "(nowhere: there was no spool)";
    } catch (err) {
      return `(nowhere: ${err instanceof Error ? err.message : String(err)})`;
    }
  }

  private write(action: (spool: RunSpool) => void): void {
    if (!this.ok || !this.spool) return;
    try {
      action(this.spool);
    } catch (err) {
      this.ok = false;
      this.failure = err instanceof Error ? err.message : String(err);
      this.log.warn(`run ${this.runId}: cannot write the spool (${this.failure}); its output is kept in memory only`);
    }
  }

  private stopTimer(): void {
    if (this.syncTimer) clearTimeout(this.syncTimer);
    this.syncTimer = null;
  }
}

function quietly(action: () => void): void {
  try {
    action();
  } catch {
    // tidying the spool is best effort; it must not fail the run
  }
}
