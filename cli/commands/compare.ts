import { connectionOptions, parse, positiveInt, runId } from "../args";
import { connection, request } from "../client";
import { EXIT, usageError } from "../exit-codes";
import { jsonLine, terminalText } from "../terminal-text";

export const COMPARE_HELP = `probebook compare RUN RUN… [--share [--title T] [--expires-days N]] [--format csv|json] [--json] [--raw]

Without --share: the runs side by side as JSON (or CSV), not saved; escape sequences and control
characters in it are removed unless --raw.
With --share: freezes them into a public share link and prints its URL (--json: {slug, url}).`;

export async function compareCommand(argv: string[]): Promise<number> {
  const { values, positionals } = parse(
    "compare",
    argv,
    { ...connectionOptions, share: { type: "boolean" }, title: { type: "string" }, "expires-days": { type: "string" }, format: { type: "string" }, json: { type: "boolean" }, raw: { type: "boolean" } },
    true,
  );
  if (values.help) {
    process.stdout.write(`${COMPARE_HELP}\n`);
    return EXIT.OK;
  }
  if (positionals.length < 2) throw usageError("compare takes two or more run ids: probebook compare RUN RUN ….");
  if (positionals.length > 30) throw usageError("compare takes at most 30 run ids.");
  const ids = positionals.map((p) => runId(p));
  const format = values.format ?? "json";
  if (format !== "csv" && format !== "json") throw usageError(`--format must be csv or json, not "${format}".`);
  if (!values.share && (values.title || values["expires-days"])) throw usageError("--title and --expires-days go with --share.");
  const expiresInDays = positiveInt(values["expires-days"], "expires-days", 3650);
  const conn = connection(values);
  if (values.share) {
    const res = await request(conn, "POST", "/api/comparisons", { body: { runIds: ids, ...(values.title ? { title: values.title } : {}), ...(expiresInDays ? { expiresInDays } : {}) } });
    const shared = (await res.json()) as { slug: string; url: string };
    process.stdout.write(values.json ? jsonLine(shared) : `${terminalText(shared.url, { oneLine: true })}\n`);
    return EXIT.OK;
  }
  const raw = await (await request(conn, "GET", `/api/comparisons/preview?runs=${ids.join(",")}&format=${format}`)).text();
  const text = values.raw ? raw : terminalText(raw);
  process.stdout.write(text.endsWith("\n") ? text : `${text}\n`);
  return EXIT.OK;
}
