// Parsing tool output is CPU-bound and, for hostile input, unbounded: on the request thread one
// import froze health checks, agents and every other user. Each parse runs in its own worker
// thread with a heap limit and a deadline instead, at most PARALLEL at a time.
import path from "node:path";
import { Worker } from "node:worker_threads";
import { PARSE_LIMITS } from "./parse-limits";
import type { ParseJob, ParseReply } from "./parse-types";

const PARALLEL = 2;

const g = globalThis as unknown as { probebookParseWorkerCode?: Promise<string> };

/**
 * The worker's code, bundled once per process from its TypeScript source with esbuild. Next
 * bundles server code into chunks whose paths are not stable, so the worker is not loaded from a
 * file next to this one: its source is found from the project root (the server's working
 * directory, or PROBEBOOK_ROOT) and run with `eval`.
 */
function workerCode(): Promise<string> {
  g.probebookParseWorkerCode ??= (async () => {
    const { build } = await import("esbuild");
    const root = process.env.PROBEBOOK_ROOT ?? process.cwd();
    const out = await build({
      entryPoints: [path.join(root, "lib", "instance", "parse", "parse-worker.ts")],
      bundle: true,
      platform: "node",
      target: "node20",
      format: "cjs",
      write: false,
      logLevel: "silent",
    });
    const text = out.outputFiles[0]?.text;
    if (!text) throw new Error("the parse worker did not build");
    return text;
  })().catch((err: unknown) => {
    g.probebookParseWorkerCode = undefined;
    throw err;
  });
  return g.probebookParseWorkerCode;
}

let running = 0;
const waiting: (() => void)[] = [];

async function slot<T>(fn: () => Promise<T>): Promise<T> {
  if (running >= PARALLEL) await new Promise<void>((r) => waiting.push(r));
  running++;
  try {
    return await fn();
  } finally {
    running--;
    waiting.shift()?.();
  }
}

export interface ParseOptions {
  timeoutMs?: number;
  heapMb?: number;
}

/** Parses in a worker; never throws for the output's sake (only if the worker cannot start). */
export async function parseOffThread(job: ParseJob, opts: ParseOptions = {}): Promise<ParseReply> {
  const code = await workerCode();
  const timeoutMs = opts.timeoutMs ?? PARSE_LIMITS.timeoutMs;
  const heapMb = opts.heapMb ?? PARSE_LIMITS.heapMb;
  return slot(
    () =>
      new Promise<ParseReply>((resolve) => {
        const worker = new Worker(code, {
          eval: true,
          workerData: job,
          resourceLimits: { maxOldGenerationSizeMb: heapMb, maxYoungGenerationSizeMb: 64 },
        });
        let settled = false;
        const settle = (reply: ParseReply) => {
          if (settled) return;
          settled = true;
          clearTimeout(timer);
          void worker.terminate();
          resolve(reply);
        };
        const timer = setTimeout(
          () => settle({ kind: "gave-up", message: `parsing took longer than ${timeoutMs / 1000} s and was stopped; the output is too large or malformed.` }),
          timeoutMs,
        );
        worker.once("message", (reply: ParseReply) => settle(reply));
        worker.once("error", (err: Error & { code?: string }) =>
          settle({
            kind: "gave-up",
            message:
              err.code === "ERR_WORKER_OUT_OF_MEMORY"
                ? `parsing needed more than ${heapMb} MB of memory and was stopped; the output is too large.`
                : `the parser failed: ${err.message}`,
          }),
        );
        worker.once("exit", () => settle({ kind: "gave-up", message: "the parser stopped without an answer." }));
      }),
  );
}
