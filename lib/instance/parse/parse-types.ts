/** What the request thread sends the parse worker. */
export interface ParseJob {
  probe: string;
  output: string;
  /** For a live run's finish: what the quality advice needs besides the result. */
  quality?: { params: unknown; memTotalBytes: number | null; fsType: string | null; repeats: number };
}

export type ParseReply =
  | { kind: "parsed"; resultJson: string; warnings: string[]; measurements: number; format: string | null }
  | { kind: "failed"; error: string }
  /** Beyond a cap of parse-limits.ts: answered 413. */
  | { kind: "too-large"; message: string }
  /** Out of time or memory: answered 422. */
  | { kind: "gave-up"; message: string };
