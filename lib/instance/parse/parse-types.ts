/** What the request thread sends the parse worker. */
export interface ParseJob {
  probe: string;
  output: string;
  /** For a live run's finish: what the quality advice needs besides the result. */
  quality?: { params: unknown; memTotalBytes: number | null; fsType: string | null; repeats: number };
  /**
   * Output a person pasted (an import): read by probes/paste.ts, which finds several runs in one
   * paste; a live run's output is one run and is read by the parser alone.
   */
  paste?: boolean;
}

/** A run found in a paste that holds several (probes/paste.ts's PastedRunInfo). */
export interface PastedRunReply {
  run: number;
  command: string | null;
  realSeconds: number | null;
  /** The run's own lines of the paste, as pasted. */
  output: string;
}

export type ParseReply =
  | {
      kind: "parsed";
      resultJson: string;
      warnings: string[];
      measurements: number;
      format: string | null;
      /** Only for a paste holding two runs or more: each run, in the paste's order. */
      runs?: PastedRunReply[];
    }
  | { kind: "failed"; error: string }
  /** Beyond a cap of parse-limits.ts: answered 413. */
  | { kind: "too-large"; message: string }
  /** Out of time or memory: answered 422. */
  | { kind: "gave-up"; message: string };
