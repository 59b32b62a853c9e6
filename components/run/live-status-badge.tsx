"use client";

import { useRunLive } from "./run-live-provider";

/**
 * The run's status badge: the status the page was rendered with, then each one the live view's
 * stream reports (queued → running → …), without a stream of its own.
 */
export function LiveStatusBadge({ initial }: { initial: string }) {
  const status = useRunLive()?.status ?? initial;
  return (
    <span className={`badge badge-${status}`} data-testid="run-status">
      {status.toLowerCase()}
    </span>
  );
}
