"use client";

import { useEffect, useState } from "react";

/** The event RunTerminal dispatches for each status it reads from the run's SSE stream. */
export const RUN_STATUS_EVENT = "probebook:run-status";

export interface RunStatusDetail {
  runId: string;
  status: string;
}

/**
 * The run's status badge, following the status events of the stream the terminal already
 * holds open (queued → running → …) rather than opening a second one.
 */
export function LiveStatusBadge({ runId, initial }: { runId: string; initial: string }) {
  const [status, setStatus] = useState(initial);
  useEffect(() => {
    const on = (e: Event) => {
      const d = (e as CustomEvent<RunStatusDetail>).detail;
      if (d.runId === runId) setStatus(d.status);
    };
    window.addEventListener(RUN_STATUS_EVENT, on);
    return () => window.removeEventListener(RUN_STATUS_EVENT, on);
  }, [runId]);
  return (
    <span className={`badge badge-${status}`} data-testid="run-status">
      {status.toLowerCase()}
    </span>
  );
}
