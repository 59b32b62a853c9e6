import type { Metadata } from "next";
import Link from "next/link";
import { AlertList } from "@/components/trends/alert-list";
import { requirePageUser } from "@/lib/auth/page-guard";
import { roleAtLeast } from "@/lib/auth/roles";
import { listAlertsQuerySchema } from "@/lib/api/schemas/series";
import { listAlerts } from "@/lib/server/alerts/list-alerts";
import { acknowledgeAlertAction } from "./actions";

export const metadata: Metadata = { title: "Alerts" };
export const dynamic = "force-dynamic";

const STATES = [
  { state: "open", label: "Open" },
  { state: "acknowledged", label: "Acknowledged" },
  { state: "all", label: "All" },
] as const;

const KINDS = [
  { kind: "all", label: "Both kinds" },
  { kind: "regression", label: "Regressions" },
  { kind: "improvement", label: "Improvements" },
] as const;

const first = (v: string | string[] | undefined) => (Array.isArray(v) ? v[0] : v);

export default async function AlertsPage({ searchParams }: { searchParams: Promise<Record<string, string | string[] | undefined>> }) {
  const sp = await searchParams;
  const actor = await requirePageUser("/alerts");
  // An unknown tab in the address is the default tab, not an error page.
  const parsed = listAlertsQuerySchema.safeParse({ state: first(sp.state), kind: first(sp.kind) });
  const { state, kind } = parsed.success ? parsed.data : listAlertsQuerySchema.parse({});
  const alerts = await listAlerts({ state, kind, limit: 200 });
  const operator = roleAtLeast(actor.role, "OPERATOR");
  const href = (s: string, k: string) => `/alerts?state=${s}${k === "all" ? "" : `&kind=${k}`}`;
  return (
    <>
      <h1>Alerts</h1>
      <p className="lead">
        A series alerts when its last valid runs differ from the ones before by more than its threshold, the whole confidence interval beyond it; the message names what changed in the host profile
        between the two windows.
      </p>
      <nav aria-label="Alert state">
        <ul className="tabs">
          {STATES.map((t) => (
            <li key={t.state}>
              <Link href={href(t.state, kind)} aria-current={t.state === state ? "page" : undefined}>
                {t.label}
              </Link>
            </li>
          ))}
        </ul>
      </nav>
      <nav aria-label="Alert kind">
        <ul className="tabs">
          {KINDS.map((t) => (
            <li key={t.kind}>
              <Link href={href(state, t.kind)} aria-current={t.kind === kind ? "page" : undefined}>
                {t.label}
              </Link>
            </li>
          ))}
        </ul>
      </nav>
      {alerts.length === 0 ? (
        <div className="empty" data-testid="alerts-empty">
          {state === "open"
            ? "No open alerts: no series has changed beyond its threshold since the last acknowledgement."
            : state === "acknowledged"
              ? "No acknowledged alerts."
              : "No alerts yet. They come from series: the same probe run again and again on a host, by hand or on a schedule."}
        </div>
      ) : (
        <AlertList alerts={alerts} acknowledge={operator ? acknowledgeAlertAction : undefined} />
      )}
    </>
  );
}
