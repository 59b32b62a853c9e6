import { getJson, request, type Connection } from "./client";
import { CliError, EXIT } from "./exit-codes";
import { readRunEvents } from "../probes/protocol/run-events";
import { jsonLine, TerminalStream } from "./terminal-text";

export interface FinalRun {
  id: string;
  probe: string;
  hostName: string | null;
  status: string;
  exitCode: number | null;
  durationMs: number | null;
  error: string | null;
  warnings: string[];
  result: unknown;
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/**
 * Streams a run's output (GET /api/runs/{id}/events) to stdout until its `end` event, resuming
 * with Last-Event-ID after a dropped connection, then reads the finished run. With json, each
 * chunk is a JSON line instead of text. The output is an agent's: without raw, escape sequences
 * and control characters are removed before it reaches the terminal (terminal-text.ts).
 */
export async function followRun(conn: Connection, id: string, opts: { json: boolean; raw?: boolean; deadline?: number }): Promise<FinalRun> {
  let after = -1;
  const text = new TerminalStream();
  let failures = 0;
  for (;;) {
    const controller = new AbortController();
    const left = opts.deadline !== undefined ? opts.deadline - Date.now() : undefined;
    if (left !== undefined && left <= 0) throw new CliError(`Run ${id} had not ended when --timeout passed; it goes on (see ${conn.server}/runs/${id}).`, EXIT.TIMEOUT);
    const timer = left !== undefined ? setTimeout(() => controller.abort(), left) : undefined;
    let ended = false;
    try {
      const res = await request(conn, "GET", `/api/runs/${id}/events`, { headers: after >= 0 ? { "last-event-id": String(after) } : {}, signal: controller.signal });
      for await (const ev of readRunEvents(res.body!)) {
        failures = 0;
        // A frame this CLI cannot read (a newer server's event, a damaged line) is skipped.
        if (!ev.ok) continue;
        const e = ev.event;
        if (e.event === "chunk") {
          if (e.chunk.seq <= after) continue;
          after = e.chunk.seq;
          process.stdout.write(opts.json ? jsonLine({ event: "chunk", runId: id, seq: e.chunk.seq, data: e.chunk.data }) : opts.raw ? e.chunk.data : text.push(e.chunk.data));
        } else if (e.event === "status" && opts.json) {
          process.stdout.write(jsonLine({ event: "status", runId: id, ...e.status }));
        } else if (e.event === "end") {
          ended = true;
          break;
        }
      }
    } catch (err) {
      if (controller.signal.aborted) throw new CliError(`Run ${id} had not ended when --timeout passed; it goes on (see ${conn.server}/runs/${id}).`, EXIT.TIMEOUT);
      // A refusal (404: the run was deleted; 401: the token was revoked) will not get better.
      if (err instanceof CliError && err.exitCode === EXIT.API_ERROR) throw err;
    } finally {
      clearTimeout(timer);
    }
    if (ended) break;
    failures += 1;
    if (failures > 8) throw new CliError(`Lost the live output of run ${id} and could not resume it; the run may still be going (see ${conn.server}/runs/${id}).`, EXIT.UNREACHABLE);
    await sleep(Math.min(500 * 2 ** failures, 10_000));
  }
  if (!opts.json) process.stdout.write(`${opts.raw ? "" : text.end()}\n`);
  return getJson<FinalRun>(conn, `/api/runs/${id}`).then((r) => ({
    id: r.id,
    probe: r.probe,
    hostName: r.hostName,
    status: r.status,
    exitCode: r.exitCode,
    durationMs: r.durationMs,
    error: r.error,
    warnings: r.warnings,
    result: r.result,
  }));
}
