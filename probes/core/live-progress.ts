// A live run's progress, kept up to date from each piece of output as it arrives instead of
// re-reading the whole log per chunk. Each probe's tracker (probes/<tool>/live-progress.ts) gives
// what its whole-log functions give for the same text — the bar (`extractProgress`) and the
// timeline's series (`view.progress(null, log)`) — which probes/live-catalog.test.ts checks over
// every fixture cut in random pieces.
import { stripAnsi } from "./text";
import type { Progress } from "./types";
import type { ProgressSeries } from "./view";

export interface LiveProgress {
  /** Takes the output that just arrived, in order. Never throws. */
  append(text: string): void;
  /** The progress bar for everything appended so far; null while the output says nothing yet. */
  current(): Progress | null;
  /** The probe's series over elapsed time so far; the same array until they change. */
  series(): readonly ProgressSeries[];
}

/** A line of output and what ended it ("\r\n" counts as "\n", as the probes' readers take it). */
export interface OutputRecord {
  text: string;
  terminator: "\n" | "\r";
}

/**
 * Cuts arriving output into records ended by \n, \r\n or \r (a progress redraw ends with \r),
 * keeping the unfinished one as `tail`. A \r at the very end waits: it may be half of \r\n. Each
 * record is handed over once, without ANSI sequences (ended records cannot hold a cut one).
 */
export class RecordSplitter {
  private pending = "";

  push(text: string): OutputRecord[] {
    this.pending += text;
    const out: OutputRecord[] = [];
    const re = /\r\n|\r|\n/g;
    let start = 0;
    let m: RegExpExecArray | null;
    while ((m = re.exec(this.pending)) !== null) {
      if (m[0] === "\r" && m.index === this.pending.length - 1) break;
      out.push({ text: stripAnsi(this.pending.slice(start, m.index)), terminator: m[0] === "\r" ? "\r" : "\n" });
      start = m.index + m[0].length;
    }
    this.pending = this.pending.slice(start);
    return out;
  }

  /** True when the unfinished record is already ended by a \r (that may yet turn into \r\n). */
  get tailEndsWithCR(): boolean {
    return this.pending.endsWith("\r");
  }

  /** The unfinished record (a trailing lone \r excluded), ANSI removed. */
  get tail(): string {
    return stripAnsi(this.pending.endsWith("\r") ? this.pending.slice(0, -1) : this.pending);
  }
}

/**
 * The memo every tracker's series() needs: recompute only after something that can change them,
 * and hand out the same array otherwise (the page redraws its timeline only when it changes).
 */
export class SeriesMemo {
  private value: readonly ProgressSeries[] = [];
  private stale = false;

  invalidate(): void {
    this.stale = true;
  }

  get(compute: () => ProgressSeries[]): readonly ProgressSeries[] {
    if (this.stale) {
      this.stale = false;
      try {
        this.value = compute();
      } catch {
        // A reader bug must cost the live chart, never the page: keep what was drawn.
      }
    }
    return this.value;
  }
}

/** A tracker for a probe that draws no series while it runs. */
export const NO_SERIES: readonly ProgressSeries[] = [];

/** Runs a tracker step so that a reader bug leaves the last figure in place instead of throwing. */
export function guarded(step: () => void): void {
  try {
    step();
  } catch {
    // Same policy as guardProgress: progress is a courtesy, the log is what matters.
  }
}
