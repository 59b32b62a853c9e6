/**
 * A host's history day in place of a terminal: its output is the `sadf -j` JSON of a sysstat day
 * file, which reads as a wall of braces. Say what it is and offer it as a download; the samples
 * themselves are drawn under Diagnosis on their clock times.
 */
export function HistoryOutput({ runId, samples, day }: { runId: string; samples: number; day: string | null }) {
  return (
    <p className="muted" data-testid="history-output">
      sysstat day file{day ? ` of ${day}` : ""}, {samples} sample{samples === 1 ? "" : "s"} (read with <code>sadf -j</code>) ·{" "}
      <a href={`/api/runs/${runId}/log`} download>
        Download the JSON
      </a>
    </p>
  );
}
