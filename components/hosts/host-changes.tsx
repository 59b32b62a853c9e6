import type { HostChanges } from "@/lib/server/hosts/host-changes";

const gib = (b: number | null) => (b === null ? "?" : `${(b / 2 ** 30).toFixed(1)} GiB`);

/** The host page's "What experiments may change" section: the agent's own flags decide it. */
export function HostChangesView({ changes }: { changes: HostChanges }) {
  const { lab, tunables, changedNow } = changes;
  const allowed = new Set(tunables?.allowed ?? []);
  return (
    <div data-testid="host-changes">
      {changedNow.length > 0 ? (
        <div role="alert" className="alert alert-error" data-testid="changed-now">
          Changed right now by an experiment:{" "}
          {changedNow.map((c) => `${c.name}${c.device ? ` (${c.device})` : ""} = ${c.value ?? "?"}, was ${c.from}`).join("; ")}. The agent puts each
          back when its arm ends, and at its next start after a crash.
        </div>
      ) : null}
      <p>
        <strong>File-system lab:</strong>{" "}
        {lab ? (
          <>
            <code>--lab {lab.dir}</code>: {lab.fileSystems.length > 0 ? lab.fileSystems.join(", ") : "no mkfs found"} ({gib(lab.freeBytes)} free)
          </>
        ) : (
          <>off — start the agent as root with <code>--lab DIR</code> to compare file systems on loop-mounted images.</>
        )}
      </p>
      {tunables ? (
        <div className="table-wrap">
          <table className="data">
            <thead>
              <tr>
                <th>Setting</th>
                <th>Device</th>
                <th>Now</th>
                <th>Experiments may change it</th>
              </tr>
            </thead>
            <tbody>
              {tunables.current.map((t) => (
                <tr key={`${t.name}-${t.device ?? ""}`} data-testid="host-tunable">
                  <td>
                    <code>{t.name}</code>
                  </td>
                  <td>{t.device ?? "—"}</td>
                  <td>
                    {t.value ?? "—"}
                    {t.changedFrom !== null ? <span className="badge"> changed, was {t.changedFrom}</span> : null}
                  </td>
                  <td>{allowed.has(t.name) ? "yes" : "no"}</td>
                </tr>
              ))}
            </tbody>
          </table>
          <p className="muted small">
            Allowed with <code>--allow-tunable {tunables.allowed.join(",") || "NAME,…"}</code>
            {tunables.dropCaches ? "; the page cache may be dropped between runs" : ""}.
          </p>
        </div>
      ) : (
        <p>
          <strong>Tunables:</strong> none — start the agent with <code>--allow-tunable NAME[,NAME…]</code> to let experiments set them (each is
          journaled first and put back afterwards).
        </p>
      )}
    </div>
  );
}
