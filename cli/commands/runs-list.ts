import { connectionOptions, parse, positiveInt } from "../args";
import { connection, getJson } from "../client";
import { EXIT, usageError } from "../exit-codes";
import { jsonLine, terminalText } from "../terminal-text";

export const RUNS_HELP = `probebook runs list [--host NAME] [--tag TAG] [--probe P] [--status S] [--limit N] [--json]

Lists runs, newest first (at most --limit, default 50, up to 200).
  --host NAME   part of the host's name (case-insensitive)
  --tag TAG     only runs carrying this tag
  --json        the API's answer as JSON`;

interface Row {
  id: string;
  probe: string;
  hostName: string | null;
  hostRemoved: boolean;
  status: string;
  createdAt: string;
  tags: string[];
}

export async function runsCommand(argv: string[]): Promise<number> {
  const [sub, ...rest] = argv;
  if (sub === "--help" || sub === "-h" || sub === undefined) {
    process.stdout.write(`${RUNS_HELP}\n`);
    return sub === undefined ? EXIT.USAGE : EXIT.OK;
  }
  if (sub !== "list") throw usageError(`Unknown command "runs ${sub}": use \`probebook runs list\`.`);
  const { values } = parse("runs list", rest, { ...connectionOptions, host: { type: "string" }, tag: { type: "string" }, probe: { type: "string" }, status: { type: "string" }, limit: { type: "string" }, json: { type: "boolean" } });
  if (values.help) {
    process.stdout.write(`${RUNS_HELP}\n`);
    return EXIT.OK;
  }
  const conn = connection(values);
  const q = new URLSearchParams({ pageSize: String(positiveInt(values.limit, "limit", 200) ?? 50) });
  if (values.host) q.set("host", values.host);
  if (values.tag) q.set("tag", values.tag);
  if (values.probe) q.set("probe", values.probe);
  if (values.status) q.set("status", values.status.toUpperCase());
  const page = await getJson<{ runs: Row[]; total: number }>(conn, `/api/runs?${q}`);
  if (values.json) {
    process.stdout.write(jsonLine(page, 2));
    return EXIT.OK;
  }
  const table = [["ID", "PROBE", "HOST", "STATUS", "CREATED (UTC)", "TAGS"]];
  for (const r of page.runs) {
    const host = `${r.hostName ?? "—"}${r.hostRemoved ? " (removed)" : ""}`;
    // Names and tags are the server's (and users'): one printable line per cell, or rows could be forged.
    const cells = [r.id, r.probe, host, r.status.toLowerCase(), r.createdAt.slice(0, 16).replace("T", " "), r.tags.join(",")];
    table.push(cells.map((c) => terminalText(c, { oneLine: true })));
  }
  const widths = table[0]!.map((_, i) => Math.max(...table.map((row) => row[i]!.length)));
  for (const row of table) process.stdout.write(`${row.map((c, i) => c.padEnd(widths[i]!)).join("  ").trimEnd()}\n`);
  process.stderr.write(`${page.runs.length} of ${page.total} runs\n`);
  return EXIT.OK;
}
