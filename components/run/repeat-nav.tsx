import Link from "next/link";

/**
 * "Repeat 1 of 3" with links to the other repeats, and once all have ended, to their comparison,
 * where repeats fold into their median and spread.
 */
export function RepeatNav({ runId, repeats }: { runId: string; repeats: { id: string; status: string }[] }) {
  if (repeats.length < 2) return null;
  const index = repeats.findIndex((r) => r.id === runId);
  const ended = repeats.every((r) => r.status !== "QUEUED" && r.status !== "RUNNING");
  return (
    <p data-testid="repeat-nav">
      Repeat <strong>{index + 1}</strong> of {repeats.length}:{" "}
      {repeats.map((r, i) => (
        <span key={r.id}>
          {r.id === runId ? <strong>{i + 1}</strong> : <Link href={`/runs/${r.id}`}>{i + 1}</Link>}{" "}
          <span className={`badge badge-${r.status}`}>{r.status.toLowerCase()}</span>{" "}
        </span>
      ))}
      {ended ? (
        <Link className="btn" href={`/compare?runs=${repeats.map((r) => r.id).join(",")}`} data-testid="repeats-median">
          Median of the {repeats.length} repeats
        </Link>
      ) : (
        <span className="muted small">the median and spread follow when all have ended</span>
      )}
    </p>
  );
}
