// probebook series list / show and probebook alerts: is this host getting slower, and why?
// Public HTTP API only; every cell from the server goes through terminalText.
import type { AlertView, SeriesDetail, SeriesSummary } from "../../lib/api/schemas/series";
import { connectionOptions, parse, runId } from "../args";
import { connection, getJson } from "../client";
import { EXIT, usageError } from "../exit-codes";
import { jsonLine, terminalText } from "../terminal-text";

export const SERIES_HELP = `probebook series list [--host HOST_ID] [--json]
probebook series show SERIES_ID [--json]

A series is one host, probe and parameters over time. \`list\` prints each with its latest value
and trend (the last N valid runs against the N before); \`show\` prints its runs as a table, the
current windows' verdict and its open alerts.
  --host HOST_ID  only this host's series
  --json          the API's answer as JSON`;

export const ALERTS_HELP = `probebook alerts [--all] [--json]

Regression and improvement alerts, newest first: open ones, or every one with --all.
  --json  the API's answer as JSON`;

const cell = (v: string) => terminalText(v, { oneLine: true });
const num = (v: number | null | undefined) => (v === null || v === undefined ? "—" : Math.abs(v) >= 1000 ? v.toFixed(0) : Math.abs(v) >= 10 ? v.toFixed(1) : v.toFixed(2));
const when = (iso: string | null) => (iso ? iso.slice(0, 16).replace("T", " ") : "—");

/** Rows as aligned columns (the header first). */
export function table(rows: string[][]): string {
  const widths = rows[0]!.map((_, i) => Math.max(...rows.map((r) => (r[i] ?? "").length)));
  return rows.map((r) => `${r.map((c, i) => c.padEnd(widths[i]!)).join("  ").trimEnd()}\n`).join("");
}

export function seriesListText(series: readonly SeriesSummary[]): string {
  const rows = [["ID", "SERIES", "HOST", "FIGURE", "LATEST", "TREND", "RUNS", "OPEN ALERTS", "LAST RUN (UTC)"]];
  for (const s of series) {
    rows.push(
      [s.id, s.title, s.hostName ?? "—", s.metric ? `${s.metric.noun} (${s.metric.unit})` : "—", num(s.latest), s.trend, String(s.runs), String(s.openAlerts), when(s.lastRunAt)].map(cell),
    );
  }
  return table(rows);
}

export function alertsText(alerts: readonly AlertView[]): string {
  if (alerts.length === 0) return "";
  const rows = [["ID", "KIND", "SERIES", "HOST", "RAISED (UTC)", "STATE"]];
  for (const a of alerts) rows.push([a.id, a.kind, a.seriesTitle, a.hostName ?? "—", when(a.createdAt), a.acknowledgedAt ? "acknowledged" : "open"].map(cell));
  return `${table(rows)}${alerts.map((a) => `  ${cell(a.kind)} ${when(a.createdAt)}: ${cell(a.message)}\n`).join("")}`;
}

export function seriesShowText(d: SeriesDetail): string {
  const head = [
    `${cell(d.title)} — ${cell(d.hostName ?? "no host")}`,
    `following: ${d.metric ? cell(`${d.metric.noun} (${d.metric.unit}, ${d.metric.betterWhen} is better)`) : "no headline figure yet"}; windows of ${d.windowRuns} runs, threshold ${d.thresholdPct} %; trend: ${d.trend}`,
  ];
  const rows = [["RUN", "FINISHED (UTC)", "STATUS", d.metric ? cell(`VALUE (${d.metric.unit})`) : "VALUE", "VALID", "NOTE"]];
  const changes = new Map(d.annotations.map((a) => [a.runId, a.changes.map((c) => `${c.label} ${c.from ?? "?"} → ${c.to ?? "?"}`).join(", ")]));
  for (const p of d.points) {
    const note = [p.scheduled ? "scheduled" : "", ...p.flags, p.notes ?? "", changes.has(p.runId) ? `since: ${changes.get(p.runId)}` : ""].filter(Boolean).join("; ");
    rows.push([p.runId, when(p.at), p.status.toLowerCase(), num(p.value), p.valid ? "yes" : "no", note].map(cell));
  }
  const current = d.current ? `current: ${cell(d.current.sentence)}` : `current: collecting (${2 * d.windowRuns} valid runs needed)`;
  const open = d.alerts.filter((a) => !a.acknowledgedAt);
  const alerts = open.length ? `open alerts:\n${alertsText(open)}` : "no open alerts\n";
  return `${head.join("\n")}\n\n${table(rows)}\n${current}\n${alerts}`;
}

export async function seriesCommand(argv: string[]): Promise<number> {
  const [sub, ...rest] = argv;
  if (sub === "--help" || sub === "-h" || sub === undefined) {
    process.stdout.write(`${SERIES_HELP}\n`);
    return sub === undefined ? EXIT.USAGE : EXIT.OK;
  }
  if (sub === "list") {
    const { values } = parse("series list", rest, { ...connectionOptions, host: { type: "string" }, json: { type: "boolean" } });
    if (values.help) return help(SERIES_HELP);
    const host = values.host !== undefined ? runId(values.host, "host id") : undefined;
    const conn = connection(values);
    const answer = await getJson<{ series: SeriesSummary[] }>(conn, `/api/series${host ? `?hostId=${host}` : ""}`);
    if (values.json) process.stdout.write(jsonLine(answer, 2));
    else {
      process.stdout.write(seriesListText(answer.series));
      process.stderr.write(`${answer.series.length} series\n`);
    }
    return EXIT.OK;
  }
  if (sub === "show") {
    const { values, positionals } = parse("series show", rest, { ...connectionOptions, json: { type: "boolean" } }, true);
    if (values.help) return help(SERIES_HELP);
    if (positionals.length !== 1) throw usageError("series show takes one series id (as `probebook series list` prints).");
    const id = runId(positionals[0]!, "series id");
    const conn = connection(values);
    const detail = await getJson<SeriesDetail>(conn, `/api/series/${id}`);
    process.stdout.write(values.json ? jsonLine(detail, 2) : seriesShowText(detail));
    return EXIT.OK;
  }
  throw usageError(`Unknown command "series ${sub}": use \`probebook series list\` or \`probebook series show ID\`.`);
}

export async function alertsCommand(argv: string[]): Promise<number> {
  const { values } = parse("alerts", argv, { ...connectionOptions, all: { type: "boolean" }, json: { type: "boolean" } });
  if (values.help) return help(ALERTS_HELP);
  const conn = connection(values);
  const answer = await getJson<{ alerts: AlertView[] }>(conn, `/api/alerts?state=${values.all ? "all" : "open"}`);
  if (values.json) process.stdout.write(jsonLine(answer, 2));
  else {
    process.stdout.write(alertsText(answer.alerts));
    process.stderr.write(`${answer.alerts.length} ${values.all ? "" : "open "}alerts\n`);
  }
  return EXIT.OK;
}

function help(text: string): number {
  process.stdout.write(`${text}\n`);
  return EXIT.OK;
}
