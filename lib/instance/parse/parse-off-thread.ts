// Parsing tool output is CPU-bound and, for hostile input, unbounded: on the request thread one
// import froze health checks, agents and every other user. Each parse runs in its own worker
// thread with a heap limit and a deadline instead, at most PARALLEL at a time.
import path from "node:path";
import { Worker } from "node:worker_threads";
import { metrics } from "../metrics";
import { PARSE_LIMITS } from "./parse-limits";
import type { ParseJob, ParseReply } from "./parse-types";

const PARALLEL = 2;

export interface ParseOptions {
  timeoutMs?: number;
  heapMb?: number;
}

/** This instance's parse workers: at most PARALLEL at once, the rest wait in line. */
export class ParseWorkers {
  private code: Promise<string> | null = null;
  private running = 0;
  private readonly waiting: (() => void)[] = [];
  /** Workers now parsing: what stop() ends (their deadlines are cleared as they settle). */
  private readonly live = new Set<Worker>();

  /**
   * The worker's code, bundled once per instance from its TypeScript source with esbuild. Next
   * bundles server code into chunks whose paths are not stable, so the worker is not loaded from
   * a file next to this one: its source is found from the project root (the server's working
   * directory, or PROBEBOOK_ROOT) and run with `eval`.
   */
  private workerCode(): Promise<string> {
    this.code ??= (async () => {
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
      this.code = null;
      throw err;
    });
    return this.code;
  }

  private async slot<T>(fn: () => Promise<T>): Promise<T> {
    if (this.running >= PARALLEL) await new Promise<void>((r) => this.waiting.push(r));
    this.running++;
    try {
      return await fn();
    } finally {
      this.running--;
      this.waiting.shift()?.();
    }
  }

  /** Parses in a worker; never throws for the output's sake (only if the worker cannot start). */
  async parse(job: ParseJob, opts: ParseOptions = {}): Promise<ParseReply> {
    const code = await this.workerCode();
    const timeoutMs = opts.timeoutMs ?? PARSE_LIMITS.timeoutMs;
    const heapMb = opts.heapMb ?? PARSE_LIMITS.heapMb;
    return this.slot(
      () =>
        new Promise<ParseReply>((resolve) => {
          // The worker's own time (its start included), not the wait for a free slot.
          const took = metrics().parseSeconds.startTimer({ tool: job.probe });
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
            this.live.delete(worker);
            void worker.terminate();
            took({ outcome: reply.kind });
            resolve(reply);
          };
          const timer = setTimeout(
            () => settle({ kind: "gave-up", message: `parsing took longer than ${timeoutMs / 1000} s and was stopped; the output is too large or malformed.` }),
            timeoutMs,
          );
          this.live.add(worker);
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

  /** Parses running now (waiting ones not counted). */
  get inFlight(): number {
    return this.live.size;
  }

  /** Ends the parses in progress (tests, shutdown): each answers "stopped without an answer". */
  async stop(): Promise<void> {
    await Promise.all([...this.live].map((w) => w.terminate()));
  }
}
