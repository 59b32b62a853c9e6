import fs from "node:fs";
import { connectionOptions, parse, runId } from "../args";
import { connection, request } from "../client";
import { EXIT, usageError } from "../exit-codes";
import { terminalText } from "../terminal-text";

export const EXPORT_HELP = `probebook export RUN [--format csv|json] [--output FILE] [--raw]

Writes one run as JSON (default: the run with its label, profile and result) or CSV (one row per
measurement, in display units) to stdout or FILE. On stdout, escape sequences and control
characters are removed unless --raw; FILE gets the export exactly as the server sent it.`;

export async function exportCommand(argv: string[]): Promise<number> {
  const { values, positionals } = parse("export", argv, { ...connectionOptions, format: { type: "string" }, output: { type: "string", short: "o" }, raw: { type: "boolean" } }, true);
  if (values.help) {
    process.stdout.write(`${EXPORT_HELP}\n`);
    return EXIT.OK;
  }
  if (positionals.length !== 1) throw usageError("export takes exactly one run id: probebook export RUN [--format csv|json].");
  const id = runId(positionals[0]!);
  const format = values.format ?? "json";
  if (format !== "csv" && format !== "json") throw usageError(`--format must be csv or json, not "${format}".`);
  const conn = connection(values);
  const text = await (await request(conn, "GET", `/api/runs/${id}/export?format=${format}`)).text();
  if (values.output) fs.writeFileSync(values.output, text);
  else {
    const shown = values.raw ? text : terminalText(text);
    process.stdout.write(shown.endsWith("\n") ? shown : `${shown}\n`);
  }
  return EXIT.OK;
}
