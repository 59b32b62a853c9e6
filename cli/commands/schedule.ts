import { connectionOptions, paramPairs, parse, positiveInt, runId } from "../args";
import { connection, getJson, request, type Connection } from "../client";
import { EXIT, usageError } from "../exit-codes";
import { jsonLine, terminalText } from "../terminal-text";

export const SCHEDULE_HELP = `probebook schedule create --name N --host ID [--host ID…] --probe P [--preset NAME]
                          [--target DIR] [--param k=v…] (--every 15m|1h|90 | --cron '0 3 * * *')
                          [--tz Europe/Berlin] [--jitter SECONDS] [--run-when-busy] [--quiet 22:00-06:00]
probebook schedule list [--json]
probebook schedule show ID [--json]
probebook schedule pause|resume|delete ID

Runs a probe preset on hosts at an interval or by a five-field cron expression (in --tz, default
UTC). A host that is offline at a due time is recorded as missed; one with a run queued or running
is skipped unless --run-when-busy; --quiet HH:MM-HH:MM skips due times inside it (may wrap midnight).
  --every 15m   an interval: minutes (15, 15m), hours (1h) or days (1d)
  --jitter S    each firing up to S seconds late, so many hosts do not start at once
Exit codes: 0 done, 2 bad arguments (nothing sent), 5 the server refused (fields named), 6 unreachable.`;

interface ScheduleRow {
  id: string;
  name: string;
  hosts: { id: string; name: string | null }[];
  probe: string;
  preset: string | null;
  describe: string;
  paused: boolean;
  nextFireAt: string | null;
  lastFiredAt: string | null;
}

interface Firing {
  hostName: string | null;
  hostId: string | null;
  dueAt: string;
  outcome: string;
  runId: string | null;
  message: string | null;
}

/** "15", "15m", "2h", "1d" → minutes. */
export function intervalMinutes(value: string): number {
  const m = /^(\d+)\s*(m|min|h|d)?$/i.exec(value.trim());
  if (!m) throw usageError(`--every takes minutes (15, 15m), hours (1h) or days (1d), not "${value}".`);
  const n = Number(m[1]) * ({ h: 60, d: 1440 }[(m[2] ?? "m").toLowerCase() as "h" | "d"] ?? 1);
  if (n < 1 || n > 10080) throw usageError(`--every must be between 1 minute and a week, not "${value}".`);
  return n;
}

/** "22:00-06:00" → quietStart and quietEnd. */
export function quietHours(value: string): { quietStart: string; quietEnd: string } {
  const m = /^([01]\d|2[0-3]):([0-5]\d)\s*-\s*([01]\d|2[0-3]):([0-5]\d)$/.exec(value.trim());
  if (!m) throw usageError(`--quiet takes HH:MM-HH:MM on a 24-hour clock, e.g. 22:00-06:00, not "${value}".`);
  return { quietStart: `${m[1]}:${m[2]}`, quietEnd: `${m[3]}:${m[4]}` };
}

/** The POST /api/schedules body from `schedule create`'s options; usage errors before anything is sent. */
export function scheduleBody(v: {
  name?: string;
  host?: string[];
  probe?: string;
  preset?: string;
  target?: string;
  param?: string[];
  every?: string;
  cron?: string;
  tz?: string;
  jitter?: string;
  "run-when-busy"?: boolean;
  quiet?: string;
}): Record<string, unknown> {
  if (!v.name?.trim()) throw usageError("Give the schedule a name with --name.");
  if (!v.host?.length) throw usageError("Give at least one --host ID (`probebook runs list` and the hosts page show host ids).");
  if (!v.probe) throw usageError("Give the probe with --probe (e.g. dd).");
  if (!v.every === !v.cron) throw usageError("Give either --every (15m, 1h) or --cron '0 3 * * *'.");
  const params = paramPairs(v.param);
  if (v.target !== undefined) params.target = v.target;
  return {
    name: v.name.trim(),
    hostIds: v.host.map((h) => runId(h, "host id")),
    kind: "run",
    probe: v.probe,
    ...(v.preset ? { preset: v.preset } : {}),
    params,
    ...(v.every ? { intervalMinutes: intervalMinutes(v.every) } : { cron: v.cron }),
    timezone: v.tz ?? "UTC",
    jitterSeconds: v.jitter === undefined ? 0 : v.jitter === "0" ? 0 : (positiveInt(v.jitter, "jitter", 3600) ?? 0),
    skipIfBusy: !v["run-when-busy"],
    ...(v.quiet ? quietHours(v.quiet) : {}),
  };
}

const when = (iso: string | null) => (iso ? iso.slice(0, 16).replace("T", " ") : "—");
const line = (s: string) => terminalText(s, { oneLine: true });

function table(rows: string[][]): string {
  const widths = rows[0]!.map((_, i) => Math.max(...rows.map((r) => r[i]!.length)));
  return rows.map((r) => `${r.map((c, i) => c.padEnd(widths[i]!)).join("  ").trimEnd()}\n`).join("");
}

export async function scheduleCommand(argv: string[]): Promise<number> {
  const [sub, ...rest] = argv;
  if (sub === undefined || sub === "--help" || sub === "-h") {
    process.stdout.write(`${SCHEDULE_HELP}\n`);
    return sub === undefined ? EXIT.USAGE : EXIT.OK;
  }
  switch (sub) {
    case "create":
      return create(rest);
    case "list":
      return list(rest);
    case "show":
      return show(rest);
    case "pause":
    case "resume":
    case "delete":
      return change(sub, rest);
    default:
      throw usageError(`Unknown command "schedule ${sub}": use create, list, show, pause, resume or delete.`);
  }
}

async function create(argv: string[]): Promise<number> {
  const { values } = parse("schedule create", argv, {
    ...connectionOptions,
    name: { type: "string" },
    host: { type: "string", multiple: true },
    probe: { type: "string" },
    preset: { type: "string" },
    target: { type: "string" },
    param: { type: "string", multiple: true },
    every: { type: "string" },
    cron: { type: "string" },
    tz: { type: "string" },
    jitter: { type: "string" },
    "run-when-busy": { type: "boolean" },
    quiet: { type: "string" },
    json: { type: "boolean" },
  });
  if (values.help) return help();
  const body = scheduleBody(values);
  const conn = connection(values);
  const { id } = (await (await request(conn, "POST", "/api/schedules", { body })).json()) as { id: string };
  const s = await getJson<ScheduleRow>(conn, `/api/schedules/${id}`);
  if (values.json) process.stdout.write(jsonLine(s, 2));
  else process.stdout.write(`${id}\n${line(s.name)}: ${line(s.describe)}; next ${when(s.nextFireAt)} UTC\n`);
  return EXIT.OK;
}

async function list(argv: string[]): Promise<number> {
  const { values } = parse("schedule list", argv, { ...connectionOptions, json: { type: "boolean" } });
  if (values.help) return help();
  const { schedules } = await getJson<{ schedules: ScheduleRow[] }>(connection(values), "/api/schedules");
  if (values.json) {
    process.stdout.write(jsonLine({ schedules }, 2));
    return EXIT.OK;
  }
  const rows = [["ID", "NAME", "HOSTS", "WHAT", "WHEN", "NEXT (UTC)", "STATE"]];
  for (const s of schedules) {
    const hosts = s.hosts.map((h) => h.name ?? `${h.id.slice(0, 8)} (removed)`).join(",");
    rows.push([s.id, s.name, hosts, `${s.probe}${s.preset ? `:${s.preset}` : ""}`, s.describe, when(s.nextFireAt), s.paused ? "paused" : "active"].map(line));
  }
  process.stdout.write(table(rows));
  process.stderr.write(`${schedules.length} schedule(s)\n`);
  return EXIT.OK;
}

async function show(argv: string[]): Promise<number> {
  const { values, positionals } = parse("schedule show", argv, { ...connectionOptions, json: { type: "boolean" } }, true);
  if (values.help) return help();
  const id = oneId("show", positionals);
  const s = await getJson<ScheduleRow & { firings: Firing[] }>(connection(values), `/api/schedules/${id}`);
  if (values.json) {
    process.stdout.write(jsonLine(s, 2));
    return EXIT.OK;
  }
  process.stdout.write(
    [
      `${line(s.name)} (${s.paused ? "paused" : "active"})`,
      `  what:  ${line(`${s.probe}${s.preset ? `:${s.preset}` : ""}`)}`,
      `  when:  ${line(s.describe)}`,
      `  hosts: ${line(s.hosts.map((h) => h.name ?? `${h.id} (removed)`).join(", "))}`,
      `  next:  ${when(s.nextFireAt)} UTC   last: ${when(s.lastFiredAt)} UTC`,
      "",
    ].join("\n"),
  );
  if (s.firings.length === 0) process.stdout.write("No firings yet.\n");
  else process.stdout.write(table([["DUE (UTC)", "HOST", "OUTCOME", "RUN", "MESSAGE"], ...s.firings.map((f) => [when(f.dueAt), f.hostName ?? f.hostId ?? "—", f.outcome.toLowerCase(), f.runId ?? "", f.message ?? ""].map(line))]));
  return EXIT.OK;
}

async function change(sub: "pause" | "resume" | "delete", argv: string[]): Promise<number> {
  const { values, positionals } = parse(`schedule ${sub}`, argv, connectionOptions, true);
  if (values.help) return help();
  const id = oneId(sub, positionals);
  const conn: Connection = connection(values);
  if (sub === "delete") await request(conn, "DELETE", `/api/schedules/${id}`);
  else await request(conn, "POST", `/api/schedules/${id}/${sub}`);
  process.stdout.write(`${sub === "delete" ? "deleted" : sub === "pause" ? "paused" : "resumed"} ${id}\n`);
  return EXIT.OK;
}

function oneId(sub: string, positionals: string[]): string {
  if (positionals.length !== 1) throw usageError(`schedule ${sub} takes one schedule id (\`probebook schedule list\` prints them).`);
  return runId(positionals[0]!, "schedule id");
}

function help(): number {
  process.stdout.write(`${SCHEDULE_HELP}\n`);
  return EXIT.OK;
}
