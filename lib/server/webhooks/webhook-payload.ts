// What a webhook target receives: the generic JSON document, or a Slack-compatible message
// (incoming webhooks: { text, blocks } in mrkdwn). Pure: the caller reads the alert.

export type WebhookEvent = "alert.regression" | "alert.improvement" | "test";

export interface ProfileChange {
  field: string;
  label: string;
  from: string | null;
  to: string | null;
}

/** The alert as a receiver sees it. */
export interface WebhookAlert {
  id: string;
  kind: "regression" | "improvement";
  message: string;
  ratio: number;
  ciLow: number;
  ciHigh: number;
  confidence: number;
  changes: ProfileChange[];
  createdAt: string;
  series: { id: string; probe: string; preset: string | null; target: string | null; host: { id: string; name: string } | null };
  url: string;
}

export interface JsonPayload {
  event: WebhookEvent;
  alert: WebhookAlert;
}

/** The alert's page; one place, so the link follows the page if it moves. */
export function alertPath(alertId: string): string {
  return `/alerts/${alertId}`;
}

/** The link in a payload: absolute when the server's public URL is known, else the path alone. */
export function alertUrl(baseUrl: string | null, alertId: string): string {
  return `${(baseUrl ?? "").replace(/\/+$/, "")}${alertPath(alertId)}`;
}

/** A made-up alert for the "Send test" button, clearly marked as such. */
export function testAlert(baseUrl: string | null, now: Date = new Date()): WebhookAlert {
  const id = "00000000-0000-4000-8000-000000000000";
  return {
    id,
    kind: "regression",
    message: "Test from Probebook: write throughput −18 % (CI −24 to −11 %) since kernel 6.8 → 6.11. No real alert was raised.",
    ratio: 0.82,
    ciLow: 0.76,
    ciHigh: 0.89,
    confidence: 0.95,
    changes: [{ field: "kernel", label: "Kernel", from: "6.8.0", to: "6.11.0" }],
    createdAt: now.toISOString(),
    series: { id, probe: "fio", preset: "quick", target: "/srv/data", host: { id, name: "example-host" } },
    url: alertUrl(baseUrl, id),
  };
}

export function jsonPayload(event: WebhookEvent, alert: WebhookAlert): JsonPayload {
  return { event, alert };
}

/** Slack mrkdwn needs &, < and > escaped; everything else is shown as written. */
function mrkdwn(s: string): string {
  return s.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;");
}

function pct(ratio: number): string {
  const p = (ratio - 1) * 100;
  return `${p >= 0 ? "+" : "−"}${Math.abs(p).toFixed(1)} %`;
}

export function slackPayload(event: WebhookEvent, alert: WebhookAlert): { text: string; blocks: unknown[] } {
  const where = [alert.series.host?.name ?? "a removed host", alert.series.probe, alert.series.preset, alert.series.target].filter(Boolean).join(" · ");
  const title = event === "test" ? "Test message" : alert.kind === "regression" ? "Regression" : "Improvement";
  const text = `${title} on ${where}: ${alert.message}`;
  const link = /^https?:\/\//.test(alert.url) ? `<${alert.url}|Open the alert>` : `Alert page: ${mrkdwn(alert.url)}`;
  const lines = [
    `*${mrkdwn(title)}* on *${mrkdwn(where)}*`,
    mrkdwn(alert.message),
    `Ratio ${pct(alert.ratio)} (CI ${pct(alert.ciLow)} to ${pct(alert.ciHigh)}, ${Math.round(alert.confidence * 100)} %)`,
  ];
  const blocks: unknown[] = [{ type: "section", text: { type: "mrkdwn", text: lines.join("\n") } }];
  if (alert.changes.length > 0) {
    const changes = alert.changes.map((c) => `• ${mrkdwn(c.label)}: ${mrkdwn(c.from ?? "—")} → ${mrkdwn(c.to ?? "—")}`).join("\n");
    blocks.push({ type: "section", text: { type: "mrkdwn", text: `*What changed on the host*\n${changes}` } });
  }
  blocks.push({ type: "context", elements: [{ type: "mrkdwn", text: link }] });
  return { text, blocks };
}

/** The body sent to a target of this format. */
export function renderPayload(format: "JSON" | "SLACK", event: WebhookEvent, alert: WebhookAlert): unknown {
  return format === "SLACK" ? slackPayload(event, alert) : jsonPayload(event, alert);
}
