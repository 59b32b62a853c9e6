import { connectionOptions, parse, positiveInt, runId } from "../args";
import { connection, request } from "../client";
import { EXIT, exitCodeOfStatus, usageError } from "../exit-codes";
import { followRun } from "../follow";
import { jsonLine, terminalText } from "../terminal-text";
import { report } from "./run";

export const FOLLOW_HELP = `probebook follow RUN [--timeout SEC] [--json] [--raw]

Follows a run that is already queued or running (launched from the web page, a schedule or
another shell): its output from the start, then its outcome. The exit code is the run's, as for
\`probebook run --wait\` (0 succeeded · 1 failed · 3 cancelled · 4 lost · 7 --timeout passed).`;

export const CANCEL_HELP = `probebook cancel RUN [--json]

Cancels a queued or running run (operators and admins). A queued run ends at once; a running one
ends when its agent has stopped the tool: \`probebook follow RUN\` waits for that.`;

export async function followCommand(argv: string[]): Promise<number> {
  const { values, positionals } = parse("follow", argv, { ...connectionOptions, timeout: { type: "string" }, json: { type: "boolean" }, raw: { type: "boolean" } }, true);
  if (values.help) {
    process.stdout.write(`${FOLLOW_HELP}\n`);
    return EXIT.OK;
  }
  if (positionals.length !== 1) throw usageError("follow takes exactly one run id: probebook follow RUN.");
  const id = runId(positionals[0]!);
  const timeoutSec = positiveInt(values.timeout, "timeout", 7 * 24 * 3600);
  const conn = connection(values);
  const run = await followRun(conn, id, { json: !!values.json, raw: !!values.raw, deadline: timeoutSec !== undefined ? Date.now() + timeoutSec * 1000 : undefined });
  report(run, !!values.json);
  return exitCodeOfStatus(run.status);
}

export async function cancelCommand(argv: string[]): Promise<number> {
  const { values, positionals } = parse("cancel", argv, { ...connectionOptions, json: { type: "boolean" } }, true);
  if (values.help) {
    process.stdout.write(`${CANCEL_HELP}\n`);
    return EXIT.OK;
  }
  if (positionals.length !== 1) throw usageError("cancel takes exactly one run id: probebook cancel RUN.");
  const id = runId(positionals[0]!);
  const conn = connection(values);
  const { status } = (await (await request(conn, "POST", `/api/runs/${id}/cancel`)).json()) as { status: string };
  if (values.json) process.stdout.write(jsonLine({ event: "cancel", runId: id, status }));
  else process.stderr.write(`${terminalText(status === "CANCELLED" ? `run ${id}: cancelled` : `run ${id}: cancel requested (${status.toLowerCase()}; it ends when its agent has stopped the tool)`, { oneLine: true })}\n`);
  return EXIT.OK;
}
