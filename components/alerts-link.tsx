"use client";

import Link from "next/link";
import { useMe } from "./me-context";

/** The header's Alerts link, with the number of open regressions when there are any. */
export function AlertsLink() {
  const { openAlerts } = useMe();
  const n = openAlerts?.regressions ?? 0;
  return (
    <Link href="/alerts" data-testid="alerts-link" aria-label={n > 0 ? `Alerts: ${n} open regression${n === 1 ? "" : "s"}` : undefined}>
      Alerts
      {n > 0 ? (
        <span className="badge badge-count" data-testid="open-regressions">
          {n}
        </span>
      ) : null}
    </Link>
  );
}
